"""The kernel of the notifier's outboxes, the alerts' and the caseworkers' replies': claim,
re-check, settle, whatever the table. Here, below both, so neither imports the other.

Exactly once, across crashes:

1. a row is *claimed* (``queued`` → ``sending``, in a transaction with ``SKIP LOCKED`` on
   PostgreSQL, so several notifiers never take the same one);
2. Rasa's channel claims it again right before handing it to the provider (``rendered_at``,
   set once: a second trigger sends nothing) and records ``delivered_at`` when the provider
   took it — shielded, so it completes even if this notifier dies meanwhile
   (``bot/channels/deliveries.py``);
3. after Rasa answered 200 the notifier marks it ``sent`` if it was delivered, or queues it
   again if it was not (the action could not read the database);
4. when the channel could not hand it to the provider (429, 5xx, no stored address) it is
   retried with exponential backoff (or the provider's retry time), up to
   ``ALERT_MAX_ATTEMPTS``, then ``failed``;
5. a notifier that died leaves rows in ``sending``; after ``ALERT_CLAIM_LEASE`` any notifier
   takes them back (``actions/common/leases.py``): delivered ones count as sent, the others
   are queued again. Only a Rasa process dying between the provider's acceptance and
   recording it can repeat an alert.

At most one message per conversation a second (Telegram's per-chat limit), counted from when
the last one *finished*, whatever the number queued.
"""

from __future__ import annotations

import enum
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ClassVar, Protocol

from sqlalchemy import and_, exists, or_, update
from sqlalchemy.orm import Session, aliased

from actions.common import leases
from actions.common.clock import utc_now

logger = logging.getLogger(__name__)


class DeliveryStatus(str, enum.Enum):
    """Where a message on its way to a person stands (an alert, a caseworker's reply)."""

    QUEUED = "queued"  # waiting for its turn (or for a retry after ``next_attempt_at``)
    SENDING = "sending"  # claimed by a notifier, handed to Rasa
    SENT = "sent"  # Rasa's channel handed it to the provider
    FAILED = "failed"  # given up: no address any more, or every retry failed
    CANCELLED = "cancelled"  # the subscriber opted out before it went out
    SUPERSEDED = "superseded"  # a newer change to the same thing went out instead


#: Statuses a delivery never leaves.
FINAL_STATUSES = frozenset(
    {
        DeliveryStatus.SENT,
        DeliveryStatus.FAILED,
        DeliveryStatus.CANCELLED,
        DeliveryStatus.SUPERSEDED,
    }
)


class OutboxSettings(leases.RetrySettings, Protocol):
    """What an outbox needs of the notifier's settings: its retries and the per-chat pace."""

    @property
    def per_conversation_interval(self) -> float: ...


@dataclass(frozen=True)
class Claimed:
    id: int
    conversation_id: str
    channel: str
    attempts: int


@dataclass(frozen=True)
class Outcome:
    """What Rasa said about one trigger."""

    delivered: bool  # Rasa answered 200
    error: str | None = None  # short reason, never an address
    retry_after: float | None = None
    permanent: bool = False  # retrying cannot help (no stored address)
    reached_rasa: bool = True  # False: connection failed or timed out, the outcome is unknown


class Outbox(ABC):
    """The steps, each one short transaction (run in a worker thread).

    A subclass names its table (with the ``Sending`` columns of ``actions/content/outgoing.py``
    and a ``status`` of :class:`DeliveryStatus`), the intent that delivers its rows, the entity
    that carries their id, the database the table is in and why a row must not go out after
    all: the alerts' (``actions/alerts/outbox_steps.py``) and the caseworkers' replies'
    (``actions/cases/courier.py``). The kernel knows neither, so neither needs the other.
    """

    #: The outbox table: a model with the ``Sending`` columns and a ``status``.
    model: ClassVar[Any]
    intent: ClassVar[str]
    entity: ClassVar[str]
    #: What one row is, for the log.
    kind: ClassVar[str]
    #: The channels whose rows it sends.
    channels: ClassVar[frozenset[str]]

    def __init__(self, settings_: OutboxSettings, clock: Callable[[], datetime] = utc_now):
        self.settings = settings_
        self.retries = leases.Retries.of(settings_)
        self.clock = clock

    def recover(self) -> int:
        """Takes back deliveries a dead notifier left in ``sending`` past the lease."""
        now, table = self.clock(), self.model
        stale = self.retries.lease_ended(table, DeliveryStatus.SENDING, now)
        with self.unit_of_work() as session:
            sent = session.execute(
                update(table)
                .where(stale, table.delivered_at.is_not(None))
                .values(status=DeliveryStatus.SENT, finished_at=now)
            )
            queued = session.execute(
                update(table)
                .where(stale, table.delivered_at.is_(None))
                .values(status=DeliveryStatus.QUEUED, next_attempt_at=now, rendered_at=None)
            )
        count = int(getattr(sent, "rowcount", 0) or 0) + int(getattr(queued, "rowcount", 0) or 0)
        if count:
            logger.info("recovered %d %s(s) a stopped notifier had claimed", count, self.kind)
        return count

    def claim(self, channel: str, limit: int) -> list[Claimed]:
        """Up to ``limit`` due deliveries of ``channel``, one per conversation, oldest first,
        skipping conversations with a delivery in flight or one finished less than a second ago.

        The second counts from when the last one *finished*, not when it was claimed: a slow
        send would otherwise leave the next one arriving at the provider well within the second.
        """
        now, table = self.clock(), self.model
        recent = aliased(table)
        just_alerted = exists().where(
            recent.conversation_id == table.conversation_id,
            or_(
                recent.status == DeliveryStatus.SENDING,
                and_(
                    recent.status == DeliveryStatus.SENT,
                    recent.finished_at
                    > now - timedelta(seconds=self.settings.per_conversation_interval),
                ),
            ),
        )
        due = leases.due(
            table,
            DeliveryStatus.QUEUED,
            now,
            table.channel == channel,
            ~just_alerted,
            limit=limit * 2,
        )
        with self.unit_of_work() as session:
            picked: dict[str, Any] = {}
            for delivery in session.scalars(due):
                if delivery.conversation_id not in picked and len(picked) < limit:
                    picked[delivery.conversation_id] = delivery
            leases.claim(picked.values(), DeliveryStatus.SENDING, now)
            return [
                Claimed(d.id, d.conversation_id, d.channel, d.attempts) for d in picked.values()
            ]

    def still_to_send(self, claimed: Claimed) -> bool:
        """Re-checked just before sending: opted out, or no address left, means not at all.

        Renews the claim and counts the attempt: a row is only ever older than the lease when
        the notifier holding it has stopped.
        """
        now = self.clock()
        with self.unit_of_work() as session:
            row = session.get(self.model, claimed.id, with_for_update=True)
            if row is None or row.status is not DeliveryStatus.SENDING:
                return False
            row.claimed_at = now
            row.attempts += 1
            unsendable = self.unsendable(session, row, now)
            if unsendable is not None:
                status, error = unsendable
                _finish(row, status, now, error)
                return False
            return True

    @abstractmethod
    def unit_of_work(self) -> AbstractContextManager[Session]:
        """One short transaction on the database the outbox's table is in."""

    @abstractmethod
    def unsendable(
        self, session: Session, row: Any, now: datetime
    ) -> tuple[DeliveryStatus, str | None] | None:
        """Why ``row`` must not go out after all (its final status and error), or None."""

    def settle(self, claimed: Claimed, outcome: Outcome) -> DeliveryStatus:
        """Record what became of one delivery after Rasa answered (or did not)."""
        now = self.clock()
        with self.unit_of_work() as session:
            delivery = session.get(self.model, claimed.id)
            if delivery is None:
                return DeliveryStatus.FAILED  # forgotten on request meanwhile
            if delivery.status is not DeliveryStatus.SENDING:
                return DeliveryStatus(delivery.status)  # cancelled or superseded meanwhile
            if delivery.delivered_at is not None:
                # Delivered, whatever the answer said (an answer lost on the way counts too).
                _finish(delivery, DeliveryStatus.SENT, now)
                return DeliveryStatus.SENT
            if outcome.delivered:
                error = "not sent (the action could not read the database)"
            else:
                error = outcome.error or "failed"
            if delivery.rendered_at is not None and not outcome.reached_rasa:
                # Rasa still holds it, in the middle of sending: it will record the outcome.
                # Taken back after the lease like a dead notifier's, never sent twice.
                return DeliveryStatus.SENDING
            later = self.retries.next_attempt(delivery.attempts, now, outcome.retry_after)
            if outcome.permanent or later is None:
                _finish(delivery, DeliveryStatus.FAILED, now, error)
                return DeliveryStatus.FAILED
            delivery.status = DeliveryStatus.QUEUED
            delivery.next_attempt_at = later
            leases.note_error(delivery, error)
            return DeliveryStatus.QUEUED


def _finish(delivery: Any, status: DeliveryStatus, now: datetime, error: str | None = None) -> None:
    delivery.status = status
    delivery.finished_at = now
    if error is not None:
        leases.note_error(delivery, error)
