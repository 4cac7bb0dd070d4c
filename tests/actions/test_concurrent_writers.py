"""What "works once" and "a stale save is not applied" mean under concurrency, on a real admin
server process, on SQLite (the default database) and PostgreSQL.

Requests are fired together: one one-time code presented by eight browsers opens one session;
ten writers holding one ``If-Match`` version (the API) or one form ``version`` (the console)
change the record once, and the others are told it changed.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest
from sqlalchemy import Engine, delete, func, select
from sqlalchemy.orm import Session

from actions.common.clock import utc_now_to_second
from actions.content import db
from actions.content.models import ConsoleSession, Revision, SignInCode
from scripts.stack import free_port
from tests.actions.admin_support import REPO, bearer, fresh_tokens
from tests.actions.console_support import csrf_in, form_of, invitation

WRITERS = 10
BROWSERS = 8
ROUNDS = 3
GATE = "gate/KBL/abbey-gate"


@pytest.fixture
def admin_server(content_db: Engine, tmp_path: Path) -> Iterator[str]:
    """``python -m actions.admin serve`` on a free port, on the test's database; its URL."""
    with Session(content_db) as session, session.begin():
        session.execute(delete(ConsoleSession))
        session.execute(delete(SignInCode))
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO), db.URL_ENV: str(os.environ[db.URL_ENV])}
    log = (tmp_path / "admin.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "actions.admin", "serve", "--port", str(port)],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail((tmp_path / "admin.log").read_text())
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()
        assert "Traceback" not in (tmp_path / "admin.log").read_text()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def revisions_of_the_gate(engine: Engine) -> int:
    with Session(engine) as session:
        count = select(func.count()).where(Revision.record_key == "KBL/abbey-gate")
        return session.scalar(count.select_from(Revision)) or 0


async def test_one_code_presented_by_eight_browsers_at_once_opens_one_session(
    admin_server: str, content_db: Engine
) -> None:
    code = invitation(content_db, "amina", utc_now_to_second())
    browsers = [  # from addresses of their own, as eight phones would be
        aiohttp.ClientSession(
            base_url=admin_server,
            cookie_jar=aiohttp.CookieJar(unsafe=True),
            connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{10 + i}", 0)),
        )
        for i in range(BROWSERS)
    ]
    try:
        forms = [await (await b.get("/console/signin")).text() for b in browsers]

        async def present(browser: aiohttp.ClientSession, form: str) -> int:
            data = {"csrf": csrf_in(form), "code": code}
            async with browser.post("/console/signin", data=data, allow_redirects=False) as r:
                return r.status

        statuses = await asyncio.gather(
            *(present(b, f) for b, f in zip(browsers, forms, strict=True))
        )
    finally:
        for browser in browsers:
            await browser.close()
    assert sorted(statuses) == [303] + [401] * (BROWSERS - 1)
    with Session(content_db) as session:
        assert session.scalar(select(func.count()).select_from(ConsoleSession)) == 1


async def test_ten_writers_with_one_if_match_change_the_record_once(
    admin_server: str, content_db: Engine, http: aiohttp.ClientSession
) -> None:
    token = bearer(fresh_tokens(content_db).amina)
    url = f"{admin_server}/records/{GATE}"
    for round_ in range(ROUNDS):
        async with http.get(url, headers=token) as current:
            assert current.status == 200
            tag = current.headers["ETag"]
        before = revisions_of_the_gate(content_db)

        async def write(note: str, tag: str) -> int:
            body = {"changes": {"note": {"en": note, "prs": note, "ps": note}}, "note": note}
            headers = {**token, "If-Match": tag}
            async with http.put(url, json=body, headers=headers) as answer:
                return answer.status

        statuses = await asyncio.gather(*(write(f"race {round_}.{i}", tag) for i in range(WRITERS)))
        assert sorted(statuses) == [200] + [412] * (WRITERS - 1), (round_, statuses)
        assert revisions_of_the_gate(content_db) == before + 1


async def test_ten_console_saves_of_one_version_publish_once(
    admin_server: str, content_db: Engine
) -> None:
    code = invitation(content_db, "amina", utc_now_to_second())
    async with aiohttp.ClientSession(
        base_url=admin_server, cookie_jar=aiohttp.CookieJar(unsafe=True)
    ) as browser:
        form = await (await browser.get("/console/signin")).text()
        signed = await browser.post("/console/signin", data={"csrf": csrf_in(form), "code": code})
        assert signed.status == 200
        page = f"/console/edit/{GATE}"
        for round_ in range(ROUNDS):
            fields = form_of(await (await browser.get(page)).text())
            before = revisions_of_the_gate(content_db)

            async def save(note: str, fields: dict[str, str]) -> int:
                data = {
                    **fields,
                    "note.en": note,
                    "note.prs": note,
                    "note.ps": note,
                    "do": "publish",
                }
                async with browser.post(page, data=data, allow_redirects=False) as answer:
                    return answer.status

            statuses = await asyncio.gather(
                *(save(f"race {round_}.{i}", fields) for i in range(WRITERS))
            )
            assert sorted(statuses) == [303] + [409] * (WRITERS - 1), (round_, statuses)
            assert revisions_of_the_gate(content_db) == before + 1
