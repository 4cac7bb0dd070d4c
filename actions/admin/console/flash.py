"""One message carried across a redirect (Post/Redirect/Get), in a short-lived cookie.

Only a message key and the record it names travel, never free text from a form, so a crafted
link cannot make the console say something it would not.
"""

from __future__ import annotations

import base64
import json

from aiohttp import web

from actions.admin.console import words
from actions.admin.console.guard import set_cookie

FLASH_COOKIE = "console_flash"


def redirect_with(
    request: web.Request, location: str, key: str, **values: object
) -> web.HTTPSeeOther:
    response = web.HTTPSeeOther(location)
    payload = json.dumps({"key": key, "values": values}, ensure_ascii=True)
    set_cookie(
        request, response, FLASH_COOKIE, base64.urlsafe_b64encode(payload.encode()).decode(), 60
    )
    return response


def take(request: web.Request, language: str) -> list[tuple[str, str]]:
    """The waiting message, as (kind, text); the caller deletes the cookie."""
    raw = request.cookies.get(FLASH_COOKIE)
    if not raw:
        return []
    try:
        data = json.loads(base64.urlsafe_b64decode(raw.encode()))
        key, values = data["key"], data["values"]
        if not words.has(key) or not isinstance(values, dict):
            return []
        return [("ok", words.say(key, language, **values))]
    except (ValueError, KeyError, TypeError, IndexError):
        return []


def forget(response: web.StreamResponse) -> None:
    response.del_cookie(FLASH_COOKIE, path="/console")
