"""Taking console access back: ``signout NAME``, ``token revoke`` and the ``sessions`` listing.

The commands run as an operator runs them (``python -m actions.admin …``, in this process on
SQLite and PostgreSQL, and once as a real process); what they end is checked over real HTTP:
the revoked browser's next page is the sign-in page, everybody else's still opens.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from sqlalchemy import Engine, delete
from sqlalchemy.orm import Session

from actions.admin import cli, tokens
from actions.admin.app import AccessLog, create_app
from actions.admin.settings import AdminSettings
from actions.common.clock import utc_now_to_second
from actions.content.models import ConsoleSession, EditorToken, SignInCode
from tests.actions.admin_support import command
from tests.actions.console_support import csrf_in, invitation

ALLOWED = 200


@pytest.fixture
def fresh(content_db: Engine) -> Engine:
    """No sessions, invitations or tokens left by other tests (PostgreSQL keeps rows)."""
    with Session(content_db) as session, session.begin():
        for table in (ConsoleSession, SignInCode, EditorToken):
            session.execute(delete(table))
    return content_db


@pytest.fixture
async def server(fresh: Engine) -> AsyncIterator[TestServer]:
    # The commands use the real clock, so the server does too.
    running = TestServer(create_app(fresh, AdminSettings(), clock=utc_now_to_second))
    await running.start_server(access_log_class=AccessLog)
    yield running
    await running.close()


async def browser_signed_in(
    server: TestServer, code: str, page: str = "/console/"
) -> aiohttp.ClientSession:
    """A browser of its own (cookies and all) that signed in with ``code``."""
    client = aiohttp.ClientSession(
        base_url=str(server.make_url("/")), cookie_jar=aiohttp.CookieJar(unsafe=True)
    )
    form = await (await client.get("/console/signin")).text()
    response = await client.post(
        "/console/signin", data={"csrf": csrf_in(form), "code": code}, allow_redirects=False
    )
    assert response.status == 303, await response.text()
    assert (await client.get(page, allow_redirects=False)).status == ALLOWED
    return client


async def status_of(client: aiohttp.ClientSession, page: str = "/console/") -> tuple[int, str]:
    response = await client.get(page, allow_redirects=False)
    return response.status, response.headers.get("Location", "")


def admin(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``python -m actions.admin ARGS`` on this test's database: exit status and output."""
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


def new_token(engine: Engine, name: str) -> tokens.IssuedToken:
    with Session(engine) as session, session.begin():
        return tokens.issue(session, name, utc_now_to_second())


async def test_signout_ends_every_session_and_invitation_of_that_name_only(
    server: TestServer, fresh: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    now = utc_now_to_second()
    laptop = await browser_signed_in(server, invitation(fresh, "amina", now))
    phone = await browser_signed_in(server, invitation(fresh, "amina", now))
    unused = invitation(fresh, "amina", now)
    colleague = await browser_signed_in(server, invitation(fresh, "bilal", now))

    status, output = admin(capsys, "signout", "amina")
    assert status == 0
    assert output.strip() == (
        "Signed out amina: 2 console session(s) ended, 1 unused invitation(s) cancelled."
    )
    for browser in (laptop, phone):
        assert await status_of(browser) == (303, "/console/signin?next=/console/")
        refused = await browser.post("/console/signout", allow_redirects=False)
        assert refused.status == 303 and refused.headers["Location"] == "/console/signin"
    assert await status_of(colleague) == (ALLOWED, "")
    # The unused invitation opens nothing any more.
    form = await (await laptop.get("/console/signin")).text()
    again = await laptop.post("/console/signin", data={"csrf": csrf_in(form), "code": unused})
    assert again.status == 401

    status, output = admin(capsys, "signout", "amina")
    assert status == 1
    assert "amina has no open console session and no unused invitation" in output
    for browser in (laptop, phone, colleague):
        await browser.close()


async def test_a_caseworker_who_leaves_is_sent_to_sign_in_on_the_next_page(
    server: TestServer, fresh: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    code = invitation(fresh, "zarmina", utc_now_to_second(), "caseworker")
    phone = await browser_signed_in(server, code, "/console/cases")
    assert admin(capsys, "signout", "zarmina")[0] == 0
    assert await status_of(phone, "/console/cases") == (303, "/console/signin?next=/console/cases")
    await phone.close()


async def test_token_revoke_ends_the_sessions_that_token_opened(
    server: TestServer, fresh: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = new_token(fresh, "bilal"), new_token(fresh, "bilal")
    with_first = await browser_signed_in(server, first.token)
    with_second = await browser_signed_in(server, second.token)
    with_code = await browser_signed_in(server, invitation(fresh, "bilal", utc_now_to_second()))

    status, output = admin(capsys, "token", "revoke", "bilal", "--id", str(first.id))
    assert status == 0
    assert output.strip() == (
        f"Revoked token(s) {first.id} of bilal: refused from now on; "
        "1 console session(s) opened with them ended."
    )
    assert (await status_of(with_first))[0] == 303
    assert (await status_of(with_second))[0] == ALLOWED
    assert (await status_of(with_code))[0] == ALLOWED  # a code's session: `signout bilal`

    # Signing out tells the operator that a working token can sign in again.
    status, output = admin(capsys, "signout", "bilal")
    assert status == 0 and "2 console session(s) ended" in output
    assert (
        f"token(s) {second.id} can still sign in: python -m actions.admin token revoke bilal"
        in (output)
    )
    for browser in (with_first, with_second, with_code):
        assert (await status_of(browser))[0] == 303
        await browser.close()


async def test_sessions_lists_who_is_in_and_who_is_invited_never_a_secret(
    server: TestServer, fresh: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    now = utc_now_to_second()
    token = new_token(fresh, "amina")
    browser = await browser_signed_in(server, token.token)
    code = invitation(fresh, "zarmina", now, "caseworker")
    cookie = browser.cookie_jar.filter_cookies(server.make_url("/console/"))
    secret = cookie["console_session"].value

    status, output = admin(capsys, "sessions")
    assert status == 0
    lines = output.splitlines()
    assert lines[0] == "Open console sessions (1):"
    assert lines[1].split()[:3] == ["amina", "editor", "opened"]
    assert lines[1].endswith(f"with token {token.id}") and "expires" in lines[1]
    assert lines[2] == "Unused invitations (1):"
    assert lines[3].split()[:3] == ["zarmina", "caseworker", "issued"]
    # Issued without an organisation, as every caseworker's code before migration 0026.
    assert lines[3].endswith("organisation none")
    assert lines[4] == "End someone's access: python -m actions.admin signout NAME"
    assert lines[5] == (
        "A caseworker of no organisation sees only the cases no organisation answers: "
        "python -m actions.admin organisation NAME SLUG"
    )
    for hidden in (secret, token.token, code, code.replace("-", "")):
        assert hidden not in output

    admin(capsys, "signout", "amina")
    admin(capsys, "signout", "zarmina")
    assert admin(capsys, "sessions")[1].splitlines() == [
        "Open console sessions (0):",
        "Unused invitations (0):",
    ]
    await browser.close()


async def test_signout_as_an_operator_runs_it(
    server: TestServer, fresh: Engine, request: pytest.FixtureRequest
) -> None:
    if "sqlite" not in str(fresh.url):
        pytest.skip("the real-process run reads a SQLite file")
    browser = await browser_signed_in(server, invitation(fresh, "amina", utc_now_to_second()))
    done = command(Path(str(fresh.url.database)), "actions.admin", "signout", "amina")
    assert done.returncode == 0, done.stderr
    assert "1 console session(s) ended" in done.stdout
    assert (await status_of(browser))[0] == 303
    await browser.close()
