"""Who is signed in, and whether a form really comes from the console.

The session cookie is ``HttpOnly`` (no script can read it), ``SameSite=Strict`` (no other site
can make the browser send it) and ``Secure`` behind TLS. Every form also carries a CSRF token:
an HMAC of the browser's cookie, so it needs no storage, changes with every sign-in and cannot
be computed by a page that cannot read the cookie. Before signing in, a random "browser" cookie
plays the session's part for the sign-in form. A POST without the right token changes nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_request import FileField
from multidict import MultiDictProxy

from actions.admin.console import sessions
from actions.admin.state import EDITOR, ENGINE, SETTINGS, now, transact
from actions.content.editors import CASEWORKER_ROLE, EDITOR_ROLE

#: A posted form, as aiohttp reads it.
Form = MultiDictProxy[str | bytes | bytearray | FileField]
SESSION_COOKIE = "console_session"
BROWSER_COOKIE = "console_browser"
LANGUAGE_COOKIE = "console_language"
CSRF_FIELD = "csrf"
SIGN_IN = "/console/signin"
HOME = "/console/"
CASES = "/console/cases"


class WrongRole(Exception):
    """A signed-in editor on a caseworker's page, or a caseworker on an editor's."""

    def __init__(self, who: SignedIn) -> None:
        super().__init__(who.role)
        self.who = who


@dataclass(frozen=True)
class SignedIn:
    #: The signed-in person's name (an editor's, as revisions name them, or a caseworker's).
    editor: str
    secret: str
    role: str = EDITOR_ROLE
    #: A caseworker's organisation: the cases she sees (``actions/cases/models.py`` ``seen_by``).
    organisation_id: int | None = None

    @property
    def home(self) -> str:
        return CASES if self.role == CASEWORKER_ROLE else HOME

    @property
    def csrf(self) -> str:
        return csrf_for(self.secret)


class FormRefused(Exception):
    """A POST without this browser's CSRF token; ``reason`` names the page's sentence."""

    reason, status = "form_expired", 403


class FormUnreadable(FormRefused):
    """A POST aiohttp cannot read as a form: a file name with a line break in it, say."""

    reason, status = "form_unreadable", 400


def csrf_for(cookie: str) -> str:
    return hmac.new(cookie.encode("utf-8"), b"console-form", hashlib.sha256).hexdigest()


def secure(request: web.Request) -> bool:
    return request.app[SETTINGS].secure_cookies or request.secure


def set_cookie(
    request: web.Request, response: web.StreamResponse, name: str, value: str, max_age: int
) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/console",
        httponly=True,
        samesite="Strict",
        secure=secure(request),
    )


def browser_secret(request: web.Request) -> tuple[str, bool]:
    """The signed-out browser's cookie, and whether it is new (and must be set)."""
    existing = request.cookies.get(BROWSER_COOKIE, "")
    if 20 <= len(existing) <= 100:
        return existing, False
    return secrets.token_urlsafe(24), True


async def signed_in(request: web.Request) -> SignedIn | None:
    secret = request.cookies.get(SESSION_COOKIE, "")
    if not secret:
        return None
    check = partial(sessions.identity_of, secret=secret, now=now(request))
    # Every console request asks this: a read, so it never waits for an editor's save.
    identity = await asyncio.to_thread(transact, request.app[ENGINE], check, True)
    if identity is None:
        return None
    request[EDITOR] = identity.name  # the access log names who did it
    return SignedIn(identity.name, secret, identity.role, identity.organisation_id)


async def signed_in_as(request: web.Request, role: str) -> SignedIn:
    """The signed-in person if they have ``role``; else a redirect to the sign-in page (and
    back afterwards), or :class:`WrongRole`."""
    who = await signed_in(request)
    if who is None:
        raise web.HTTPSeeOther(
            f"{SIGN_IN}?next={request.path_qs}" if request.method == "GET" else SIGN_IN
        )
    if who.role != role:
        raise WrongRole(who)
    return who


async def editor_or_sign_in(request: web.Request) -> SignedIn:
    """The signed-in editor (caseworkers may not edit content)."""
    return await signed_in_as(request, EDITOR_ROLE)


async def caseworker_or_sign_in(request: web.Request) -> SignedIn:
    """The signed-in caseworker (editors do not read people's cases)."""
    return await signed_in_as(request, CASEWORKER_ROLE)


async def checked_form(request: web.Request, cookie: str) -> Form:
    """The posted form if it carries the CSRF token for ``cookie``; else :class:`FormRefused`."""
    try:
        form = await request.post()
    except (ValueError, HttpProcessingError):  # a line break in a file name, a part without
        raise FormUnreadable from None  # a name: aiohttp's own words, too technical to show
    sent = form.get(CSRF_FIELD)
    if not (isinstance(sent, str) and cookie and hmac.compare_digest(sent, csrf_for(cookie))):
        raise FormRefused
    return form


def lifetime(request: web.Request) -> timedelta:
    return timedelta(hours=request.app[SETTINGS].session_hours)


def field(form: Form, name: str) -> str:
    value = form.get(name, "")
    return value if isinstance(value, str) else ""
