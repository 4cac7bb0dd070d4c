"""The caseworkers' side of the case store: the queue, one case with its lines, taking a case.

What these return is plain data for the console's pages, and never the conversation id: a
caseworker needs the person's words, language and channel, not who they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from actions.alerts.models import DeliveryStatus
from actions.cases import replies, undelivered, webhooks
from actions.cases.models import Author, Case, CaseAudit, CaseMessage, CaseStatus
from actions.cases.store import OPEN_STATUSES
from bot import case_events

#: Open cases shown on the queue page; a surge beyond that is counted, not listed.
QUEUE_LIMIT = 100
#: The person's last lines shown per case in the queue.
PREVIEW_LINES = 2


#: What a caseworker sees of a reply's delivery.
DELIVERY_SHOWN = {
    DeliveryStatus.QUEUED: "reply_on_its_way",
    DeliveryStatus.SENDING: "reply_on_its_way",
    DeliveryStatus.SENT: "reply_delivered",
    DeliveryStatus.FAILED: "reply_not_delivered",
    DeliveryStatus.CANCELLED: "reply_not_delivered",
    DeliveryStatus.SUPERSEDED: "reply_not_delivered",
}


@dataclass(frozen=True)
class Line:
    author: str
    text: str
    written_at: datetime
    #: A caseworker's reply: "reply_on_its_way", "reply_retrying", "reply_delivered" or
    #: "reply_not_delivered".
    delivery: str | None = None
    #: Why it has not arrived (an ``undelivered_*`` key), when a try failed.
    reason: str | None = None


def delivery_shown(status: DeliveryStatus, last_error: str | None) -> tuple[str, str | None]:
    """What the caseworker reads of a reply: its state, and why it has not arrived. A reply
    that a try failed for says so while it is tried again, never just "on its way"."""
    why = undelivered.reason(status, last_error)
    shown = DELIVERY_SHOWN[status]
    if shown == "reply_on_its_way" and why is not None:
        shown = "reply_retrying"
    return shown, why


@dataclass(frozen=True)
class CaseView:
    id: int
    status: str
    urgent: bool
    language: str
    channel: str
    opened_at: datetime
    taken_by: str | None
    lines: tuple[Line, ...]
    closed_at: datetime | None = None


def _view(
    case: Case,
    lines: list[CaseMessage],
    deliveries: dict[int, tuple[DeliveryStatus, str | None]] | None = None,
) -> CaseView:
    shown = {m: delivery_shown(*delivery) for m, delivery in (deliveries or {}).items()}
    return CaseView(
        id=case.id,
        status=case.status.value,
        urgent=case.priority > 0,
        language=case.language,
        channel=case.channel,
        opened_at=case.opened_at,
        taken_by=case.taken_by,
        lines=tuple(
            Line(m.author.value, m.text, m.written_at, *shown.get(m.id, (None, None)))
            for m in lines
        ),
        closed_at=case.closed_at,
    )


def open_queue(session: Session) -> tuple[list[CaseView], int]:
    """Open cases, urgent first, then the longest waiting; each with the person's last lines
    (and the assistant's answers before them); and how many open cases there are in all."""
    cases = list(
        session.scalars(
            select(Case)
            .where(Case.status.in_(OPEN_STATUSES))
            .order_by(Case.priority.desc(), Case.opened_at, Case.id)
            .limit(QUEUE_LIMIT)
        )
    )
    total = session.scalar(
        select(func.count()).select_from(Case).where(Case.status.in_(OPEN_STATUSES))
    )
    lines: dict[int, list[CaseMessage]] = {case.id: [] for case in cases}
    if cases:
        for message in session.scalars(
            select(CaseMessage)
            .where(CaseMessage.case_id.in_(list(lines)))
            .order_by(CaseMessage.case_id, CaseMessage.id)
        ):
            lines[message.case_id].append(message)
    views = []
    for case in cases:
        own = lines[case.id]
        person = [m for m in own if m.author is Author.PERSON][-PREVIEW_LINES:]
        assistant = [m for m in own if m.author is Author.ASSISTANT][-1:]
        views.append(_view(case, [*assistant, *person]))
    return views, int(total or 0)


def case_for(session: Session, case_id: int, caseworker: str, now: datetime) -> CaseView | None:
    """The case with every line; records in the audit log that ``caseworker`` opened it."""
    case = session.get(Case, case_id)
    if case is None:
        return None
    session.add(CaseAudit(case_id=case.id, caseworker=caseworker, action="opened", at=now))
    lines = list(
        session.scalars(
            select(CaseMessage).where(CaseMessage.case_id == case.id).order_by(CaseMessage.id)
        )
    )
    return _view(case, lines, replies.delivery_of_lines(session, case.id))


def closing(session: Session, case_id: int, caseworker: str) -> tuple[str, str] | None:
    """The conversation id and channel of the case ``caseworker`` holds (to hand it back
    through Rasa's API: never shown); None if they do not hold it."""
    row = session.execute(
        select(Case.conversation_id, Case.channel).where(
            Case.id == case_id, Case.status == CaseStatus.TAKEN, Case.taken_by == caseworker
        )
    ).first()
    return None if row is None else (row[0], row[1])


def close(session: Session, case_id: int, caseworker: str, now: datetime) -> bool:
    """Closes the case ``caseworker`` holds, and lets go of the person's address; False if
    they do not hold it (any more)."""
    held = closing(session, case_id, caseworker)
    closed = session.execute(
        update(Case)
        .where(Case.id == case_id, Case.status == CaseStatus.TAKEN, Case.taken_by == caseworker)
        .values(status=CaseStatus.CLOSED, closed_at=now, active_at=now)
    )
    if getattr(closed, "rowcount", 0) != 1 or held is None:
        return False
    session.add(CaseAudit(case_id=case_id, caseworker=caseworker, action="closed", at=now))
    webhooks.case_changed(session, case_id, case_events.CLOSED, now)
    replies.release_address(session, held[0], now)
    return True


def take(session: Session, case_id: int, caseworker: str, now: datetime) -> str | None:
    """Claims a waiting case for ``caseworker``, atomically: one ``UPDATE … WHERE status =
    'waiting'``, so of two caseworkers taking it at once exactly one row changes. Returns who
    holds it afterwards (None if there is no such open case)."""
    claimed = session.execute(
        update(Case)
        .where(Case.id == case_id, Case.status == CaseStatus.WAITING)
        .values(status=CaseStatus.TAKEN, taken_by=caseworker, taken_at=now, active_at=now)
    )
    if getattr(claimed, "rowcount", 0) == 1:
        session.add(CaseAudit(case_id=case_id, caseworker=caseworker, action="took", at=now))
        webhooks.case_changed(session, case_id, case_events.TAKEN, now)
        return caseworker
    return session.scalar(
        select(Case.taken_by).where(Case.id == case_id, Case.status == CaseStatus.TAKEN)
    )
