"""``/console/cases``: the caseworkers' queue, one case, taking it, replying, closing it
(docs/HANDOFF.md).

Only a caseworker's session opens these pages (editors get a 403 page), and nothing on them
names the person: language, channel and their words, never a phone number or chat id. Every
time a case's page is shown, the audit log records who saw it. A caseworker sees, takes,
answers and closes only the cases her organisation answers (``queue``'s ``organisation_id``);
another's answers 404, as a case that does not exist, never 403, which would confirm it.
"""

from __future__ import annotations

import shlex
from functools import partial
from urllib.parse import urlencode

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
from kernel.lang.codes import LANGUAGES

routes = web.RouteTableDef()


def _wanted(request: web.Request) -> queue.QueueFilter:
    """The queue's filter from its query string; anything unknown is no filter at all."""
    query = request.query
    page = query.get("page", "1")
    language = query.get("language") or None
    channel = query.get("channel") or None
    return queue.QueueFilter(
        channel=channel if channel and len(channel) <= 32 else None,
        language=language if language in LANGUAGES else None,
        age=query.get("age") if query.get("age") in queue.AGES else None,
        page=int(page) if page.isdigit() and len(page) < 6 else 1,
    )


def _query(wanted: queue.QueueFilter, page: int) -> str:
    """The queue's address with the same filter, on ``page``."""
    kept = {
        "channel": wanted.channel,
        "language": wanted.language,
        "age": wanted.age,
        "page": str(page) if page > 1 else None,
    }
    query = urlencode({name: value for name, value in kept.items() if value})
    return f"/console/cases?{query}" if query else "/console/cases"


@routes.get("/console/cases")
async def waiting_cases(request: web.Request) -> web.Response:
    who = await caseworker_or_sign_in(request)
    language, _ = interface_language(request)
    moment = now(request)
    sought = request.query.get("case", "").strip().lstrip("#")
    if sought:
        found = sought.isdigit() and len(sought) < 12
        if found and await in_transaction(
            request,
            partial(queue.exists_case, case_id=int(sought), organisation_id=who.organisation_id),
        ):
            raise web.HTTPSeeOther(f"/console/cases/{int(sought)}")
        shown_number: object = int(sought) if found else sought[:12]
        raise flash.redirect_with(request, "/console/cases", "no_such_case", n=shown_number)
    wanted = _wanted(request)
    shown = await in_transaction(
        request,
        partial(queue.open_queue, now=moment, wanted=wanted, organisation_id=who.organisation_id),
    )
    context = {
        "queue": shown,
        "cases": shown.cases,
        "total": shown.total,
        "wanted": wanted,
        "ages": list(queue.AGES),
        "channels": shown.channels,
        "previous_page": _query(wanted, shown.page - 1) if shown.page > 1 else None,
        "next_page": _query(wanted, shown.page + 1) if shown.page < shown.pages else None,
        "waited": lambda case: duration(moment - case.opened_at, language),
        "flashes": flash.take(request, language),
        "poll_seconds": request.app[SETTINGS].cases_poll_seconds,
        # Signed in before migration 0026: she sees only the cases no organisation answers,
        # and the page says what the operator runs.
        "organisation_command": None
        if who.organisation_id is not None
        else f"python -m actions.admin organisation {shlex.quote(who.editor)} SLUG",
    }
    response = render(request, "cases.html", context, who)
    flash.forget(response)
    return response


@routes.post("/console/cases/close-as-abuse")
async def close_as_abuse(request: web.Request) -> web.Response:
    """Closes the selected cases at once, as abuse (a flood of fake requests): each
    conversation is handed back to the assistant without a word to the person, so a real
    person closed by mistake is answered again, not left paused; a case another caseworker
    holds stays open."""
    who = await caseworker_or_sign_in(request)
    try:
        form = await checked_form(request, who.secret)
    except FormRefused as refusal:
        return form_refused(request, who, refusal)
    chosen = sorted(
        {int(raw) for raw in form.getall("case", []) if isinstance(raw, str) and raw.isdigit()}
    )[: queue.QUEUE_PAGE]
    if not chosen:
        raise flash.redirect_with(request, "/console/cases", "closed_as_abuse_none")
    held = await in_transaction(
        request,
        partial(
            queue.closable,
            case_ids=chosen,
            caseworker=who.editor,
            organisation_id=who.organisation_id,
        ),
    )
    settings = request.app[SETTINGS]
    outcomes = await handback.hand_back_quietly(settings.rasa, held)
    resumed = [case_id for case_id, problem in outcomes.items() if problem is None]
    closed = await in_transaction(
        request,
        partial(
            queue.close_as_abuse,
            case_ids=resumed,
            caseworker=who.editor,
            now=now(request),
            organisation_id=who.organisation_id,
        ),
    )
    raise flash.redirect_with(
        request, "/console/cases", "closed_as_abuse", n=closed, left=len(chosen) - closed
    )


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
        request,
        partial(
            queue.case_for,
            case_id=case_id,
            caseworker=who.editor,
            now=moment,
            organisation_id=who.organisation_id,
        ),
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
        request,
        partial(
            queue.take,
            case_id=case_id,
            caseworker=who.editor,
            now=now(request),
            organisation_id=who.organisation_id,
        ),
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
        request,
        partial(
            queue.closing,
            case_id=case_id,
            caseworker=who.editor,
            organisation_id=who.organisation_id,
        ),
    )
    if held is None:
        return not_found(request, who, "no_page")
    conversation, channel = held
    outcome = await handback.hand_back(request.app[SETTINGS].rasa, conversation, channel)
    if outcome.problem is not None:
        context = {"reason": "hand_back_failed", "detail": outcome.problem}
        return render(request, "refused.html", context, who, 502)
    await in_transaction(
        request,
        partial(
            queue.close,
            case_id=case_id,
            caseworker=who.editor,
            now=now(request),
            organisation_id=who.organisation_id,
        ),
    )
    closed = "case_closed" if outcome.told else "case_closed_not_told"
    raise flash.redirect_with(request, "/console/cases", closed, n=case_id)


@routes.post("/console/cases/{case}/reply")
async def reply_to_case(request: web.Request) -> web.Response:
    """The holder's reply (typed in the chosen language, or a saved one in the language its
    button showed): a line of the case and its delivery, in one transaction; the notifier's
    courier sends it."""
    try:
        who, case_id, form = await _posted(request)
    except _Refused as refused:
        return refused.response
    location = f"/console/cases/{case_id}"
    saved, _, shown_in = (field(form, "saved") or "").partition(":")
    # A saved reply goes in the language its button showed; a typed one in the chosen one.
    language = (shown_in or field(form, "language")) if saved else field(form, "language")
    if language not in LANGUAGES:
        raise flash.redirect_with(request, location, "reply_language_unknown")
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
                organisation_id=who.organisation_id,
            ),
        )
    except replies.ReplyRefused as refused:
        if refused.reason == replies.NO_SUCH_CASE:
            return not_found(request, who, "no_page")
        raise flash.redirect_with(
            request, location, refused.reason, n=replies.MAX_REPLY_CHARS
        ) from None
    raise flash.redirect_with(request, location, "reply_queued")
