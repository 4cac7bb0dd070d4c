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
4. when the channel could not hand it to the provider (429, 5xx) it is retried with
   exponential backoff (or the provider's retry time), up to ``ALERT_MAX_ATTEMPTS``, then
   ``failed``; at once ``failed`` when the channel gave up on the person (no stored address,
   the person blocked the bot: ``NotDelivered.gives_up``), and when it was the person's
   provider that refused them for good, the outbox's :meth:`Outbox.stop_reaching` ends what
   would reach them (their subscriptions end as a typed STOP ends them:
   ``actions/alerts/unreachable.py``);
4b. what the provider reports afterwards (WhatsApp ``statuses``, Twilio's status callbacks,
   recorded on the row by Rasa's channel) is acted on by :meth:`Outbox.reconcile`: a failure
   that says the person cannot be reached there ends it and, the same way, what would reach
   them; any other failure is tried again, within the same attempts;
5. a notifier that died leaves rows in ``sending``; after ``ALERT_CLAIM_LEASE`` any notifier
   takes them back (``actions/common/leases.py``): delivered ones count as sent, the others
   are queued again. Only a Rasa process dying between the provider's acceptance and
   recording it can repeat an alert.

At most one message per conversation a second (Telegram's per-chat limit), counted from when
the last one *finished*, whatever the number queued.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ClassVar, Protocol

from sqlalchemy import and_, exists, or_, select, update
from sqlalchemy.orm import Session, aliased

from actions.common import leases
from actions.common.clock import utc_now
from actions.common.rasa_api import Outcome
from kernel import delivery_statuses
from kernel.contentdb.statuses import DeliveryStatus

__all__ = ["Claimed", "DeliveryStatus", "Outbox", "OutboxSettings", "Outcome"]

logger = logging.getLogger(__name__)

#: Added to the reason of a refusal that was the person's (``actions/cases/undelivered.py``
#: reads it).
REFUSED_BY_PERSON = "refused by the person"
#: The start of the reason of a failure the provider reported after it took the message,
#: followed by its error code.
PROVIDER_FAILED = "provider reported failure"
#: Rows :meth:`Outbox.reconcile` acts on in one transaction; the next round takes the rest.
RECONCILE_BATCH = 500


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


class Outbox(ABC):
    """The steps, each one short transaction (run in a worker thread).

    A subclass names its table (with the ``Sending`` columns of ``actions/content/outgoing.py``
    and a ``status`` of :class:`DeliveryStatus`), the intent that delivers its rows, the entity
    that carries their id, the database the table is in, why a row must not go out after all
    and what ends when a person's provider refused them for good: the alerts'
    (``actions/alerts/outbox_steps.py``) and the caseworkers' replies'
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

    @abstractmethod
    def stop_reaching(self, session: Session, conversation_id: str, now: datetime) -> None:
        """The person's provider refused them for good (blocked the bot, not on WhatsApp,
        texted STOP): end what would reach them, in ``session``'s transaction."""

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
            if outcome.permanent and outcome.person_refused:
                _finish(delivery, DeliveryStatus.FAILED, now, f"{error} ({REFUSED_BY_PERSON})")
                self.stop_reaching(session, delivery.conversation_id, now)
                return DeliveryStatus.FAILED
            if outcome.permanent or later is None:
                _finish(delivery, DeliveryStatus.FAILED, now, error)
                return DeliveryStatus.FAILED
            delivery.status = DeliveryStatus.QUEUED
            delivery.next_attempt_at = later
            leases.note_error(delivery, error)
            return DeliveryStatus.QUEUED

    def reconcile(self) -> int:
        """Acts on the failures providers reported after taking a message: a person gone
        (``delivery_statuses.PERSON_GONE``) fails it for good and :meth:`stop_reaching` them;
        any other failure queues it again while attempts are left. Returns the rows acted on."""
        now, table = self.clock(), self.model
        acted = 0
        with self.unit_of_work() as session:
            failed = session.scalars(
                select(table)
                .where(
                    table.status == DeliveryStatus.SENT,
                    table.provider_status == delivery_statuses.FAILED,
                )
                .order_by(table.id)
                .limit(RECONCILE_BATCH)
                .with_for_update(skip_locked=True)
            ).all()
            for row in failed:
                acted += 1
                code = row.provider_error
                error = f"{PROVIDER_FAILED} {code or '(no code)'}"
                if delivery_statuses.person_gone(code):
                    row.finished_at = now
                    row.status = DeliveryStatus.FAILED
                    leases.note_error(row, f"{error} ({REFUSED_BY_PERSON})")
                    self.stop_reaching(session, row.conversation_id, now)
                    continue
                later = self.retries.next_attempt(row.attempts, now)
                if later is None:
                    _finish(row, DeliveryStatus.FAILED, now, error)
                    continue
                row.status = DeliveryStatus.QUEUED
                row.next_attempt_at = later
                row.rendered_at = row.delivered_at = row.finished_at = None
                # The code stays for the console ("phone off, trying again") until the next try.
                row.provider_message_id = row.provider_status = row.status_at = None
                leases.note_error(row, error)
        if acted:
            logger.info("%d %s(s) the provider reported failed, acted on", acted, self.kind)
        return acted


def _finish(delivery: Any, status: DeliveryStatus, now: datetime, error: str | None = None) -> None:
    delivery.status = status
    delivery.finished_at = now
    if error is not None:
        leases.note_error(delivery, error)
