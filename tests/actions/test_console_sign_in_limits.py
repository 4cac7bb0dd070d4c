"""Failed sign-ins slow down and stop the client that fails, never everybody else.

Over real HTTP from several loopback source addresses (127.0.0.x stand for different clients),
and behind a reverse proxy that names the client in ``X-Forwarded-For``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections.abc import AsyncIterator
from datetime import timedelta
from unittest import mock

import aiohttp
import pytest
from aiohttp.test_utils import TestServer, make_mocked_request
from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session

from actions.admin.app import AccessLog, create_app
from actions.admin.clients import client_of, networks
from actions.admin.console.signin import THROTTLE
from actions.admin.console.throttle import FailedSignIns
from actions.admin.settings import TRUSTED_PROXIES_ENV, AdminSettings
from actions.content import db
from actions.content.models import ConsoleSession, SignInCode
from actions.settings import SettingsError
from tests.actions.admin_support import fresh_tokens
from tests.actions.console_support import csrf_in, invitation, visible
from tests.actions.content_support import NOW

LATER = NOW + timedelta(hours=1)
PROXY = ipaddress.ip_network("127.0.0.1/32")
WRONG = "ABCD-EFGH-JKLM"


@pytest.fixture
def fresh(content_db: Engine) -> Engine:
    with Session(content_db) as session, session.begin():
        session.execute(delete(ConsoleSession))
        session.execute(delete(SignInCode))
    return content_db


async def server_for(
    engine: Engine, settings: AdminSettings | None = None, first_delay: float = 0.02
) -> TestServer:
    app = create_app(engine, settings or AdminSettings(), clock=lambda: LATER)
    app[THROTTLE] = FailedSignIns(first_delay=first_delay)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server(access_log_class=AccessLog)
    return server


@pytest.fixture
async def server(fresh: Engine) -> AsyncIterator[TestServer]:
    running = await server_for(fresh)
    yield running
    await running.close()


class Browser:
    """One browser at one source address, optionally behind a proxy naming it."""

    def __init__(self, server: TestServer, source: str, forwarded_for: str | None = None) -> None:
        self.url = str(server.make_url("/console/signin"))
        self.headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(source, 0)),
            cookie_jar=aiohttp.CookieJar(unsafe=True),
        )
        self.csrf = ""

    async def sign_in(self, code: str) -> tuple[int, float, str]:
        """Status, seconds it took and the page's text."""
        if not self.csrf:
            async with self.http.get(self.url, headers=self.headers) as form:
                self.csrf = csrf_in(await form.text())
        started = time.monotonic()
        async with self.http.post(
            self.url,
            data={"csrf": self.csrf, "code": code},
            headers=self.headers,
            allow_redirects=False,
        ) as response:
            return response.status, time.monotonic() - started, visible(await response.text())

    async def close(self) -> None:
        await self.http.close()


async def wrong_codes(browser: Browser, count: int) -> list[int]:
    statuses = []
    for attempt in range(count):
        statuses.append((await browser.sign_in(f"WRONG-CODE-{attempt:04d}"))[0])
    await browser.close()
    return statuses


async def test_wrong_codes_from_many_addresses_lock_out_only_those_addresses(
    server: TestServer, fresh: Engine
) -> None:
    attackers = [Browser(server, f"127.0.0.{i}") for i in range(10, 35)]
    results = await asyncio.gather(*(wrong_codes(b, 6) for b in attackers))
    assert sum(len(r) for r in results) == 150
    assert all(r == [401] * 5 + [429] for r in results), results

    editor, caseworker = Browser(server, "127.0.0.200"), Browser(server, "127.0.0.201")
    status, took, _ = await editor.sign_in(invitation(fresh, "amina", LATER))
    assert status == 303 and took < 1.0
    status, took, _ = await caseworker.sign_in(invitation(fresh, "zarmina", LATER, "caseworker"))
    assert status == 303 and took < 1.0
    token_holder = Browser(server, "127.0.0.202")
    status, took, _ = await token_holder.sign_in(fresh_tokens(fresh).amina)
    assert status == 303 and took < 1.0

    # A locked-out address stays locked out, even with a right code, which stays unused.
    locked = Browser(server, "127.0.0.10")
    status, _, page = await locked.sign_in(invitation(fresh, "bilal", LATER))
    assert status == 429 and "Try again in 15 min" in page
    for browser in (editor, caseworker, token_holder, locked):
        await browser.close()
    with Session(fresh) as session:
        bilal = session.scalars(select(SignInCode).where(SignInCode.editor == "bilal")).one()
        assert bilal.used_at is None


@pytest.mark.serial  # a bound of milliseconds: not beside another worker
async def test_repeated_failures_wait_longer_each_time(fresh: Engine) -> None:
    server = await server_for(fresh, first_delay=0.2)
    browser = Browser(server, "127.0.0.40")
    took = [(await browser.sign_in(f"WRONG-CODE-{i}"))[1] for i in range(3)]
    assert took[0] < 0.2 <= took[1] < 0.4 <= took[2]
    other = Browser(server, "127.0.0.41")
    assert (await other.sign_in("WRONG-CODE-X"))[1] < 0.2  # another client: no wait
    for each in (browser, other):
        await each.close()
    await server.close()


async def test_behind_the_proxy_one_client_s_failures_do_not_lock_out_another(
    fresh: Engine,
) -> None:
    server = await server_for(fresh, AdminSettings(trusted_proxies=(PROXY,)))
    guesser = Browser(server, "127.0.0.1", forwarded_for="198.51.100.7")
    assert await wrong_codes(guesser, 6) == [401] * 5 + [429]
    editor = Browser(server, "127.0.0.1", forwarded_for="198.51.100.8")
    status, _, _ = await editor.sign_in(invitation(fresh, "amina", LATER))
    assert status == 303
    # The guesser cannot become someone else by adding an address of its own on the left.
    again = Browser(server, "127.0.0.1", forwarded_for="203.0.113.1, 198.51.100.7")
    assert (await again.sign_in(invitation(fresh, "bilal", LATER)))[0] == 429
    for browser in (editor, again):
        await browser.close()
    await server.close()


async def test_a_client_not_behind_a_trusted_proxy_cannot_pick_its_own_address(
    server: TestServer,
) -> None:
    statuses = []
    for attempt in range(6):
        spoofer = Browser(server, "127.0.0.50", forwarded_for=f"198.51.100.{attempt}")
        statuses.append((await spoofer.sign_in(f"WRONG-CODE-{attempt}"))[0])
        await spoofer.close()
    assert statuses == [401] * 5 + [429]


async def test_a_code_refused_five_times_is_refused_from_any_address(
    server: TestServer, fresh: Engine
) -> None:
    for i in range(5):
        browser = Browser(server, f"127.0.0.{60 + i}")
        assert (await browser.sign_in(WRONG))[0] == 401
        await browser.close()
    with mock.patch("actions.admin.console.sessions.redeem") as redeem:
        browser = Browser(server, "127.0.0.70")
        status, _, page = await browser.sign_in(WRONG.lower())
        await browser.close()
    assert status == 401 and "does not work" in page
    redeem.assert_not_called()  # not even looked up


async def test_each_failure_is_logged_in_one_line_without_the_code_or_the_address(
    server: TestServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="actions.admin.console.throttle")
    browser = Browser(server, "127.0.0.80")
    await wrong_codes(browser, 5)
    records = [r for r in caplog.records if r.name.endswith("throttle")]
    lines = [r.getMessage() for r in records]
    assert len(lines) == 5
    assert lines[0].startswith("console sign-in refused: client ")
    assert lines[-1].endswith("failure 5 of 5 in 15 min (refused from now on)")
    assert len({line.split()[4] for line in lines}) == 1  # the same pseudonym each time
    assert not any("127.0.0.80" in line or "WRONG" in line.upper() for line in lines)
    assert [r.levelno for r in records] == [logging.INFO] * 4 + [logging.WARNING]


def test_the_throttle_counts_an_attempt_before_it_is_checked() -> None:
    """A burst of parallel attempts: the sixth is refused before any of the five has failed."""
    throttle = FailedSignIns()
    attempts = [throttle.attempt("198.51.100.9", f"code-{i}", LATER) for i in range(6)]
    assert [a.refused_for is None for a in attempts] == [True] * 5 + [False]
    assert [a.delay for a in attempts[:5]] == [0.0, 0.5, 1.0, 2.0, 4.0]
    assert attempts[5].refused_for == timedelta(minutes=15)
    throttle.succeeded(attempts[0])  # a success is not a failure
    assert throttle.attempt("198.51.100.9", "code-x", LATER).refused_for is None
    later = throttle.attempt("198.51.100.9", "code-y", LATER + timedelta(minutes=15))
    assert later.refused_for is None and later.delay == 0.0


def test_the_throttle_forgets_the_oldest_clients_first_when_full() -> None:
    throttle = FailedSignIns(tracked=3)
    for client in ("a", "b", "c", "d"):
        for _ in range(5):
            throttle.attempt(client, "x" + client, LATER)
    assert throttle.attempt("a", "y", LATER).refused_for is None  # forgotten
    assert throttle.attempt("d", "y", LATER).refused_for is not None


def request_from(peer: str, forwarded_for: str | None = None) -> object:
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: (
        (peer, 1234) if name == "peername" else default
    )
    headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    return make_mocked_request("POST", "/console/signin", headers=headers, transport=transport)


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "proxies", "client"),
    [
        ("198.51.100.1", "203.0.113.5", "", "198.51.100.1"),  # no trusted proxy: the peer
        ("10.0.0.2", "203.0.113.5", "10.0.0.0/8", "203.0.113.5"),
        ("10.0.0.2", "203.0.113.9, 203.0.113.5", "10.0.0.0/8", "203.0.113.5"),  # right-most
        ("10.0.0.2", "203.0.113.5, 10.0.0.3", "10.0.0.0/8", "203.0.113.5"),  # two proxies
        ("10.0.0.2", "not-an-address, 203.0.113.5", "10.0.0.0/8", "203.0.113.5"),
        ("10.0.0.2", "203.0.113.5, junk", "10.0.0.0/8", "10.0.0.2"),  # not a proxy's writing
        ("10.0.0.2", None, "10.0.0.0/8", "10.0.0.2"),
        ("10.0.0.2", "2001:db8:1:2:aaaa::1", "10.0.0.0/8", "2001:db8:1:2::/64"),
        ("2001:db8::1", None, "", "2001:db8::/64"),
        ("::ffff:198.51.100.4", None, "", "198.51.100.4"),
    ],
)
def test_the_client_is_the_right_most_address_no_trusted_proxy_wrote(
    peer: str, forwarded_for: str | None, proxies: str, client: str
) -> None:
    request = request_from(peer, forwarded_for)
    assert client_of(request, networks(proxies)) == client  # type: ignore[arg-type]


def test_trusted_proxies_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TRUSTED_PROXIES_ENV, "127.0.0.1, 10.0.0.0/8 ,::1")
    assert [str(n) for n in AdminSettings.from_env().trusted_proxies] == [
        "127.0.0.1/32",
        "10.0.0.0/8",
        "::1/128",
    ]
    monkeypatch.setenv(TRUSTED_PROXIES_ENV, "127.0.0.1, proxy.local")
    with pytest.raises(SettingsError, match=r"CONSOLE_TRUSTED_PROXIES: 'proxy.local' is not"):
        AdminSettings.from_env()


async def test_a_right_code_is_used_once_and_counts_as_no_failure(
    server: TestServer, fresh: Engine
) -> None:
    code = invitation(fresh, "amina", LATER)
    browser = Browser(server, "127.0.0.90")
    for _ in range(4):
        assert (await browser.sign_in("WRONG-CODE-1"))[0] == 401
    assert (await browser.sign_in(code))[0] == 303
    with db.session_scope() as session:
        assert session.scalars(select(SignInCode.used_at)).one() == LATER
    await browser.close()
