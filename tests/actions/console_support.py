"""Helpers for the console tests: signing in as a browser does, reading forms out of pages."""

from __future__ import annotations

import html
import re
from datetime import datetime

from aiohttp import web
from aiohttp.test_utils import TestClient
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from actions.admin.console import sessions

Client = TestClient[web.Request, web.Application]
_CSRF = re.compile(r'name="csrf" value="([0-9a-f]{64})"')
_VERSION = re.compile(r'name="version" value="(\d+)"')


def invitation(engine: Engine, editor: str, now: datetime) -> str:
    with Session(engine) as session, session.begin():
        return sessions.invite(session, editor, now).code


def csrf_in(page: str) -> str:
    found = _CSRF.search(page)
    assert found is not None, page[:2000]
    return found.group(1)


def version_in(page: str) -> str:
    found = _VERSION.search(page)
    assert found is not None, page[:2000]
    return found.group(1)


def visible(page: str) -> str:
    """The page's text without tags, unescaped, whitespace collapsed: what a reader sees."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


async def sign_in(client: Client, code: str) -> str:
    """Sign in with ``code`` as a browser does; the CSRF token of the signed-in session."""
    form = await (await client.get("/console/signin")).text()
    response = await client.post("/console/signin", data={"csrf": csrf_in(form), "code": code})
    assert response.status == 200 and response.url.path == "/console/", await response.text()
    return csrf_in(await response.text())


def form_of(page: str) -> dict[str, str]:
    """The values of the record form's inputs, textareas and selected options, as posted."""
    start = (
        page.index('<form method="post" action="/console/edit/')
        if ('<form method="post" action="/console/edit/' in page)
        else page.index('<form method="post" action="/console/new/')
    )
    form = page[start : page.index("</form>", start)]
    values: dict[str, str] = {}
    for name, value in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form):
        values[html.unescape(name)] = html.unescape(value)
    for name, value in re.findall(
        r'<textarea[^>]*name="([^"]+)"[^>]*>(.*?)</textarea>', form, re.S
    ):
        values[html.unescape(name)] = html.unescape(value)
    for name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', body)
        values[name] = html.unescape(chosen.group(1)) if chosen else ""
    for name in re.findall(r'<input type="checkbox" name="([^"]+)"', form):
        values.pop(name, None)
    return values
