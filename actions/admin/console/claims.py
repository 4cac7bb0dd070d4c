"""``/console/claims``: rumours people ask about that nobody has checked yet.

Editors' role only. Each group of asks (the same rumour in other words) that at least three
different conversations sent (``actions/claims/asked.py``), with how many, in which languages
and on which channels, when first and last, and one masked text cut to 80 characters; newest
first. "Write a verdict" opens the claim editor with the group's texts as phrasings; publishing
links the group's asks to the claim and tells those who wanted to know.
"""

from __future__ import annotations

from functools import partial

from aiohttp import web

from actions.admin.console.guard import editor_or_sign_in
from actions.admin.console.pages import interface_language, kabul, render
from actions.admin.console.questions import _shown, language_name
from actions.admin.state import in_transaction, now
from actions.claims import asked
from actions.content.asks import AskAbout
from actions.content.localise import digits

routes = web.RouteTableDef()


@routes.get("/console/claims")
async def claims_asked(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    language, _ = interface_language(request)
    found = await in_transaction(
        request, partial(asked.groups, about=AskAbout.CLAIM, now=now(request))
    )
    context = {
        "groups": found,
        "min_conversations": asked.MIN_CONVERSATIONS,
        "shown": lambda masked: _shown(masked, language),
        "num": lambda n: digits(str(n), language),
        "when": lambda moment: digits(kabul(moment), language),
        "language_name": language_name,
    }
    return render(request, "claims.html", context, who)
