"""The notifier: sends queued alerts through Rasa's HTTP API, at each channel's pace, exactly once.

For each delivery it calls ``POST /conversations/<id>/trigger_intent?output_channel=<channel>``
with the intent ``EXTERNAL_alert``; Rasa runs ``action_send_alert`` and sends the alert through
the subscriber's own channel connector, so no channel code is duplicated here.

Exactly once, across crashes:

1. a delivery is *claimed* (``queued`` → ``sending``, in a transaction with ``SKIP LOCKED`` on
   PostgreSQL, so several notifiers never take the same one);
2. Rasa's alert channel claims it again right before handing it to the provider
   (``rendered_at``, set once: a second trigger sends nothing) and records ``delivered_at``
   when the provider took it — shielded, so it completes even if this notifier dies meanwhile
   (``bot/channels/deliveries.py``);
3. after Rasa answers 200 the notifier marks it ``sent`` if it was delivered, or queues it
   again if it was not (the action could not read the database);
4. Rasa answers 500 when the channel could not hand the alert to the provider (429, 5xx, no
   stored address): the delivery is retried with exponential backoff (or the provider's
   ``retry after``), up to ``ALERT_MAX_ATTEMPTS``, then ``failed``;
5. a notifier that died leaves deliveries in ``sending``; after ``ALERT_CLAIM_LEASE`` any
   notifier takes them back: delivered ones count as sent, the others are queued again. Only a
   Rasa process dying between the provider's acceptance and recording it can repeat an alert.

Rates: per channel a token bucket (``ALERT_RATE_<CHANNEL>`` messages per second: Telegram 25,
WhatsApp 70 — headroom below the providers' 30 and 80 — SMS 10 by default) and at most one
alert per conversation per second (Telegram's per-chat limit), whatever the number queued.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

import aiohttp
from sqlalchemy import and_, exists, or_, select, update
from sqlalchemy.orm import Session, aliased

from actions import settings
from actions.alerts import retention
from actions.alerts.models import (
    Broadcast,
    Delivery,
    DeliveryStatus,
    StoredAddress,
)
from actions.alerts.subscriptions import ALERT_CHANNELS, still_wanted
from actions.cases import webhook_sender
from actions.common.clock import utc_now
from actions.content.db import session_scope
from bot.alert_rates import DEFAULT_RATES, alert_rate
from bot.contract import ALERT_DELIVERY, ALERT_INTENT
from bot.settings_values import positive_number, whole_number

logger = logging.getLogger(__name__)

_RETRY_AFTER = re.compile(r"retry after (\d+(?:\.\d+)?) s")
NO_ADDRESS = "no stored address"


@dataclass(frozen=True)
class NotifierSettings:
    """Read from the environment (README, docs/DATA_PROTECTION.md)."""

    rasa_url: str = "http://127.0.0.1:5005"
    rasa_token: str | None = None
    rates: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_RATES))
    per_conversation_interval: float = 1.0
    concurrency: int = 16
    max_attempts: int = 6
    backoff_seconds: float = 5.0
    max_backoff_seconds: float = 900.0
    claim_lease_seconds: float = 60.0
    poll_seconds: float = 1.0
    purge_every_seconds: float = 3600.0
    request_timeout_seconds: float = 30.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> NotifierSettings:
        rates = {channel: alert_rate(channel, environ) for channel in DEFAULT_RATES}
        return cls(
            rasa_url=(environ.get("RASA_URL", "").strip() or cls.rasa_url).rstrip("/"),
            rasa_token=environ.get("RASA_API_TOKEN", "").strip() or None,
            rates=rates,
            concurrency=whole_number(environ, "ALERT_CONCURRENCY", cls.concurrency),
            max_attempts=whole_number(environ, "ALERT_MAX_ATTEMPTS", cls.max_attempts),
            backoff_seconds=positive_number(environ, "ALERT_BACKOFF_SECONDS", cls.backoff_seconds),
            claim_lease_seconds=positive_number(
                environ, "ALERT_CLAIM_LEASE", cls.claim_lease_seconds
            ),
            poll_seconds=positive_number(environ, "ALERT_POLL_SECONDS", cls.poll_seconds),
        )


class TokenBucket:
    """``rate`` tokens a second, evenly spaced: no burst saved up while idle, because a provider
    counting "30 a second" may count any second, not ours."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._capacity = 1.0
        self._tokens = self._capacity
        self._clock = clock
        self._updated = clock()
        self._lock = asyncio.Lock()

    async def take(self) -> None:
        async with self._lock:
            while True:
                now = self._clock()
                self._tokens = min(self._capacity, self._tokens + (now - self._updated) * self.rate)
                self._updated = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await asyncio.sleep((1 - self._tokens) / self.rate)


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


class Outbox:
    """The notifier's database steps, each one short transaction (run in a worker thread).

    For alerts (``alert_deliveries``); a subclass names another table with the same columns,
    the intent that delivers its rows and the entity that carries their id
    (``actions/cases/courier.py``: caseworkers' replies).
    """

    #: The outbox table: ``Delivery``, or another model with its ``Sending`` columns.
    model: Any = Delivery
    intent: str = ALERT_INTENT
    entity: str = ALERT_DELIVERY
    #: What one row is, for the log.
    kind: str = "alert"
    #: The channels whose rows it sends.
    channels: frozenset[str] = ALERT_CHANNELS

    def __init__(self, settings_: NotifierSettings, clock: Callable[[], datetime] = utc_now):
        self.settings = settings_
        self.clock = clock

    def recover(self) -> int:
        """Takes back deliveries a dead notifier left in ``sending`` past the lease."""
        now, table = self.clock(), self.model
        stale = and_(
            table.status == DeliveryStatus.SENDING,
            table.claimed_at < now - timedelta(seconds=self.settings.claim_lease_seconds),
        )
        with session_scope() as session:
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
        due = (
            select(table)
            .where(
                table.status == DeliveryStatus.QUEUED,
                table.channel == channel,
                table.next_attempt_at <= now,
                ~just_alerted,
            )
            .order_by(table.id)
            .limit(limit * 2)
            .with_for_update(skip_locked=True)
        )
        with session_scope() as session:
            picked: dict[str, Any] = {}
            for delivery in session.scalars(due):
                if delivery.conversation_id not in picked and len(picked) < limit:
                    picked[delivery.conversation_id] = delivery
            for delivery in picked.values():
                delivery.status = DeliveryStatus.SENDING
                delivery.claimed_at = now
            return [
                Claimed(d.id, d.conversation_id, d.channel, d.attempts) for d in picked.values()
            ]

    def still_to_send(self, claimed: Claimed) -> bool:
        """Re-checked just before sending: opted out, or no address left, means not at all.

        Renews the claim and counts the attempt: a row is only ever older than the lease when
        the notifier holding it has stopped.
        """
        now = self.clock()
        with session_scope() as session:
            row = session.get(self.model, claimed.id, with_for_update=True)
            if row is None or row.status is not DeliveryStatus.SENDING:
                return False
            row.claimed_at = now
            row.attempts += 1
            unsendable = self.unsendable(session, row, now)
            if unsendable is not None:
                status, error = unsendable
                _finish(session, row, status, now, error)
                return False
            return True

    def unsendable(
        self, session: Session, row: Any, now: datetime
    ) -> tuple[DeliveryStatus, str | None] | None:
        """Why ``row`` must not go out after all (its final status and error), or None."""
        broadcast = session.get(Broadcast, row.broadcast_id)
        assert broadcast is not None
        if not still_wanted(
            session, row.conversation_id, broadcast.topic, broadcast.topic_key, now
        ):
            return DeliveryStatus.CANCELLED, None
        if not has_address(session, row.conversation_id, now):
            return DeliveryStatus.FAILED, NO_ADDRESS
        return None

    def settle(self, claimed: Claimed, outcome: Outcome) -> DeliveryStatus:
        """Record what became of one delivery after Rasa answered (or did not)."""
        now = self.clock()
        with session_scope() as session:
            delivery = session.get(self.model, claimed.id)
            if delivery is None:
                return DeliveryStatus.FAILED  # forgotten on request meanwhile
            if delivery.status is not DeliveryStatus.SENDING:
                return DeliveryStatus(delivery.status)  # cancelled or superseded meanwhile
            if delivery.delivered_at is not None:
                # Delivered, whatever the answer said (an answer lost on the way counts too).
                _finish(session, delivery, DeliveryStatus.SENT, now)
                return DeliveryStatus.SENT
            if outcome.delivered:
                error = "not sent (the action could not read the database)"
            else:
                error = outcome.error or "failed"
            if delivery.rendered_at is not None and not outcome.reached_rasa:
                # Rasa still holds it, in the middle of sending: it will record the outcome.
                # Taken back after the lease like a dead notifier's, never sent twice.
                return DeliveryStatus.SENDING
            if outcome.permanent or delivery.attempts >= self.settings.max_attempts:
                _finish(session, delivery, DeliveryStatus.FAILED, now, error)
                return DeliveryStatus.FAILED
            wait = min(
                self.settings.max_backoff_seconds,
                self.settings.backoff_seconds * 2 ** (delivery.attempts - 1),
            )
            if outcome.retry_after is not None:
                wait = max(wait, outcome.retry_after)
            delivery.status = DeliveryStatus.QUEUED
            delivery.next_attempt_at = now + timedelta(seconds=wait)
            delivery.last_error = error[:200]
            return DeliveryStatus.QUEUED

    def purge(self) -> retention.Purged:
        with session_scope() as session:
            return retention.purge(
                session,
                self.clock(),
                settings.conversation_retention(),
                settings.closed_case_retention(),
            )


def has_address(session: Session, conversation_id: str, now: datetime) -> bool:
    """Whether a sealed address for the conversation is stored and not expired."""
    expires_at = session.scalar(
        select(StoredAddress.expires_at).where(StoredAddress.conversation_id == conversation_id)
    )
    return expires_at is not None and expires_at > now


def _finish(
    session: Session,
    delivery: Any,
    status: DeliveryStatus,
    now: datetime,
    error: str | None = None,
) -> None:
    delivery.status = status
    delivery.finished_at = now
    if error is not None:
        delivery.last_error = error[:200]


class RasaApi:
    """Rasa's HTTP API, for ``trigger_intent`` only."""

    def __init__(self, settings_: NotifierSettings) -> None:
        self.settings = settings_
        self._session: aiohttp.ClientSession | None = None

    async def trigger(
        self, claimed: Claimed, intent: str = ALERT_INTENT, entity: str = ALERT_DELIVERY
    ) -> Outcome:
        if self._session is None:
            timeout = aiohttp.ClientTimeout(total=self.settings.request_timeout_seconds)
            self._session = aiohttp.ClientSession(timeout=timeout)
        params = {"output_channel": claimed.channel, "include_events": "NONE"}
        # In a header, not ?token=: proxies and access logs keep query strings (bot/server.py).
        headers = (
            {"Authorization": f"Bearer {self.settings.rasa_token}"}
            if self.settings.rasa_token
            else {}
        )
        url = (
            f"{self.settings.rasa_url}/conversations/"
            f"{quote(claimed.conversation_id, safe='')}/trigger_intent"
        )
        body = {"name": intent, "entities": {entity: str(claimed.id)}}
        try:
            async with self._session.post(
                url, params=params, json=body, headers=headers
            ) as response:
                if response.status == 200:
                    await response.read()
                    return Outcome(delivered=True)
                answer = await response.text()
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            return Outcome(False, f"Rasa unreachable ({type(error).__name__})", reached_rasa=False)
        return rasa_error(response.status, answer)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


def rasa_error(status: int, answer: str) -> Outcome:
    """Rasa's error answer as an Outcome. Only our channel's own short reasons are kept from
    it (bot/channels/addresses.py: "no stored address", "HTTP 429", "retry after 3 s")."""
    retry = _RETRY_AFTER.search(answer)
    provider = re.search(r"HTTP \d{3}", answer)
    reason = f"Rasa HTTP {status}" + (f", provider {provider.group(0)}" if provider else "")
    if status in (401, 403):
        reason += " (RASA_API_TOKEN does not match Rasa's --auth-token)"
    return Outcome(
        False,
        reason + (" (no stored address)" if NO_ADDRESS in answer else ""),
        retry_after=float(retry.group(1)) if retry else None,
        permanent=NO_ADDRESS in answer,
    )


class Notifier:
    """One task per channel claims what is due and sends it at the channel's rate."""

    def __init__(
        self,
        settings_: NotifierSettings | None = None,
        outbox: Outbox | None = None,
        rasa: RasaApi | None = None,
        more: Sequence[type[Outbox]] = (),
    ) -> None:
        """``more``: further outboxes sent beside the alerts, at the same channels' rates
        (caseworkers' replies: ``actions/cases/courier.py``)."""
        self.settings = settings_ or NotifierSettings.from_env()
        self.outbox = outbox or Outbox(self.settings)
        self.outboxes = [self.outbox, *(kind(self.settings, self.outbox.clock) for kind in more)]
        self.rasa = rasa or RasaApi(self.settings)
        self._stopping = asyncio.Event()
        self._slots = asyncio.Semaphore(self.settings.concurrency)
        self._in_flight: set[asyncio.Task[None]] = set()
        self.sent = 0

    def stop(self) -> None:
        self._stopping.set()

    async def run(self) -> None:
        """Until :meth:`stop`: send, recover what a dead notifier left, purge hourly."""
        logger.info(
            "notifier sending through %s at %s",
            self.settings.rasa_url,
            ", ".join(f"{c} {r:g}/s" for c, r in self.settings.rates.items()),
        )
        # One bucket per channel for every outbox: the provider's rate counts all our messages.
        wanted = {channel for outbox in self.outboxes for channel in outbox.channels}
        buckets = {
            channel: TokenBucket(self.settings.rates.get(channel) or alert_rate(channel))
            for channel in sorted(wanted)
        }
        channels = [
            asyncio.create_task(self._channel(outbox, channel, buckets[channel]))
            for outbox in self.outboxes
            for channel in sorted(outbox.channels)
        ]
        housekeeping = asyncio.create_task(self._housekeeping())
        await self._stopping.wait()
        for task in (*channels, housekeeping):
            task.cancel()
        await asyncio.gather(*channels, housekeeping, return_exceptions=True)
        if self._in_flight:  # let what was handed to Rasa finish and be recorded
            await asyncio.wait(self._in_flight, timeout=self.settings.request_timeout_seconds)
        await self.rasa.close()

    async def _housekeeping(self) -> None:
        next_purge = 0.0
        while True:
            try:
                for outbox in self.outboxes:
                    await asyncio.to_thread(outbox.recover)
                if time.monotonic() >= next_purge:
                    await asyncio.to_thread(self.outbox.purge)
                    next_purge = time.monotonic() + self.settings.purge_every_seconds
            except Exception:  # the database may be down: try again later, never stop
                logger.error("notifier housekeeping failed", exc_info=True)
            await asyncio.sleep(max(1.0, self.settings.claim_lease_seconds / 2))

    async def _channel(self, outbox: Outbox, channel: str, bucket: TokenBucket) -> None:
        failures = 0  # in a row: the database is down; wait longer, log the traceback once
        while True:
            try:
                batch = await asyncio.to_thread(outbox.claim, channel, max(1, int(bucket.rate)))
                failures = 0
            except Exception as error:
                failures += 1
                logger.error(
                    "notifier: cannot claim %s %ss (%s); retrying",
                    channel,
                    outbox.kind,
                    type(error).__name__,
                    exc_info=failures == 1,
                )
                await asyncio.sleep(min(60.0, self.settings.poll_seconds * 2**failures))
                continue
            if not batch:
                await asyncio.sleep(self.settings.poll_seconds)
                continue
            for claimed in batch:
                await self._slots.acquire()
                task = asyncio.create_task(self._send(outbox, claimed, bucket))
                self._in_flight.add(task)
                task.add_done_callback(self._in_flight.discard)

    async def _send(self, outbox: Outbox, claimed: Claimed, bucket: TokenBucket) -> None:
        try:
            await bucket.take()  # just before the request: the pace is what Rasa sees
            if not await asyncio.to_thread(outbox.still_to_send, claimed):
                return
            outcome = await self.rasa.trigger(claimed, outbox.intent, outbox.entity)
            status = await asyncio.to_thread(outbox.settle, claimed, outcome)
            if status is DeliveryStatus.SENT:
                self.sent += 1
            elif outcome.error:
                logger.warning(
                    "%s %s: %s -> %s", outbox.kind, claimed.id, outcome.error, status.value
                )
        except Exception:
            # Left in ``sending``: the lease brings it back. Logged without any address.
            logger.error("%s %s could not be settled", outbox.kind, claimed.id, exc_info=True)
        finally:
            self._slots.release()


def helpdesk_job() -> webhook_sender.CaseWebhookSender | None:
    """The helpdesk's case events, when ``CASE_WEBHOOK_URL`` is set. A malformed setting is
    logged and leaves them out: alerts to people matter more than a helpdesk's tickets."""
    try:
        return webhook_sender.CaseWebhookSender.from_env()
    except webhook_sender.WebhookSettingsError as error:
        logger.error("case events are not sent to a helpdesk: %s", error)
        return None


def serve(settings_: NotifierSettings | None = None, more: Sequence[type[Outbox]] = ()) -> None:
    """``python -m actions.alerts serve``: run until SIGTERM or Ctrl-C; ``more`` outboxes beside
    the alerts (caseworkers' replies), and with ``CASE_WEBHOOK_URL`` the helpdesk's case events
    (``actions/cases/webhook_sender.py``)."""
    notifier = Notifier(settings_, more=more)
    jobs = [job for job in (notifier, helpdesk_job()) if job is not None]

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):  # one handler per signal: stop them all
            loop.add_signal_handler(sig, lambda: [job.stop() for job in jobs])
        await asyncio.gather(*(job.run() for job in jobs))

    asyncio.run(main())


__all__ = ["Notifier", "NotifierSettings", "Outbox", "Outcome", "RasaApi", "serve"]
