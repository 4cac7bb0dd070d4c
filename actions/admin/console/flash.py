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


#: A further message: its key and values.
Said = tuple[str, dict[str, object]]


def redirect_with(
    request: web.Request, location: str, key: str, *also: Said, **values: object
) -> web.HTTPSeeOther:
    """Redirect, saying ``key`` with ``values`` on the next page, then each of ``also``."""
    response = web.HTTPSeeOther(location)
    more = [{"key": said, "values": named} for said, named in also]
    payload = json.dumps({"key": key, "values": values, "also": more}, ensure_ascii=True)
    set_cookie(
        request, response, FLASH_COOKIE, base64.urlsafe_b64encode(payload.encode()).decode(), 60
    )
    return response


def take(request: web.Request, language: str) -> list[tuple[str, str]]:
    """The waiting messages, as (kind, text); the caller deletes the cookie."""
    raw = request.cookies.get(FLASH_COOKIE)
    if not raw:
        return []
    try:
        data = json.loads(base64.urlsafe_b64decode(raw.encode()))
        said = [data, *data.get("also", [])]
        if not all(words.has(one["key"]) and isinstance(one["values"], dict) for one in said):
            return []
        return [("ok", words.say(one["key"], language, **one["values"])) for one in said]
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return []


def forget(response: web.StreamResponse) -> None:
    response.del_cookie(FLASH_COOKIE, path="/console")
