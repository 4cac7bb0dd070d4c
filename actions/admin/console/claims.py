"""``/console/claims``: rumours people ask about that nobody has checked yet.

Editors' role only. Each group of asks (the same rumour in other words) that enough different
people asked, on two channels or over hours (``actions/claims/asked.py``), with how many, in
which languages and on which channels, when first and last, and the text several of them wrote
alike, cut to 80 characters; most people first, 50 to a page (``?page=``). "Write a verdict"
opens the claim editor with those texts as phrasings; publishing links the group's asks to the
claim and tells those who wanted to know. "Hide as spam" takes a group off the page for good
(``spam.py``); the groups hidden are listed below, to show again.
"""

from __future__ import annotations

from typing import Any, Final

from aiohttp import web
from sqlalchemy.orm import Session

from actions.admin.console import flash
from actions.admin.console.guard import editor_or_sign_in
from actions.admin.console.pages import interface_language, kabul, render
from actions.admin.console.questions import _shown, language_name, page_number
from actions.admin.console.spam import hide_or_show
from actions.admin.state import in_transaction, now
from actions.claims import asked
from actions.content.asks import AskAbout
from actions.content.crowd import MIN_PEOPLE
from actions.content.localise import digits

routes = web.RouteTableDef()

PAGE: Final = "/console/claims"


def _page_link(number: int) -> str:
    """The page's address on page ``number``."""
    return f"{PAGE}?page={number}" if number > 1 else PAGE


@routes.get(PAGE)
async def claims_asked(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    language, _ = interface_language(request)
    moment = now(request)
    number = page_number(request)

    def read(session: Session) -> tuple[asked.GroupsPage, list[asked.HiddenGroup]]:
        shown = asked.page(session, AskAbout.CLAIM, moment, number, asked.SHOWN_GROUPS, 1)
        return shown, asked.hidden(session, AskAbout.CLAIM, moment)

    shown, hidden = await in_transaction(request, read)
    context: dict[str, Any] = {
        "groups": shown,
        "hidden": hidden,
        "min_people": MIN_PEOPLE,
        "previous_page": _page_link(shown.page - 1) if shown.page > 1 else None,
        "next_page": _page_link(shown.page + 1) if shown.page < shown.pages else None,
        "shown": lambda masked: _shown(masked, language),
        "num": lambda n: digits(str(n), language),
        "when": lambda moment: digits(kabul(moment), language),
        "language_name": language_name,
        "flashes": flash.take(request, language),
    }
    response = render(request, "claims.html", context, who)
    flash.forget(response)
    return response


@routes.post(f"{PAGE}/hide")
async def hide_rumour(request: web.Request) -> web.Response:
    return await hide_or_show(request, AskAbout.CLAIM, PAGE, hiding=True)


@routes.post(f"{PAGE}/show")
async def show_rumour(request: web.Request) -> web.Response:
    return await hide_or_show(request, AskAbout.CLAIM, PAGE, hiding=False)
