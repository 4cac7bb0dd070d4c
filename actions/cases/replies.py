"""A caseworker's reply: a line of the case and its outbox row, written in one transaction.

The person's address stays sealed in ``alert_addresses`` while the case is open (the Rasa side
stores it when the case opens, ``actions/chat/handoff.py``); the content runtime can only extend or
shorten its expiry, never read it. Each reply keeps it for ``CONVERSATION_RETENTION`` more, and
closing the case cuts it back to what the person's alert subscriptions need, or to a short grace
for the replies still on their way (``release_address``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from actions.alerts.models import DeliveryStatus, StoredAddress, Subscription
from actions.cases import webhooks
from actions.cases.models import (
    Author,
    Case,
    CaseAudit,
    CaseMessage,
    CaseReply,
    CaseStatus,
    seen_by,
)

#: Longest reply a caseworker can send: about seven SMS segments in Dari, or a few paragraphs.
MAX_REPLY_CHARS = 1000
#: How long a closed case's address stays for replies still queued (the courier sends within
#: seconds; retries of a refused reply end well within this).
CLOSED_ADDRESS_GRACE = timedelta(minutes=30)
#: A reply due this long ago and never tried: the notifier, which polls every second, is not
#: running (the caseworker is told to tell the operator, not "on its way").
NOTIFIER_IDLE = timedelta(minutes=2)
#: ``ReplyRefused.reason`` for a case that does not exist for the caseworker's organisation:
#: answered "no such page", as if there were no such case.
NO_SUCH_CASE = "no_such_case"


class ReplyRefused(ValueError):
    """A reply that cannot be queued; ``reason`` is a key of the console's words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Queued:
    reply_id: int
    message_id: int


def queue_reply(
    session: Session,
    *,
    case_id: int,
    caseworker: str,
    text: str,
    language: str,
    now: datetime,
    keep_address: timedelta,
    organisation_id: int | None = None,
) -> Queued:
    """Adds ``text`` to the case ``caseworker`` holds and queues it for the person's channel.

    Raises ``ReplyRefused`` ("reply_empty", "reply_too_long", ``NO_SUCH_CASE`` when the
    caseworker's organisation does not answer it, "not_your_case") and writes nothing then.
    """
    text = text.strip()
    if not text:
        raise ReplyRefused("reply_empty")
    if len(text) > MAX_REPLY_CHARS:
        raise ReplyRefused("reply_too_long")
    case = session.scalar(
        select(Case).where(Case.id == case_id, seen_by(organisation_id)).with_for_update()
    )
    if case is None:
        raise ReplyRefused(NO_SUCH_CASE)
    if case.status is not CaseStatus.TAKEN or case.taken_by != caseworker:
        raise ReplyRefused("not_your_case")
    line = CaseMessage(case_id=case.id, author=Author.CASEWORKER, text=text, written_at=now)
    session.add(line)
    session.flush()
    reply = CaseReply(
        case_id=case.id,
        message_id=line.id,
        conversation_id=case.conversation_id,
        channel=case.channel,
        language=language,
        status=DeliveryStatus.QUEUED,
        attempts=0,
        next_attempt_at=now,
    )
    session.add(reply)
    session.add(CaseAudit(case_id=case.id, caseworker=caseworker, action="replied", at=now))
    webhooks.message_written(session, case, Author.CASEWORKER, text, now)  # for a helpdesk
    case.active_at = now
    session.execute(
        update(StoredAddress)
        .where(
            StoredAddress.conversation_id == case.conversation_id,
            StoredAddress.expires_at < now + keep_address,
        )
        .values(expires_at=now + keep_address)
    )
    session.flush()
    return Queued(reply.id, line.id)


def release_address(session: Session, conversation_id: str, now: datetime) -> None:
    """The case closed: its address is kept only as long as the person's subscriptions need
    it, and at least ``CLOSED_ADDRESS_GRACE`` for the replies still on their way."""
    subscribed_until = session.scalar(
        select(func.max(Subscription.expires_at)).where(
            Subscription.conversation_id == conversation_id, Subscription.expires_at > now
        )
    )
    keep_until = max(subscribed_until or now, now + CLOSED_ADDRESS_GRACE)
    session.execute(
        update(StoredAddress)
        .where(
            StoredAddress.conversation_id == conversation_id,
            StoredAddress.expires_at > keep_until,
        )
        .values(expires_at=keep_until)
    )


@dataclass(frozen=True)
class Delivery:
    """Where a caseworker's reply stands, for the case's page."""

    status: DeliveryStatus
    #: Why the last try failed (the notifier's words), if one did.
    last_error: str | None = None
    #: Queued long ago and never tried: no notifier is sending.
    stalled: bool = False
    #: What the provider said of it after taking it (``kernel/delivery_statuses.py``), and its
    #: error code.
    provider_status: str | None = None
    provider_error: str | None = None


def delivery_of_lines(session: Session, case_id: int, now: datetime) -> dict[int, Delivery]:
    """For each caseworker line of the case, where its reply stands."""
    rows = session.execute(
        select(
            CaseReply.message_id,
            CaseReply.status,
            CaseReply.last_error,
            CaseReply.attempts,
            CaseReply.next_attempt_at,
            CaseReply.provider_status,
            CaseReply.provider_error,
        ).where(CaseReply.case_id == case_id)
    )
    shown = {}
    for message_id, status, error, attempts, due, provider, code in rows:
        stalled = status == DeliveryStatus.QUEUED and not attempts and due < now - NOTIFIER_IDLE
        shown[message_id] = Delivery(DeliveryStatus(status), error, stalled, provider, code)
    return shown
