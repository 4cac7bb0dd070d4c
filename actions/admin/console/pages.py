"""Rendering a console page: the interface language, its direction, and what every page shows.

The language comes from ``?lang=`` (remembered in a cookie), then the cookie, then English.
Templates are autoescaped (Jinja2 ``select_autoescape``), so a text an editor typed can never
become markup in another editor's browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import partial
from typing import Any

import aiohttp_jinja2
from aiohttp import web

from actions.admin.console import words
from actions.admin.console.guard import LANGUAGE_COOKIE, SignedIn, set_cookie
from actions.admin.state import now
from actions.common import kabul_time
from actions.content import format as fmt
from actions.content.records import in_menu
from kernel.lang import tags, texts
from kernel.lang.codes import LANGUAGES

YEAR = 365 * 24 * 3600


def menu() -> list[str]:
    """The kinds in the order the menu shows them: what changes by the hour first."""
    return [spec.kind.value for spec in in_menu()]


def interface_language(request: web.Request) -> tuple[str, bool]:
    """The interface language and whether it was just chosen (and must be remembered)."""
    asked = request.query.get("lang")
    if asked in LANGUAGES:
        return asked, True
    return words.language_of(request.cookies.get(LANGUAGE_COOKIE)), False


#: Choice values in the words answers use for them (``content.<group>.<value>`` of the
#: catalogue); other choices show their value.
CHOICE_WORDS = {
    "state": ("status", "gate"),
    "status": ("status",),
    "verification": ("verification",),
    "kind": ("kind",),
    "verdict": ("verdict",),
    "country": ("country",),
    "evacuates_for": ("country",),
}


def choice_name(field: str, value: str, language: str) -> str:
    for group in CHOICE_WORDS.get(field, ()):
        message = f"content.{group}.{value}"
        if message in texts.CATALOGUE:
            shown = texts.render(message, language)
            return f"{shown} ({value})" if language != "en" else shown
    return value


def kabul(moment: datetime | None) -> str:
    """A time as editors read it: Kabul time, to the minute (the pages say it is Kabul's)."""
    return kabul_time.kabul(moment, missing="", offset=False)


def render(
    request: web.Request,
    template: str,
    context: Mapping[str, Any],
    who: SignedIn | None,
    status: int = 200,
) -> web.Response:
    language, chosen = interface_language(request)
    moment = now(request)
    page = {
        "lang": language,
        "dir": words.direction(language),
        # ``lang`` and ``dir`` of text in a language (kernel/lang/tags.py): "fa-AF" for Dari.
        "lang_tag": tags.tag,
        "lang_dir": tags.direction,
        "t": partial(words.say, language=language),
        "kind_name": lambda kind: words.label(words.KIND, kind, language),
        "field_name": lambda name: words.label(words.FIELD, name, language),
        "channel_name": lambda channel: words.label(words.CHANNEL, channel, language),
        "ago": lambda when: fmt.ago(when, moment, language),
        "kabul": kabul,
        "choice_name": lambda name, value: choice_name(name, value, language),
        "languages": words.LANGUAGE_NAMES,
        "menu": menu(),
        "who": who,
        "path": request.path,
        **context,
    }
    response = aiohttp_jinja2.render_template(template, request, page, status=status)
    if chosen:
        set_cookie(request, response, LANGUAGE_COOKIE, language, YEAR)
    return response
