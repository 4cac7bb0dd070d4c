"""``/console/edit/…``: one record's form, its preview, publishing and withdrawing it.

Preview is a dry run of the real thing: the editing service publishes the change in a
transaction that is then rolled back, so the preview shows exactly what publishing would —
the service's validation, the answers as they would read, and how many subscribers it would
alert — and changes nothing. Publishing repeats it for real, refusing a stale version.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from aiohttp import web
from sqlalchemy import select
from sqlalchemy.orm import Session

from actions import consistency, publishing
from actions.admin.console import flags, flash, forms
from actions.admin.console.guard import (
    Form,
    FormRefused,
    SignedIn,
    checked_form,
    editor_or_sign_in,
)
from actions.admin.console.guard import (
    field as form_field,
)
from actions.admin.console.pages import interface_language, render
from actions.admin.console.posted import record_form
from actions.admin.console.preview import Answer, Answers
from actions.admin.console.refusals import form_refused, not_found
from actions.admin.console.stale import stale_context, stale_page
from actions.admin.console.titles import title
from actions.admin.state import ENGINE, in_transaction, now
from actions.alerts import outbox
from actions.claims import asked, askers
from actions.content import format as fmt
from actions.content.asks import AskAbout
from actions.content.editing import StaleVersion, version_of
from actions.content.models import Airport, Gate, Organisation, RecordKind
from actions.content.records import KindSpec, snapshot, spec_for
from actions.content.validation import ContentError

routes = web.RouteTableDef()
ANSWERS: web.AppKey[Answers] = web.AppKey("answers")


@dataclass(frozen=True)
class FromGroup:
    """A kind an editor may start from a group of asks (``?group=``): the asks it answers, and
    the catalogue's line that says how many asked."""

    about: AskAbout
    said: str


#: A claim from a rumour people asked about (``claims.py``), an answer from a question nobody
#: had answered (``questions.py``): publishing links the group's asks to the new record and
#: tells those who asked to be told.
FROM_GROUP: Final = {
    RecordKind.CLAIM: FromGroup(AskAbout.CLAIM, "from_group"),
    RecordKind.ANSWER: FromGroup(AskAbout.ANSWER, "from_question_group"),
}


def group_draft(
    session: Session, spec: KindSpec, group: str, moment: datetime
) -> asked.Draft | None:
    """The record to start from ``group``; None for a kind not started from asks, or a group
    its page does not show."""
    grouped = FROM_GROUP.get(spec.kind)
    if grouped is None or not group:
        return None
    return asked.draft(session, grouped.about, group, moment)


def _from_group(spec: KindSpec, draft: asked.Draft | None) -> dict[str, Any]:
    """What the form shows of the group it was started from."""
    if draft is None:
        return {"group": None, "group_people": 0}
    return {
        "group": draft.group_key,
        "group_people": draft.people,
        "group_said": FROM_GROUP[spec.kind].said,
    }


@dataclass
class Outcome:
    """What a publish (or its dry run) came to."""

    key: str
    changed: bool = False
    alerted: int = 0
    answers: list[Answer] = field(default_factory=list)
    #: Per content language: "The state changed, the Pashto note did not." (confirmed).
    flags: dict[str, str] = field(default_factory=dict)
    #: The gates closed with the airport, as "Abbey Gate, East Gate".
    closed_gates: str = ""


class DryRun(Exception):
    """Raised to roll a preview back, carrying what it found."""

    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome


def options(session: Session) -> dict[str, list[str]]:
    """What the organisation and airport fields may name."""
    current = Organisation.withdrawn_at.is_(None)
    slugs = session.scalars(select(Organisation.slug).where(current).order_by(Organisation.slug))
    codes = session.scalars(
        select(Airport.iata).where(Airport.withdrawn_at.is_(None)).order_by(Airport.iata)
    )
    return {"organisations": list(slugs), "airports": list(codes)}


def spec_and_key(request: web.Request) -> tuple[KindSpec, str] | None:
    try:
        spec = spec_for(request.match_info["kind"])
        return spec, spec.normalise(request.match_info["key"])
    except ContentError:
        return None


def page(
    request: web.Request,
    who: SignedIn,
    spec: KindSpec,
    key: str,
    record: dict[str, Any],
    status: int = 200,
) -> web.Response:
    context = {**BLANK, "kind": spec.kind.value, "key": key, **record}
    return render(request, "edit.html", context, who, status)


#: What the form shows when nothing was tried yet.
BLANK: dict[str, Any] = {
    "typed_key": "",
    "note": "",
    "allow_missing": False,
    "close_gates": None,
    "close_gates_ticked": False,
    "confirm_label": None,
    "confirm_for": None,
    "confirm_ticked": False,
    "outcome": None,
    "stale": None,
    "form_error": None,
    "errors_shown": False,
    "notice": None,
    "withdraw_error": None,
    # A claim or answer started from a group of asks (``FROM_GROUP``): its group, how many
    # conversations asked it, and the line that says so.
    "group": None,
    "group_people": 0,
    "group_said": "from_group",
}


def _record(session: Session, spec: KindSpec, key: str, language: str) -> dict[str, Any] | None:
    row = spec.find(session, key)
    if row is None:
        return None
    values = snapshot(spec, row)
    return {
        "title": title(row, language),
        "fields": forms.views(spec, values, options(session)),
        "version": version_of(session, spec.kind, row),
        "withdrawn": values["withdrawn_at"] is not None,
        "creating": False,
        "close_gates": flags.close_gates_label(session, spec, row, language),
    }


@routes.get("/console/edit/{kind}/{key:.+}")
async def edit(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    found = spec_and_key(request)
    if found is None:
        return not_found(request, who)
    spec, key = found
    language, _ = interface_language(request)
    record = await in_transaction(request, lambda s: _record(s, spec, key, language))
    if record is None:
        return not_found(request, who)
    record["flashes"] = flash.take(request, language)
    response = page(request, who, spec, key, record)
    flash.forget(response)
    return response


@routes.get("/console/new/{kind}")
async def new(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    try:
        spec = spec_for(request.match_info["kind"])
    except ContentError:
        return not_found(request, who)
    group, moment = request.query.get("group", ""), now(request)

    def read(session: Session) -> tuple[dict[str, list[str]], asked.Draft | None]:
        return options(session), group_draft(session, spec, group, moment)

    opts, draft = await in_transaction(request, read)
    values: dict[str, Any] = {} if draft is None else {"phrasings": draft.phrasings}
    record = {
        "title": "",
        "fields": forms.views(spec, values, opts),
        "version": 0,
        "withdrawn": False,
        "creating": True,
    }
    if draft is not None:
        record |= {"typed_key": draft.slug, **_from_group(spec, draft)}
    return page(request, who, spec, "", record)


def _attempt(
    session: Session,
    who: str,
    spec: KindSpec,
    key: str,
    form: Form,
    moment: datetime,
    answers: Answers | None,
    language: str,
) -> Outcome:
    """Publish the form's changes; with ``answers``, render the preview and roll back."""
    row = spec.find(session, key)
    stored = None if row is None else snapshot(spec, row)
    before = None if answers is None else answers.before(session, spec.kind, key, row, moment)
    version = form_field(form, "version")
    revision = publishing.publish(
        session,
        who,
        spec.kind,
        key,
        forms.changes(spec, stored, form),
        form_field(form, "note"),
        now=moment,
        allow_missing_translation=form_field(form, "allow_missing") == "yes",
        expected_version=int(version) if version.isdigit() else 0,
        close_gates=form_field(form, "close_gates") == "yes",
        confirm_unchanged=form_field(form, "confirm_unchanged") == "yes",
    )
    group, grouped = form_field(form, "group"), FROM_GROUP.get(spec.kind)
    if revision is not None and group and grouped is not None:
        # Started from a group of asks: they are this claim's or answer's now, and those
        # still waiting are told (the publish itself found nobody linked yet).
        asked.link_group(session, grouped.about, group, revision.record_id)
        askers.tell(session, revision)
    outcome = Outcome(key)
    if revision is not None:
        outcome.changed = True
        outcome.alerted = outbox.queued_for(session, revision.id)
        outcome.key = revision.record_key
        outcome.flags = flags.unchanged_flags(revision, language)
        closed = [
            fmt.text(row, "name", language)
            for gate in publishing.closed_with(session, revision)
            if "state" in gate.changed_fields() and (row := session.get(Gate, gate.record_id))
        ]
        outcome.closed_gates = consistency.listed(closed, language)
        row = session.get(spec.model, revision.record_id)
    if answers is not None:
        outcome.answers = answers.render(session, spec.kind, outcome.key, row, moment, before)
        raise DryRun(outcome)
    return outcome


def _dry_run(request: web.Request, work: Any) -> Outcome:
    with Session(request.app[ENGINE], expire_on_commit=False) as session, session.begin():
        try:
            work(session)
        except DryRun as done:
            session.rollback()
            return done.outcome
    raise AssertionError("a preview always rolls back")


async def _again(
    request: web.Request,
    who: SignedIn,
    spec: KindSpec,
    key: str,
    form: Form,
    errors: dict[str, dict[str, str]] | None = None,
    outcome: Outcome | None = None,
    stale: dict[str, Any] | None = None,
    status: int = 200,
    notice: str | None = None,
) -> web.Response:
    """The form again with what the editor typed: after a preview, a refusal or a conflict."""
    errors = errors or {}
    language, _ = interface_language(request)

    group, moment = form_field(form, "group"), now(request)

    def read(session: Session) -> tuple[dict[str, list[str]], str | None, asked.Draft | None]:
        return (
            options(session),
            flags.close_gates_label(
                session, spec, spec.find(session, key) if key else None, language
            ),
            group_draft(session, spec, group, moment),
        )

    opts, close_gates, draft = await in_transaction(request, read)
    views = forms.views(spec, forms.posted(spec, form), opts, as_posted=True)
    for view in views:
        view.errors = errors.get(view.name, {})
        view.same = form_field(form, f"same.{view.name}") == "yes"
    pair = consistency.STATE_TEXTS.get(spec.kind)
    confirm_ticked = form_field(form, "confirm_unchanged") == "yes"
    flagged = pair is not None and (bool(errors.get(pair[1])) or confirm_ticked)
    version = form_field(form, "version")
    record = {
        "title": key,
        "fields": views,
        "version": stale["version"] if stale else (int(version) if version.isdigit() else 0),
        "withdrawn": False,
        "creating": "key" not in request.match_info,
        "typed_key": form_field(form, "key"),
        "note": form_field(form, "note"),
        "allow_missing": form_field(form, "allow_missing") == "yes",
        "close_gates": close_gates,
        "close_gates_ticked": form_field(form, "close_gates") == "yes",
        "confirm_label": flags.confirm_label(spec, language) if flagged else None,
        "confirm_for": pair[1] if pair is not None and flagged else None,
        "confirm_ticked": confirm_ticked,
        "outcome": outcome,
        "stale": stale,
        "form_error": errors.get("", {}).get("") or errors.get("key", {}).get(""),
        "errors_shown": bool(errors),
        "notice": notice,
        **_from_group(spec, draft),
    }
    return page(request, who, spec, key, record, status)


@routes.post("/console/edit/{kind}/{key:.+}")
@routes.post("/console/new/{kind}")
async def save(request: web.Request) -> web.Response:
    """``do=preview`` (the default: a dry run) or ``do=publish``."""
    who = await editor_or_sign_in(request)
    try:
        form = await checked_form(request, who.secret)
        spec = spec_for(request.match_info["kind"])
    except FormRefused as refusal:
        return form_refused(request, who, refusal)
    except ContentError:
        return not_found(request, who)
    try:
        key = spec.normalise(request.match_info.get("key") or form_field(form, "key"))
    except ContentError as error:
        return await _again(request, who, spec, "", form, {"key": {"": str(error)}}, status=422)
    moment, publishing = now(request), form_field(form, "do") == "publish"
    answers = None if publishing else request.app[ANSWERS]
    language, _ = interface_language(request)

    def work(session: Session) -> Outcome:
        return _attempt(session, who.editor, spec, key, form, moment, answers, language)

    try:
        if publishing:
            outcome = await in_transaction(request, work)
        else:
            outcome = await asyncio.to_thread(_dry_run, request, work)
    except StaleVersion as error:
        stale = await stale_context(request, spec, key, error)
        return await _again(request, who, spec, key, form, stale=stale, status=409)
    except ContentError as error:
        errors = flags.field_errors(error, spec, form, language)
        return await _again(request, who, spec, key, form, errors, status=422)
    if publishing and not outcome.changed:
        return await _again(request, who, spec, key, form, notice="nothing_changed")
    if publishing:
        raise flash.redirect_with(
            request,
            f"/console/edit/{spec.kind.value}/{outcome.key}",
            "published",
            record=f"{spec.kind.value} {outcome.key}",
            n=outcome.alerted,
        )
    return await _again(request, who, spec, key, form, outcome=outcome)


@routes.post("/console/withdraw/{kind}/{key:.+}")
async def withdraw(request: web.Request) -> web.Response:
    posted = await record_form(request)
    if isinstance(posted, web.Response):
        return posted
    who, form, spec, key = posted.who, posted.form, posted.spec, posted.key
    version, moment = form_field(form, "version"), now(request)

    def work(session: Session) -> None:
        publishing.withdraw(
            session,
            who.editor,
            spec.kind,
            key,
            form_field(form, "note"),
            now=moment,
            expected_version=int(version) if version.isdigit() else 0,
        )

    try:
        await in_transaction(request, work)
    except StaleVersion as error:
        return await stale_page(request, who, spec, key, error, None)
    except ContentError as error:
        language, _ = interface_language(request)
        record = await in_transaction(request, lambda s: _record(s, spec, key, language))
        if record is None:
            return not_found(request, who)
        record["withdraw_error"] = str(error)
        return page(request, who, spec, key, record, 422)
    raise flash.redirect_with(
        request,
        f"/console/edit/{spec.kind.value}/{key}",
        "withdrawn",
        record=f"{spec.kind.value} {key}",
    )
