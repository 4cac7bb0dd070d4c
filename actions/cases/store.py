"""The case store's writes from the content runtime: open a case, forget a person's cases.

Functions take the session of the caller's unit of work (``db.session_scope``), like the rest of
the content database's repository functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from actions.cases import replies, webhooks
from actions.cases.models import Author, Case, CaseMessage, CaseStatus, Priority
from actions.content.models import Organisation
from kernel import case_events
from kernel.case_urgency import is_urgent
from kernel.contentdb.statuses import OPEN_CASE_STATUSES


def open_case_of(session: Session, conversation_id: str) -> Case | None:
    """The conversation's case that is not closed yet, if any."""
    return session.scalars(
        select(Case)
        .where(Case.conversation_id == conversation_id, Case.status.in_(OPEN_CASE_STATUSES))
        .order_by(Case.id.desc())
    ).first()


def open_case(
    session: Session,
    *,
    conversation_id: str,
    channel: str,
    language: str,
    organisation: Organisation | None,
    request: str,
    assistant_answers: Sequence[str],
    now: datetime,
    urgent: bool = False,
) -> Case:
    """A new waiting case, with the assistant's last answers as context; urgent when the caller
    found danger in the request (``kernel/danger.py``) or it names an emergency
    (``kernel/case_urgency.py``). A conversation has at most one open case: asking again returns
    the one it has."""
    case = open_case_of(session, conversation_id)
    if case is not None:
        return case
    urgent = urgent or is_urgent(request)
    case = Case(
        conversation_id=conversation_id,
        channel=channel,
        language=language,
        organisation_id=None if organisation is None else organisation.id,
        status=CaseStatus.WAITING,
        priority=Priority.URGENT if urgent else Priority.NORMAL,
        opened_at=now,
        active_at=now,
    )
    session.add(case)
    session.flush()
    lines = [(Author.ASSISTANT, text) for text in assistant_answers]
    lines.append((Author.PERSON, request))
    for author, text in lines:
        session.add(CaseMessage(case_id=case.id, author=author, text=text, written_at=now))
    webhooks.case_opened(session, case, request, now)
    return case


def opened_since(session: Session, conversation_id: str, since: datetime) -> int:
    """How many cases the conversation opened since ``since`` (any status: withdrawn ones
    count, so open-cancel-open cannot flood the queue)."""
    return int(
        session.scalar(
            select(func.count(Case.id)).where(
                Case.conversation_id == conversation_id, Case.opened_at >= since
            )
        )
        or 0
    )


def add_line(session: Session, case: Case, text: str, now: datetime, urgent: bool = False) -> bool:
    """The person's message as a line of their case (raising it to urgent when the caller found
    danger in it, or for an urgent word, ``kernel/case_urgency.py``), for a message the assistant
    answered itself (the conversation is not paused, or the message spoke of danger); whether
    the message was urgent."""
    urgent = urgent or is_urgent(text)
    session.add(CaseMessage(case_id=case.id, author=Author.PERSON, text=text, written_at=now))
    case.active_at = now
    if urgent:
        case.priority = Priority.URGENT
    webhooks.message_written(session, case, Author.PERSON, text, now)
    return urgent


def withdraw(session: Session, case: Case, note: str, now: datetime) -> None:
    """The person withdrew their request: the case closes with ``note`` as its last line (the
    caseworker sees why), and the address is let go as on any close."""
    session.add(CaseMessage(case_id=case.id, author=Author.ASSISTANT, text=note, written_at=now))
    session.execute(
        update(Case)
        .where(Case.id == case.id)
        .values(status=CaseStatus.CLOSED, closed_at=now, active_at=now)
    )
    webhooks.case_changed(session, case.id, case_events.CLOSED, now)
    replies.release_address(session, case.conversation_id, now)


def forget(session: Session, conversation_ids: Sequence[str]) -> int:
    """Deletes these conversations' cases and their messages; returns how many cases."""
    if not conversation_ids:
        return 0
    ids = list(conversation_ids)
    cases = select(Case.id).where(Case.conversation_id.in_(ids))
    session.execute(delete(CaseMessage).where(CaseMessage.case_id.in_(cases)))
    result = session.execute(delete(Case).where(Case.conversation_id.in_(ids)))
    return int(getattr(result, "rowcount", 0) or 0)


def purge_closed(session: Session, before: datetime) -> int:
    """Deletes the cases closed before ``before`` (``CLOSED_CASE_RETENTION``)."""
    old = select(Case.id).where(Case.status == CaseStatus.CLOSED, Case.closed_at < before)
    session.execute(delete(CaseMessage).where(CaseMessage.case_id.in_(old)))
    result = session.execute(
        delete(Case).where(Case.status == CaseStatus.CLOSED, Case.closed_at < before)
    )
    return int(getattr(result, "rowcount", 0) or 0)


def purge_inactive(session: Session, before: datetime) -> int:
    """Deletes the cases nothing was written to since ``before`` (the conversation retention)."""
    old = select(Case.id).where(Case.active_at < before)
    session.execute(delete(CaseMessage).where(CaseMessage.case_id.in_(old)))
    result = session.execute(delete(Case).where(Case.active_at < before))
    return int(getattr(result, "rowcount", 0) or 0)
