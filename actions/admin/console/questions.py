"""``/console/questions``: what people asked in the last 7 days, and what we could not answer.

Editors' role only. Counts by question (intent), language and script, channel, hour and day,
and the masked messages the assistant could not answer that at least five conversations sent (on two channels or over six hours)
(``actions/questions/report.py``), so that editors can add what is missing. Nothing on the page
names a person or a conversation.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from aiohttp import web

from actions.admin.console import words
from actions.admin.console.guard import editor_or_sign_in
from actions.admin.console.pages import interface_language, kabul, render
from actions.admin.state import in_transaction, now
from actions.content.localise import digits
from actions.questions import report
from bot.lang.codes import LANGUAGES
from bot.lang.names import own_name

routes = web.RouteTableDef()


def _rows(pairs: list[tuple[str, int]]) -> dict[str, Any]:
    """A table's rows with what a bar needs: the biggest count."""
    return {"rows": pairs, "most": max((n for _, n in pairs), default=0)}


_MASKS = re.compile(r"\[(phone|number|email|url|name)\]")


def _shown(masked: str, language: str) -> str:
    """A stored message with its masks in the editor's language: "[phone]" → "[ټیلیفون شمېره]"."""
    return _MASKS.sub(lambda found: words.say(f"mask_{found.group(1)}", language), masked)


def _language_name(code: str, script: str, language: str) -> str:
    """ "پښتو · Latin letters": a language as it names itself, and how it was written."""
    name = own_name(code) if code in LANGUAGES else code
    if script not in ("Arab", "Latn"):
        return name
    return f"{name} · {words.say('script_' + script, language)}"


@routes.get("/console/questions")
async def questions(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    language, _ = interface_language(request)
    week = await in_transaction(request, partial(report.week, now=now(request)))

    context = {
        "week": week,
        "min_conversations": report.MIN_CONVERSATIONS,
        "shown": lambda masked: _shown(masked, language),
        "until": kabul(week.until),
        "num": lambda n: digits(str(n), language),
        "tables": [
            (
                "by_intent",
                _rows([(words.label(words.INTENT, i, language), n) for i, n in week.by_intent]),
            ),
            (
                "by_language",
                _rows([(_language_name(c, s, language), n) for c, s, n in week.by_language]),
            ),
            ("by_channel", _rows(week.by_channel)),
            ("by_hour", _rows([(digits(h, language), n) for h, n in week.by_hour])),
            ("by_day", _rows([(digits(d.isoformat(), language), n) for d, n in week.by_day])),
        ],
    }
    return render(request, "questions.html", context, who)
