"""Hiding a group of asks as spam, and showing it again, on "Rumours people ask about" and
"Questions waiting for an answer" (``actions/claims/asked.py``).

A flood of made-up rumours from a few addresses can still pass the rule some day; an editor
then hides its groups in one tap each, and the asks the grouping puts in them later stay
hidden. A POST with the console's CSRF token, editors only; the hidden group's row keeps who hid
it and when, and the log (like the access log) names the editor who hid or showed a group.
"""

from __future__ import annotations

import logging
from functools import partial

from aiohttp import web

from actions.admin.console import flash
from actions.admin.console.guard import FormRefused, checked_form, editor_or_sign_in, field
from actions.admin.console.refusals import form_refused
from actions.admin.state import in_transaction, now
from actions.claims import asked
from actions.content.asks import AskAbout

logger = logging.getLogger(__name__)


async def hide_or_show(
    request: web.Request, about: AskAbout, page: str, hiding: bool
) -> web.Response:
    """Hides (or shows again) the posted ``group`` of ``about``, then back to ``page`` saying
    what happened: a key no unanswered ask has changes nothing."""
    who = await editor_or_sign_in(request)
    try:
        form = await checked_form(request, who.secret)
    except FormRefused as refusal:
        return form_refused(request, who, refusal)
    group = field(form, "group").strip()
    changed = False
    if group:
        work = (
            partial(asked.hide, about=about, group_key=group, editor=who.editor, now=now(request))
            if hiding
            else partial(asked.show_again, about=about, group_key=group)
        )
        changed = await in_transaction(request, work)
    if changed:
        done = "hid" if hiding else "showed again"
        logger.info("%s %s the %s group %s", who.editor, done, about.value, group)
        raise flash.redirect_with(request, page, "hidden_as_spam" if hiding else "shown_again")
    raise flash.redirect_with(request, page, "group_gone")
