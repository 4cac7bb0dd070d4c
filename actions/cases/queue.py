"""The caseworkers' side of the case store: the queue, one case with its lines, taking a case.

What these return is plain data for the console's pages, and never the conversation id: a
caseworker needs the person's words, language and channel, not who they are. Each reads and
changes only the cases the caseworker's organisation answers (``organisation_id``,
``models.seen_by``): another organisation's case is as if it did not exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy import case as sql_case
from sqlalchemy.orm import Session

from actions.cases import replies, undelivered, webhooks
from actions.cases.models import Author, Case, CaseAudit, CaseMessage, CaseStatus, seen_by
from actions.common.outbox import DeliveryStatus
from kernel import case_events, delivery_statuses
from kernel.contentdb.statuses import OPEN_CASE_STATUSES

#: Open cases on one page of the queue; the others are on the next pages.
QUEUE_PAGE = 50
#: The audit's word for a case closed as abuse (a flood of fake requests).
ABUSE = "closed_abuse"
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
#: What a caseworker sees of a reply the provider reported on, once it left us.
PROVIDER_SHOWN = {
    delivery_statuses.SENT: "reply_sent",
    delivery_statuses.DELIVERED: "reply_delivered",
    delivery_statuses.READ: "reply_read",
    delivery_statuses.FAILED: "reply_failed",
}


@dataclass(frozen=True)
class Line:
    author: str
    text: str
    written_at: datetime
    #: A caseworker's reply: "reply_on_its_way", "reply_retrying", "reply_not_sent_yet",
    #: "reply_delivered" or "reply_not_delivered".
    delivery: str | None = None
    #: Why it has not arrived (an ``undelivered_*`` key), when a try failed.
    reason: str | None = None


def delivery_shown(delivery: replies.Delivery) -> tuple[str, str | None]:
    """What the caseworker reads of a reply: its state, and why it has not arrived. A reply
    that a try failed for, or that nobody is sending, says so, never just "on its way"."""
    why = undelivered.reason(
        delivery.status,
        delivery.last_error,
        stalled=delivery.stalled,
        provider_error=delivery.provider_error,
    )
    shown = DELIVERY_SHOWN[delivery.status]
    if delivery.status is DeliveryStatus.SENT and delivery.provider_status in PROVIDER_SHOWN:
        shown = PROVIDER_SHOWN[delivery.provider_status]
    elif shown == "reply_on_its_way" and why is not None:
        shown = "reply_not_sent_yet" if delivery.stalled else "reply_retrying"
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
    #: The person's channel said they can no longer be reached (blocked, not on WhatsApp,
    #: texted STOP), and they have written nothing since.
    unreachable: bool = False


def _view(
    case: Case,
    lines: list[CaseMessage],
    deliveries: dict[int, replies.Delivery] | None = None,
) -> CaseView:
    shown = {m: delivery_shown(delivery) for m, delivery in (deliveries or {}).items()}
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
        unreachable=unreachable(case, lines),
    )


def unreachable(case: Case, lines: list[CaseMessage]) -> bool:
    """Whether the person of an open case can no longer be reached: their channel refused
    them for good, and nothing they wrote since says otherwise (they unblocked the bot)."""
    if case.unreachable_at is None or case.status is CaseStatus.CLOSED:
        return False
    return not any(
        line.author is Author.PERSON and line.written_at > case.unreachable_at for line in lines
    )


@dataclass(frozen=True)
class QueueFilter:
    """What a caseworker narrowed the queue to, and which page of it she reads."""

    channel: str | None = None
    language: str | None = None
    #: One of ``AGES``' keys: how long the cases have waited.
    age: str | None = None
    page: int = 1


#: The age filter: (waited at least, waited less than), in minutes.
AGES: dict[str, tuple[int, int | None]] = {
    "under_15m": (0, 15),
    "over_15m": (15, None),
    "over_1h": (60, None),
    "over_1d": (24 * 60, None),
}


@dataclass(frozen=True)
class QueuePage:
    cases: list[CaseView]
    #: Open cases in all, and those the filter lets through.
    total: int
    matching: int
    page: int
    pages: int
    #: The channels of the open cases, for the channel filter.
    channels: list[str]


def _ranked(where: list[Any]) -> Any:
    """Open cases with their place in the queue (``docs/HANDOFF.md``, "Who comes first").

    Urgent cases from a channel with an address (a phone number, a chat id) come first, oldest
    first. The rest follow, with the urgent web chat cases taking every other place: one web
    chat client can open any number of urgent-sounding cases at no cost, so they never bury
    the others, however many there are, yet each still comes early.
    """
    urgent = Case.priority > 0
    anonymous = Case.channel.in_(sorted(case_events.ANONYMOUS_CHANNELS))
    tier = sql_case((and_(urgent, ~anonymous), 0), else_=1).label("tier")
    group = sql_case((and_(urgent, anonymous), 0), else_=1).label("grp")
    place = (
        func.row_number()
        .over(partition_by=(tier, group), order_by=(Case.opened_at, Case.id))
        .label("place")
    )
    return (
        select(Case.id.label("id"), tier, group, place)
        .where(Case.status.in_(OPEN_CASE_STATUSES), *where)
        .subquery()
    )


def open_queue(
    session: Session,
    now: datetime,
    wanted: QueueFilter | None = None,
    organisation_id: int | None = None,
) -> QueuePage:
    """One page of the open cases the caseworker's organisation answers, in queue order, each
    with the person's last lines (and the assistant's answer before them); how many are open,
    and how many the filter lets through."""
    wanted = wanted or QueueFilter()
    seen = seen_by(organisation_id)
    where: list[Any] = [seen]
    if wanted.channel:
        where.append(Case.channel == wanted.channel)
    if wanted.language:
        where.append(Case.language == wanted.language)
    if wanted.age in AGES:
        least, most = AGES[wanted.age]
        where.append(Case.opened_at <= now - timedelta(minutes=least))
        if most is not None:
            where.append(Case.opened_at > now - timedelta(minutes=most))
    ranked = _ranked(where)
    matching = int(
        session.scalar(
            select(func.count())
            .select_from(Case)
            .where(Case.status.in_(OPEN_CASE_STATUSES), *where)
        )
        or 0
    )
    total = int(
        session.scalar(
            select(func.count()).select_from(Case).where(Case.status.in_(OPEN_CASE_STATUSES), seen)
        )
        or 0
    )
    pages = max(1, -(-matching // QUEUE_PAGE))
    page = min(max(wanted.page, 1), pages)
    cases = list(
        session.scalars(
            select(Case)
            .join(ranked, ranked.c.id == Case.id)
            .order_by(ranked.c.tier, ranked.c.place, ranked.c.grp, Case.id)
            .limit(QUEUE_PAGE)
            .offset((page - 1) * QUEUE_PAGE)
        )
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
    for found in cases:
        own = lines[found.id]
        person = [m for m in own if m.author is Author.PERSON][-PREVIEW_LINES:]
        assistant = [m for m in own if m.author is Author.ASSISTANT][-1:]
        views.append(_view(found, [*assistant, *person]))
    return QueuePage(views, total, matching, page, pages, channels_open(session, organisation_id))


def channels_open(session: Session, organisation_id: int | None = None) -> list[str]:
    """The channels of the open cases the organisation answers, for the channel filter."""
    return list(
        session.scalars(
            select(Case.channel)
            .where(Case.status.in_(OPEN_CASE_STATUSES), seen_by(organisation_id))
            .distinct()
            .order_by(Case.channel)
        )
    )


def _seen(session: Session, case_id: int, organisation_id: int | None) -> Case | None:
    """The case with this number, if the caseworker's organisation answers it."""
    return session.scalar(select(Case).where(Case.id == case_id, seen_by(organisation_id)))


def exists_case(session: Session, case_id: int, organisation_id: int | None = None) -> bool:
    """Whether a case with this number exists (open or closed) for the caseworker's
    organisation: the queue's search, which must not confirm another organisation's case."""
    return _seen(session, case_id, organisation_id) is not None


def case_for(
    session: Session,
    case_id: int,
    caseworker: str,
    now: datetime,
    organisation_id: int | None = None,
) -> CaseView | None:
    """The case with every line, if the caseworker's organisation answers it; records in the
    audit log that ``caseworker`` opened it."""
    case = _seen(session, case_id, organisation_id)
    if case is None:
        return None
    session.add(CaseAudit(case_id=case.id, caseworker=caseworker, action="opened", at=now))
    lines = list(
        session.scalars(
            select(CaseMessage).where(CaseMessage.case_id == case.id).order_by(CaseMessage.id)
        )
    )
    return _view(case, lines, replies.delivery_of_lines(session, case.id, now))


def _held_by(case_id: int, caseworker: str, organisation_id: int | None) -> list[Any]:
    """The case, if ``caseworker`` holds it and her organisation answers it."""
    return [
        Case.id == case_id,
        Case.status == CaseStatus.TAKEN,
        Case.taken_by == caseworker,
        seen_by(organisation_id),
    ]


def closing(
    session: Session, case_id: int, caseworker: str, organisation_id: int | None = None
) -> tuple[str, str] | None:
    """The conversation id and channel of the case ``caseworker`` holds (to hand it back
    through Rasa's API: never shown); None if they do not hold it."""
    row = session.execute(
        select(Case.conversation_id, Case.channel).where(
            *_held_by(case_id, caseworker, organisation_id)
        )
    ).first()
    return None if row is None else (row[0], row[1])


def close(
    session: Session,
    case_id: int,
    caseworker: str,
    now: datetime,
    organisation_id: int | None = None,
) -> bool:
    """Closes the case ``caseworker`` holds, and lets go of the person's address; False if
    they do not hold it (any more)."""
    held = closing(session, case_id, caseworker, organisation_id)
    closed = session.execute(
        update(Case)
        .where(*_held_by(case_id, caseworker, organisation_id))
        .values(status=CaseStatus.CLOSED, closed_at=now, active_at=now)
    )
    if getattr(closed, "rowcount", 0) != 1 or held is None:
        return False
    session.add(CaseAudit(case_id=case_id, caseworker=caseworker, action="closed", at=now))
    webhooks.case_changed(session, case_id, case_events.CLOSED, now)
    replies.release_address(session, held[0], now)
    return True


def _closable_by(caseworker: str, organisation_id: int | None) -> Any:
    """Cases a caseworker may close in bulk: her organisation's waiting ones, and those she
    holds."""
    return and_(
        seen_by(organisation_id),
        or_(
            Case.status == CaseStatus.WAITING,
            and_(Case.status == CaseStatus.TAKEN, Case.taken_by == caseworker),
        ),
    )


def closable(
    session: Session, case_ids: list[int], caseworker: str, organisation_id: int | None = None
) -> dict[int, str]:
    """The conversation id of each of ``case_ids`` that ``caseworker`` may close as abuse (to
    hand it back quietly; never shown)."""
    rows = session.execute(
        select(Case.id, Case.conversation_id).where(
            Case.id.in_(case_ids), _closable_by(caseworker, organisation_id)
        )
    )
    return {case_id: conversation for case_id, conversation in rows}


def close_as_abuse(
    session: Session,
    case_ids: list[int],
    caseworker: str,
    now: datetime,
    organisation_id: int | None = None,
) -> int:
    """Closes ``case_ids`` (those still closable by ``caseworker``) as abuse, audited as such;
    how many were closed."""
    held = closable(session, case_ids, caseworker, organisation_id)
    if not held:
        return 0
    session.execute(
        update(Case)
        .where(Case.id.in_(list(held)), _closable_by(caseworker, organisation_id))
        .values(status=CaseStatus.CLOSED, closed_at=now, active_at=now)
    )
    for case_id, conversation in held.items():
        session.add(CaseAudit(case_id=case_id, caseworker=caseworker, action=ABUSE, at=now))
        webhooks.case_changed(session, case_id, case_events.CLOSED, now)
        replies.release_address(session, conversation, now)
    return len(held)


def take(
    session: Session,
    case_id: int,
    caseworker: str,
    now: datetime,
    organisation_id: int | None = None,
) -> str | None:
    """Claims a waiting case of the caseworker's organisation for ``caseworker``, atomically:
    one ``UPDATE … WHERE status = 'waiting'``, so of two caseworkers taking it at once exactly
    one row changes. Returns who holds it afterwards (None if there is no such open case)."""
    seen = seen_by(organisation_id)
    claimed = session.execute(
        update(Case)
        .where(Case.id == case_id, Case.status == CaseStatus.WAITING, seen)
        .values(status=CaseStatus.TAKEN, taken_by=caseworker, taken_at=now, active_at=now)
    )
    if getattr(claimed, "rowcount", 0) == 1:
        session.add(CaseAudit(case_id=case_id, caseworker=caseworker, action="took", at=now))
        webhooks.case_changed(session, case_id, case_events.TAKEN, now)
        return caseworker
    return session.scalar(
        select(Case.taken_by).where(Case.id == case_id, Case.status == CaseStatus.TAKEN, seen)
    )
