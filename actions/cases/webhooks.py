"""Case events for a helpdesk, queued in the transaction of the case change they describe.

When ``CASE_WEBHOOK_URL`` is set, opening a case queues ``case.opened`` and a ``case.message``
for the person's request, taking it ``case.taken``, closing it ``case.closed``; the person's
later messages are queued by Rasa's tracker store (``bot/case_inbox.py``), a caseworker's reply
by :func:`message_written` where the reply is recorded. Without the URL nothing is queued. The
notifier posts them (``actions/cases/webhook_sender.py``); the JSON is ``bot/case_events.py``'s.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from actions.cases.models import Author, Case, CaseEvent, EventStatus
from actions.content.models import Organisation
from bot import case_events


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
) -> CaseEvent:
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
    )
    event = CaseEvent(
        event_id=event_id,
        case_id=case.id,
        event_type=event_type,
        payload=case_events.encode(body),
        status=EventStatus.QUEUED,
        attempts=0,
        created_at=now,
        next_attempt_at=now,
    )
    session.add(event)
    return event


def message_written(
    session: Session, case: Case, author: Author, text: str, written_at: datetime
) -> None:
    """``case.message`` for a line added to the case (the person's, a caseworker's reply)."""
    if case_events.publishing():
        message = {"author": author, "text": text, "written_at": written_at}
        _queue(session, case, case_events.MESSAGE, written_at, message)


def case_opened(session: Session, case: Case, request: str, now: datetime) -> None:
    """``case.opened``, then the person's request as the case's first ``case.message``."""
    if case_events.publishing():
        _queue(session, case, case_events.OPENED, now)
        message_written(session, case, Author.PERSON, request, now)


def case_changed(session: Session, case_id: int, event_type: str, now: datetime) -> None:
    """``case.taken`` / ``case.closed`` once the row says so (read again after the UPDATE)."""
    if not case_events.publishing():
        return
    case = session.get(Case, case_id, populate_existing=True)
    if case is not None:
        _queue(session, case, event_type, now)
