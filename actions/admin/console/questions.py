"""``/console/questions``: what people asked in the last 7 days, and what we could not answer.

Editors' role only. First the questions the assistant could not answer, grouped as the same
question in any language or script (``actions/claims/asked.py``): each group asked by enough
different people, on two channels or over hours (``actions/content/crowd.py``), most people
first, 20 to a page (``?page=``), with its languages, channels and the masked messages several
askers wrote alike, "Write an answer", which starts an answer from the group (publishing it
tells those who asked to be told), and "Hide as spam" (``spam.py``; the hidden groups are listed
to show again). Then counts by question (intent), language and script, channel, hour and day,
and the masked messages the assistant could not answer that enough conversations sent word for
word, by the same rule (``actions/questions/report.py``). Nothing on the page names a person or
a conversation.
"""

from __future__ import annotations

import re
from typing import Any, Final

from aiohttp import web
from sqlalchemy.orm import Session

from actions.admin.console import flash, words
from actions.admin.console.guard import editor_or_sign_in
from actions.admin.console.pages import interface_language, kabul, render
from actions.admin.console.spam import hide_or_show
from actions.admin.state import in_transaction, now
from actions.claims import asked
from actions.content.asks import AskAbout
from actions.content.crowd import MIN_PEOPLE
from actions.content.localise import digits
from actions.questions import report
from kernel.lang.codes import LANGUAGES
from kernel.lang.names import own_name

routes = web.RouteTableDef()

PAGE: Final = "/console/questions"

#: Groups of unanswered questions on one page, and the newest messages shown of each.
GROUPS_PER_PAGE: Final = 20
MESSAGES_SHOWN: Final = 5


def _rows(pairs: list[tuple[str, int]]) -> dict[str, Any]:
    """A table's rows with what a bar needs: the biggest count."""
    return {"rows": pairs, "most": max((n for _, n in pairs), default=0)}


_MASKS = re.compile(r"\[(phone|number|email|url|name)\]")


def _shown(masked: str, language: str) -> str:
    """A stored message with its masks in the editor's language: "[phone]" → "[ټیلیفون شمېره]"."""
    return _MASKS.sub(lambda found: words.say(f"mask_{found.group(1)}", language), masked)


def language_name(code: str) -> str:
    """A language as it names itself ("دری"), or its code."""
    return own_name(code) if code in LANGUAGES else code


def _language_name(code: str, script: str, language: str) -> str:
    """ "پښتو · Latin letters": a language as it names itself, and how it was written."""
    name = language_name(code)
    if script not in ("Arab", "Latn"):
        return name
    return f"{name} · {words.say('script_' + script, language)}"


def _page_link(number: int) -> str:
    """The page's address on page ``number`` of the questions waiting for an answer."""
    query = f"?page={number}" if number > 1 else ""
    return f"{PAGE}{query}#waiting"


def page_number(request: web.Request) -> int:
    """The page of groups asked for (``?page=``); 1 for anything but a number."""
    wanted = request.query.get("page", "1")
    return int(wanted) if wanted.isdigit() and len(wanted) < 6 else 1


@routes.get(PAGE)
async def questions(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    language, _ = interface_language(request)
    moment = now(request)
    number = page_number(request)

    def read(
        session: Session,
    ) -> tuple[report.Week, asked.GroupsPage, list[asked.HiddenGroup]]:
        waiting = asked.page(
            session, AskAbout.ANSWER, moment, number, GROUPS_PER_PAGE, MESSAGES_SHOWN
        )
        hidden = asked.hidden(session, AskAbout.ANSWER, moment)
        return report.week(session, now=moment), waiting, hidden

    week, waiting, hidden = await in_transaction(request, read)

    context = {
        "waiting": waiting,
        "hidden": hidden,
        "min_people": MIN_PEOPLE,
        "language_name": language_name,
        "previous_page": _page_link(waiting.page - 1) if waiting.page > 1 else None,
        "next_page": _page_link(waiting.page + 1) if waiting.page < waiting.pages else None,
        "week": week,
        "flashes": flash.take(request, language),
        "shown": lambda masked: _shown(masked, language),
        "until": kabul(week.until),
        "when": lambda moment: digits(kabul(moment), language),
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
            (
                "by_channel",
                _rows([(words.label(words.CHANNEL, c, language), n) for c, n in week.by_channel]),
            ),
            ("by_hour", _rows([(digits(h, language), n) for h, n in week.by_hour])),
            ("by_day", _rows([(digits(d.isoformat(), language), n) for d, n in week.by_day])),
        ],
    }
    response = render(request, "questions.html", context, who)
    flash.forget(response)
    return response


@routes.post(f"{PAGE}/hide")
async def hide_question(request: web.Request) -> web.Response:
    return await hide_or_show(request, AskAbout.ANSWER, f"{PAGE}#waiting", hiding=True)


@routes.post(f"{PAGE}/show")
async def show_question(request: web.Request) -> web.Response:
    return await hide_or_show(request, AskAbout.ANSWER, f"{PAGE}#waiting", hiding=False)
