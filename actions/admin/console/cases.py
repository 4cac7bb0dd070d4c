"""``/console/cases``: the caseworkers' queue, one case, taking it, replying, closing it
(docs/HANDOFF.md).

Only a caseworker's session opens these pages (editors get a 403 page), and nothing on them
names the person: language, channel and their words, never a phone number or chat id. Every
time a case's page is shown, the audit log records who saw it.
"""

from __future__ import annotations

from functools import partial

from aiohttp import web

from actions.admin.console import flash
from actions.admin.console.guard import (
    Form,
    FormRefused,
    SignedIn,
    caseworker_or_sign_in,
    checked_form,
    field,
)
from actions.admin.console.pages import interface_language, render
from actions.admin.console.refusals import form_refused, not_found
from actions.admin.console.words import duration
from actions.admin.state import SETTINGS, in_transaction, now
from actions.cases import handback, queue, replies
from actions.cases.saved_replies import SAVED_REPLIES, saved_reply
from actions.settings import conversation_retention
from bot.lang.codes import LANGUAGES

routes = web.RouteTableDef()


@routes.get("/console/cases")
async def waiting_cases(request: web.Request) -> web.Response:
    who = await caseworker_or_sign_in(request)
    language, _ = interface_language(request)
    moment = now(request)
    cases, total = await in_transaction(request, queue.open_queue)
    context = {
        "cases": cases,
        "total": total,
        "waited": lambda case: duration(moment - case.opened_at, language),
        "flashes": flash.take(request, language),
        "poll_seconds": request.app[SETTINGS].cases_poll_seconds,
    }
    response = render(request, "cases.html", context, who)
    flash.forget(response)
    return response


def _case_id(request: web.Request) -> int | None:
    raw = request.match_info["case"]
    return int(raw) if raw.isdigit() and len(raw) < 12 else None


@routes.get("/console/cases/{case}")
async def one_case(request: web.Request) -> web.Response:
    who = await caseworker_or_sign_in(request)
    case_id = _case_id(request)
    if case_id is None:
        return not_found(request, who, "no_page")
    language, _ = interface_language(request)
    moment = now(request)
    case = await in_transaction(
        request, partial(queue.case_for, case_id=case_id, caseworker=who.editor, now=moment)
    )
    if case is None:
        return not_found(request, who, "no_page")
    context = {
        "case": case,
        "waited": duration(moment - case.opened_at, language),
        "flashes": flash.take(request, language),
        "saved_replies": SAVED_REPLIES,
        "reply_max": replies.MAX_REPLY_CHARS,
    }
    response = render(request, "case.html", context, who)
    flash.forget(response)
    return response


class _Refused(Exception):
    """The page that answers a refused form."""

    def __init__(self, response: web.Response) -> None:
        self.response = response


async def _posted(request: web.Request) -> tuple[SignedIn, int, Form]:
    """The caseworker posting a form about a case, the case's number and the form; refusals
    (a form without its token, no such number) are raised as the page to answer."""
    who = await caseworker_or_sign_in(request)
    try:
        form = await checked_form(request, who.secret)
    except FormRefused as refusal:
        raise _Refused(form_refused(request, who, refusal)) from None
    case_id = _case_id(request)
    if case_id is None:
        raise _Refused(not_found(request, who, "no_page"))
    return who, case_id, form


@routes.post("/console/cases/{case}/take")
async def take_case(request: web.Request) -> web.Response:
    try:
        who, case_id, _ = await _posted(request)
    except _Refused as refused:
        return refused.response
    holder = await in_transaction(
        request, partial(queue.take, case_id=case_id, caseworker=who.editor, now=now(request))
    )
    location = f"/console/cases/{case_id}"
    if holder is None:
        return not_found(request, who, "no_page")
    if holder == who.editor:
        raise flash.redirect_with(request, location, "you_took_it")
    raise flash.redirect_with(request, location, "taken_already", name=holder)


@routes.post("/console/cases/{case}/close")
async def close_case(request: web.Request) -> web.Response:
    """Hands the conversation back to the assistant first, then closes the case: if Rasa cannot
    be reached nothing changes, so no person is left in a paused conversation with no case."""
    try:
        who, case_id, _ = await _posted(request)
    except _Refused as refused:
        return refused.response
    held = await in_transaction(
        request, partial(queue.closing, case_id=case_id, caseworker=who.editor)
    )
    if held is None:
        return not_found(request, who, "no_page")
    conversation, channel = held
    outcome = await handback.hand_back(request.app[SETTINGS], conversation, channel)
    if outcome.problem is not None:
        context = {"reason": "hand_back_failed", "detail": outcome.problem}
        return render(request, "refused.html", context, who, 502)
    await in_transaction(
        request,
        partial(queue.close, case_id=case_id, caseworker=who.editor, now=now(request)),
    )
    closed = "case_closed" if outcome.told else "case_closed_not_told"
    raise flash.redirect_with(request, "/console/cases", closed, n=case_id)


@routes.post("/console/cases/{case}/reply")
async def reply_to_case(request: web.Request) -> web.Response:
    """The holder's reply (typed, or a saved one in the chosen language): a line of the case
    and its delivery, in one transaction; the notifier's courier sends it."""
    try:
        who, case_id, form = await _posted(request)
    except _Refused as refused:
        return refused.response
    location = f"/console/cases/{case_id}"
    language = field(form, "language")
    if language not in LANGUAGES:
        raise flash.redirect_with(request, location, "reply_language_unknown")
    saved = field(form, "saved")
    text = saved_reply(saved, language) if saved else field(form, "text")
    if text is None:
        raise flash.redirect_with(request, location, "reply_empty")
    try:
        await in_transaction(
            request,
            partial(
                replies.queue_reply,
                case_id=case_id,
                caseworker=who.editor,
                text=text,
                language=language,
                now=now(request),
                keep_address=conversation_retention(),
            ),
        )
    except replies.ReplyRefused as refused:
        raise flash.redirect_with(
            request, location, refused.reason, n=replies.MAX_REPLY_CHARS
        ) from None
    raise flash.redirect_with(request, location, "reply_queued")
