"""``/console/signin`` and ``/console/signout``: opening and ending a browser's session.

A sign-in link (``/console/signin?code=…``) only fills in the form: signing in is a POST, so a
messaging app that fetches the link to show a preview cannot use the one-time code up.
"""

from __future__ import annotations

import asyncio
import math
from datetime import datetime
from functools import partial
from typing import Any

from aiohttp import web
from sqlalchemy.orm import Session

from actions.admin.clients import client_of
from actions.admin.console import sessions
from actions.admin.console.guard import (
    BROWSER_COOKIE,
    SESSION_COOKIE,
    FormRefused,
    SignedIn,
    browser_secret,
    checked_form,
    csrf_for,
    field,
    lifetime,
    set_cookie,
    signed_in,
)
from actions.admin.console.pages import render
from actions.admin.console.refusals import form_refused
from actions.admin.console.throttle import FailedSignIns
from actions.admin.state import SETTINGS, in_transaction, now

routes = web.RouteTableDef()
THROTTLE: web.AppKey[FailedSignIns] = web.AppKey("failed_sign_ins")
HOME = "/console/"


def safe_next(raw: str) -> str:
    """Where to go after signing in: a console page, never another site."""
    if raw.startswith("/console/") and not raw.startswith("//") and "\\" not in raw:
        return raw
    return HOME


def sign_in_page(
    request: web.Request,
    error: str | None = None,
    status: int = 200,
    notice: str | None = None,
    **values: Any,
) -> web.Response:
    secret, new = browser_secret(request)
    context = {
        "csrf": csrf_for(secret),
        "error": error,
        "notice": notice,
        "values": values,
        "code": request.query.get("code", ""),
        "next": safe_next(request.query.get("next", "")),
    }
    response = render(request, "signin.html", context, None, status)
    if new:
        set_cookie(request, response, BROWSER_COOKIE, secret, 24 * 3600)
    return response


@routes.get("/console/signin")
async def sign_in_form(request: web.Request) -> web.Response:
    who = await signed_in(request)
    if who is not None and "code" not in request.query:
        raise web.HTTPSeeOther(who.home)
    return sign_in_page(request)


@routes.post("/console/signin")
async def sign_in(request: web.Request) -> web.Response:
    try:
        form = await checked_form(request, request.cookies.get(BROWSER_COOKIE, ""))
    except FormRefused as refusal:
        return form_refused(request, None, refusal)
    presented, moment = field(form, "code"), now(request)
    throttle = request.app[THROTTLE]
    attempt = throttle.attempt(
        client_of(request, request.app[SETTINGS].trusted_proxies), presented, moment
    )
    if attempt.refused_for is not None:
        wait = attempt.refused_for.total_seconds()
        response = sign_in_page(
            request, "too_many_tries", 429, minutes=max(1, math.ceil(wait / 60))
        )
        response.headers["Retry-After"] = str(math.ceil(wait))
        return response
    if attempt.delay:
        await asyncio.sleep(attempt.delay)

    def enter(session: Session) -> tuple[str, str]:
        if attempt.spent_code:
            raise sessions.SignInRefused
        who = sessions.redeem(session, presented, moment)
        return sessions.open_session(session, who, moment, lifetime(request)), who.role

    try:
        secret, role = await in_transaction(request, enter)
    except sessions.SignInRefused:
        throttle.failed(attempt)
        return sign_in_page(request, "sign_in_refused", 401)
    throttle.succeeded(attempt)
    home = SignedIn("", "", role).home
    wanted = safe_next(field(form, "next"))
    response = web.HTTPSeeOther(home if wanted == HOME else wanted)
    set_cookie(request, response, SESSION_COOKIE, secret, int(lifetime(request).total_seconds()))
    response.del_cookie(BROWSER_COOKIE, path="/console")
    raise response


@routes.post("/console/signout")
async def sign_out(request: web.Request) -> web.Response:
    who = await signed_in(request)
    if who is None:
        raise web.HTTPSeeOther("/console/signin")
    try:
        await checked_form(request, who.secret)
    except FormRefused as refusal:
        return form_refused(request, who, refusal)
    await in_transaction(request, partial(_end, secret=who.secret, moment=now(request)))
    response = sign_in_page(request, notice="signed_out")
    response.del_cookie(SESSION_COOKIE, path="/console")
    return response


def _end(session: Session, secret: str, moment: datetime) -> None:
    sessions.end_session(session, secret, moment)
