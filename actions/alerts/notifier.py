"""The notifier: sends queued alerts and caseworkers' replies through Rasa's HTTP API, at each
channel's pace, exactly once; and, with ``CASE_WEBHOOK_URL``, the helpdesk's case events.

``python -m actions.alerts serve`` (``actions/alerts/__main__.py``, started by ``make run``).
Its parts: the settings (``notifier_settings.py``), the database steps and their guarantees
(``outbox_steps.py``, with ``leases.py``), the calls of Rasa's HTTP API (``rasa_client.py``)
and this loop. Caseworkers' replies are an outbox of the same shape
(``actions/cases/courier.py``); the helpdesk's events have their own sender
(``actions/cases/webhook_sender.py``).

Rates: per channel a token bucket (``ALERT_RATE_<CHANNEL>`` messages per second: Telegram 25,
WhatsApp 70 — headroom below the providers' 30 and 80 — SMS 10 by default;
``bot/alert_rates.py``) shared by the alerts and the replies, and at most
one message per conversation per second (Telegram's per-chat limit), whatever the number queued.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import Callable, Sequence

from actions.alerts.models import DeliveryStatus
from actions.alerts.notifier_settings import NotifierSettings
from actions.alerts.outbox_steps import Claimed, Outbox
from actions.alerts.rasa_client import RasaApi
from actions.cases import webhook_sender
from actions.settings import SettingsError
from bot.alert_rates import alert_rate

logger = logging.getLogger(__name__)


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
    except SettingsError as error:
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


__all__ = ["Notifier", "serve"]
