"""The notifier: sends queued alerts and caseworkers' replies through Rasa's HTTP API, at each
channel's pace, exactly once; and, with ``CASE_WEBHOOK_URL``, the helpdesk's case events.

``python -m actions.alerts serve`` (``actions/notifier/commands.py``, started by ``make run``).
Its parts: the settings (``actions/alerts/notifier_settings.py``), the database steps and their
guarantees (``actions/common/outbox.py``, with ``leases.py``; the alerts' own in
``actions/alerts/outbox_steps.py``), the calls of Rasa's HTTP API
(``actions/common/rasa_api.py``), the retention job (``retention.py``) and this loop.
Caseworkers' replies are an outbox of the same shape (``actions/cases/courier.py``); the
helpdesk's events have their own sender (``actions/cases/webhook_sender.py``).

Rates: per channel a pacer (``ALERT_RATE_<CHANNEL>`` messages per second: Telegram 25,
WhatsApp 70 — headroom below the providers' 30 and 80 — SMS 10, Kannel 3 by default;
``kernel/alert_rates.py``, ``kernel/pacing.py``) shared by the alerts and the replies, and at most
one message per conversation per second (Telegram's per-chat limit), whatever the number queued.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import Sequence

from prometheus_client import Counter

from actions import settings
from actions.alerts.notifier_settings import NotifierSettings, WebhookSettings
from actions.alerts.outbox_steps import AlertOutbox
from actions.cases import webhook_sender
from actions.common.metrics_http import serve_metrics
from actions.common.outbox import Claimed, DeliveryStatus, Outbox
from actions.common.rasa_api import RasaApi
from actions.content.db import session_scope
from actions.notifier import retention
from actions.settings import SettingsError
from kernel.metrics import name
from kernel.pacing import Pacer
from kernel.settings import alert_rate

logger = logging.getLogger(__name__)

#: For ``/metrics``: what became of each message handed to Rasa.
SENDS = Counter(
    name("notifier_sends"),
    "Alerts (kind alert) and caseworkers' replies (kind case_reply) the notifier handed to "
    "Rasa, by channel and outcome: sent, retry (queued again), failed (for good), pending "
    "(Rasa still holds it), cancelled, superseded, error (not recorded)",
    ["kind", "channel", "outcome"],
)
#: A delivery's status after ``settle``, as the outcome of one send.
OUTCOMES = {DeliveryStatus.QUEUED: "retry", DeliveryStatus.SENDING: "pending"}


def count_send(outbox: Outbox, channel: str, status: DeliveryStatus | None) -> None:
    """One more send of ``outbox``'s kind on ``channel``; ``status`` None: not recorded."""
    outcome = "error" if status is None else OUTCOMES.get(status, status.value)
    SENDS.labels(outbox.kind.replace(" ", "_"), channel, outcome).inc()


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
        self.outbox = outbox or AlertOutbox(self.settings)
        self.outboxes = [self.outbox, *(kind(self.settings, self.outbox.clock) for kind in more)]
        self.rasa = rasa or RasaApi(self.settings.rasa, self.settings.request_timeout_seconds)
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
            self.settings.rasa.url,
            ", ".join(f"{c} {r:g}/s" for c, r in self.settings.rates.items()),
        )
        # One pacer per channel for every outbox: the provider's rate counts all our messages.
        wanted = {channel for outbox in self.outboxes for channel in outbox.channels}
        pacers = {
            channel: Pacer(self.settings.rates.get(channel) or alert_rate(channel))
            for channel in sorted(wanted)
        }
        channels = [
            asyncio.create_task(self._channel(outbox, channel, pacers[channel]))
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
                    await asyncio.to_thread(outbox.reconcile)
                if time.monotonic() >= next_purge:
                    await asyncio.to_thread(self.purge)
                    next_purge = time.monotonic() + self.settings.purge_every_seconds
            except Exception:  # the database may be down: try again later, never stop
                logger.error("notifier housekeeping failed", exc_info=True)
            await asyncio.sleep(max(1.0, self.settings.claim_lease_seconds / 2))

    def purge(self) -> retention.Purged:
        """What is past its retention period goes (``retention.py``), on the alerts' clock."""
        with session_scope() as session:
            return retention.purge(
                session,
                self.outbox.clock(),
                settings.conversation_retention(),
                settings.closed_case_retention(),
            )

    async def _channel(self, outbox: Outbox, channel: str, pacer: Pacer) -> None:
        failures = 0  # in a row: the database is down; wait longer, log the traceback once
        # At most a second's worth claimed and not yet sent: a claim left waiting for the
        # pacer longer than the lease would be taken back and claimed a second time.
        per_second = max(1, int(pacer.rate))
        unsent: set[asyncio.Task[None]] = set()
        while True:
            if len(unsent) >= per_second:
                await asyncio.wait(unsent, return_when=asyncio.FIRST_COMPLETED)
                continue
            try:
                batch = await asyncio.to_thread(outbox.claim, channel, per_second - len(unsent))
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
                task = asyncio.create_task(self._send(outbox, claimed, pacer))
                self._in_flight.add(task)
                unsent.add(task)
                task.add_done_callback(self._in_flight.discard)
                task.add_done_callback(unsent.discard)

    async def _send(self, outbox: Outbox, claimed: Claimed, pacer: Pacer) -> None:
        triggered = False
        try:
            await pacer.wait()  # just before the request: the pace is what Rasa sees
            if not await asyncio.to_thread(outbox.still_to_send, claimed):
                return
            triggered = True
            outcome = await self.rasa.trigger(
                claimed.conversation_id,
                outbox.intent,
                {outbox.entity: str(claimed.id)},
                channel=claimed.channel,
            )
            status = await asyncio.to_thread(outbox.settle, claimed, outcome)
            count_send(outbox, claimed.channel, status)
            if status is DeliveryStatus.SENT:
                self.sent += 1
            elif outcome.error:
                logger.warning(
                    "%s %s: %s -> %s", outbox.kind, claimed.id, outcome.error, status.value
                )
        except Exception:
            # Left in ``sending``: the lease brings it back. Logged without any address.
            logger.error("%s %s could not be settled", outbox.kind, claimed.id, exc_info=True)
            if triggered:
                count_send(outbox, claimed.channel, None)
        finally:
            self._slots.release()


def helpdesk_job() -> webhook_sender.CaseWebhookSender | None:
    """The helpdesk's case events, when ``CASE_WEBHOOK_URL`` is set. A malformed setting is
    logged and leaves them out: alerts to people matter more than a helpdesk's tickets."""
    try:
        webhook = WebhookSettings.from_env()
    except SettingsError as error:
        logger.error("case events are not sent to a helpdesk: %s", error)
        return None
    return None if webhook is None else webhook_sender.CaseWebhookSender(webhook)


def serve(settings_: NotifierSettings | None = None, more: Sequence[type[Outbox]] = ()) -> None:
    """``python -m actions.alerts serve``: run until SIGTERM or Ctrl-C; ``more`` outboxes beside
    the alerts (caseworkers' replies), with ``CASE_WEBHOOK_URL`` the helpdesk's case events
    (``actions/cases/webhook_sender.py``), and with ``METRICS_TOKEN`` ``/metrics`` on
    ``NOTIFIER_METRICS_HOST:NOTIFIER_METRICS_PORT`` (127.0.0.1:5057)."""
    notifier = Notifier(settings_, more=more)
    jobs = [job for job in (notifier, helpdesk_job()) if job is not None]
    chosen = notifier.settings

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):  # one handler per signal: stop them all
            loop.add_signal_handler(sig, lambda: [job.stop() for job in jobs])
        metrics = await serve_metrics(
            chosen.metrics_host, chosen.metrics_port, chosen.metrics_token
        )
        try:
            await asyncio.gather(*(job.run() for job in jobs))
        finally:
            if metrics is not None:
                await metrics.cleanup()

    asyncio.run(main())


__all__ = ["Notifier", "serve"]
