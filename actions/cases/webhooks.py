"""Case events for a helpdesk, queued in the transaction of the case change they describe.

When ``CASE_WEBHOOK_URL`` is set, opening a case queues ``case.opened`` and a ``case.message``
for the person's request, taking it ``case.taken``, closing it ``case.closed``, the person's
"delete my data" ``case.deleted`` (:func:`cases_deleted`). Web chat cases
beyond ``CASE_WEBHOOK_WEBCHAT_PER_MINUTE`` in a minute are quiet: one ``case.surge`` says so,
and such a case is announced only when a caseworker takes it (a flood closed as abuse sends
nothing more); the person's
later messages are queued by Rasa's tracker store (``bot/case_inbox.py``), a caseworker's reply
by :func:`message_written` where the reply is recorded. Without the URL nothing is queued. The
notifier posts them (``actions/cases/webhook_sender.py``); the JSON is ``kernel/case_events.py``'s.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from actions.cases.models import Author, Case, CaseEvent, CaseMessage, EventStatus
from actions.content.models import Organisation
from actions.settings import case_events_published, webchat_cases_per_minute
from kernel import case_events

#: The minute over which a web chat surge is counted.
SURGE_WINDOW = timedelta(minutes=1)


def _case_fields(case: Case) -> dict[str, object]:
    return {
        "id": case.id,
        "status": case.status,
        "language": case.language,
        "channel": case.channel,
        "priority": case.priority,
        "opened_at": case.opened_at,
        "taken_by": case.taken_by,
        "taken_at": case.taken_at,
        "closed_at": case.closed_at,
    }


def _queue(
    session: Session,
    case: Case,
    event_type: str,
    now: datetime,
    message: dict[str, object] | None = None,
    surge: dict[str, object] | None = None,
) -> CaseEvent:
    """The event, queued; a ``case.deleted`` names no case row, which goes right after it."""
    organisation = (
        None if case.organisation_id is None else session.get(Organisation, case.organisation_id)
    )
    event_id = case_events.new_event_id()
    body = case_events.payload(
        event_id=event_id,
        event_type=event_type,
        occurred_at=now,
        case=_case_fields(case),
        organisation=None if organisation is None else organisation.slug,
        message=message,
        surge=surge,
    )
    event = CaseEvent(
        event_id=event_id,
        case_id=None if event_type == case_events.DELETED else case.id,
        event_type=event_type,
        payload=case_events.encode(body),
        status=EventStatus.QUEUED,
        attempts=0,
        created_at=now,
        next_attempt_at=now,
    )
    session.add(event)
    return event


def quiet(session: Session, case: Case) -> bool:
    """Whether the case is a quiet one of a web chat surge: the helpdesk was not told of it
    (no ``case.opened``), and is not until a caseworker takes it."""
    if case.channel not in case_events.ANONYMOUS_CHANNELS:
        return False
    opened = select(CaseEvent.id).where(
        CaseEvent.case_id == case.id, CaseEvent.event_type == case_events.OPENED
    )
    return session.scalar(opened.limit(1)) is None


def message_written(
    session: Session, case: Case, author: Author, text: str, written_at: datetime
) -> None:
    """``case.message`` for a line added to the case (the person's, a caseworker's reply),
    unless the case is a quiet one of a surge."""
    if case_events_published() and not quiet(session, case):
        message = {"author": author, "text": text, "written_at": written_at}
        _queue(session, case, case_events.MESSAGE, written_at, message)


def _surging(session: Session, case: Case, now: datetime) -> bool:
    """Whether this minute's web chat cases are already as many as a helpdesk gets at once."""
    if case.channel not in case_events.ANONYMOUS_CHANNELS:
        return False
    since = now - SURGE_WINDOW
    announced_now = session.scalar(
        select(func.count())
        .select_from(CaseEvent)
        .join(Case, Case.id == CaseEvent.case_id)
        .where(
            CaseEvent.event_type == case_events.OPENED,
            CaseEvent.created_at > since,
            Case.channel.in_(sorted(case_events.ANONYMOUS_CHANNELS)),
        )
    )
    return int(announced_now or 0) >= webchat_cases_per_minute()


def _say_surge(session: Session, case: Case, now: datetime) -> None:
    """One ``case.surge`` per minute of a surge, on its first quiet case."""
    said = select(CaseEvent.id).where(
        CaseEvent.event_type == case_events.SURGE, CaseEvent.created_at > now - SURGE_WINDOW
    )
    if session.scalar(said.limit(1)) is None:
        surge = {
            "channels": sorted(case_events.ANONYMOUS_CHANNELS),
            "per_minute": webchat_cases_per_minute(),
        }
        _queue(session, case, case_events.SURGE, now, surge=surge)


def case_opened(session: Session, case: Case, request: str, now: datetime) -> None:
    """``case.opened``, then the person's request as the case's first ``case.message``; in a
    web chat surge, one ``case.surge`` for the minute instead (the case is announced when a
    caseworker takes it)."""
    if not case_events_published():
        return
    if _surging(session, case, now):
        _say_surge(session, case, now)
        return
    _queue(session, case, case_events.OPENED, now)
    message_written(session, case, Author.PERSON, request, now)


def _announce_late(session: Session, case: Case, now: datetime) -> None:
    """A quiet case of a surge that a caseworker took: ``case.opened`` and its lines so far."""
    _queue(session, case, case_events.OPENED, now)
    for line in session.scalars(
        select(CaseMessage)
        .where(CaseMessage.case_id == case.id, CaseMessage.author != Author.ASSISTANT)
        .order_by(CaseMessage.id)
    ):
        message = {"author": line.author, "text": line.text, "written_at": line.written_at}
        _queue(session, case, case_events.MESSAGE, now, message)


def cases_deleted(session: Session, conversation_id: str, now: datetime) -> None:
    """``case.deleted`` for each case of the conversation that the helpdesk heard of (an
    event of it sent, or being sent), before the cases are deleted on the person's request:
    the helpdesk's copy of their words is then theirs to delete too. What was not sent yet is
    deleted with the case and never goes. Retention sends nothing: the helpdesk keeps its
    copy under its own rules, as for a closed case."""
    if not case_events_published():
        return
    heard_of = (
        select(CaseEvent.id)
        .where(
            CaseEvent.case_id == Case.id,
            CaseEvent.status.in_((EventStatus.SENT, EventStatus.SENDING)),
        )
        .exists()
    )
    for case in session.scalars(
        select(Case).where(Case.conversation_id == conversation_id, heard_of).order_by(Case.id)
    ):
        _queue(session, case, case_events.DELETED, now)


def case_changed(session: Session, case_id: int, event_type: str, now: datetime) -> None:
    """``case.taken`` / ``case.closed`` once the row says so (read again after the UPDATE); a
    quiet case of a surge is announced when taken, and its close is never sent."""
    if not case_events_published():
        return
    case = session.get(Case, case_id, populate_existing=True)
    if case is None:
        return
    if quiet(session, case):
        if event_type != case_events.TAKEN:
            return
        _announce_late(session, case, now)
    _queue(session, case, event_type, now)
