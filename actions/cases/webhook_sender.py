"""Posts queued case events to the helpdesk: signed, in order per case, at least once.

Run by the notifier (``python -m actions.alerts serve``) when ``CASE_WEBHOOK_URL`` is set; its
settings are the notifier's (``actions/alerts/notifier_settings.py``), read once at its start.

* **Signed** like the providers' webhooks we check ourselves: ``X-Timestamp`` (Unix seconds of
  this attempt) and ``X-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`` with
  ``CASE_WEBHOOK_SECRET``; the receiver verifies both and rejects old timestamps
  (docs/HANDOFF.md has a receiver's code).
* **In order per case**: an event is claimed only when no earlier event of its case is still
  queued or being sent; different cases go out side by side.
* **At least once**: an event is ``sent`` only after the helpdesk answered 2xx. Anything else
  (5xx, a timeout, a refused connection, a redirect) is retried with the same ``event_id`` after
  5 s, 10 s, 20 s … at most 15 min apart, ``CASE_WEBHOOK_MAX_ATTEMPTS`` times (20: about three
  hours), then ``failed`` so that the case's later events go on. A notifier that died while
  posting leaves ``sending`` rows, taken back after a minute: the helpdesk may then get an event
  twice, and de-duplicates on its ``event_id``.

The lease, its recovery and the backoff are the alerts' rules too (``actions/common/leases.py``).
The rest differs from the alerts' outbox because the receiver does: events go in order per case
(alerts: one a second per conversation, in any order), a helpdesk is one HTTP endpoint with no
channel claiming a row again before sending (so at least once, de-duplicated by the receiver,
where Rasa's channel makes alerts exactly once), and nothing is re-checked before posting (an
event is history; an alert is cancelled when the person opted out).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import aiohttp
from sqlalchemy import exists, func, select, update
from sqlalchemy.orm import Session, aliased

from actions.alerts.notifier_settings import WebhookSettings
from actions.cases.models import CaseEvent, EventStatus
from actions.common import leases
from actions.common.clock import utc_now
from actions.content.db import session_scope
from kernel import case_events

logger = logging.getLogger(__name__)

USER_AGENT = "evacuee-assistant-case-events/1"
UNSETTLED = (EventStatus.QUEUED, EventStatus.SENDING)


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """``sha256=<hex>`` of ``"<timestamp>.<body>"``: the timestamp is signed with the body, so
    a captured request cannot be replayed later under a new time."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return f"sha256={digest.hexdigest()}"


@dataclass(frozen=True)
class Claimed:
    id: int
    event_id: str
    event_type: str
    case_id: int | None
    payload: str


def progress(session: Session) -> str | None:
    """How the helpdesk's events stand, for ``python -m actions.alerts status``: "2 queued,
    40 sent, 1 failed (last failure: HTTP 503)"; None when there are none."""
    rows = session.execute(select(CaseEvent.status, func.count()).group_by(CaseEvent.status))
    counts: dict[EventStatus, int] = {EventStatus(status): count for status, count in rows}
    if not counts:
        return None
    shown = ", ".join(f"{counts[s]} {s.value}" for s in EventStatus if counts.get(s))
    failure = session.scalar(
        select(CaseEvent.last_error)
        .where(CaseEvent.last_error.is_not(None))
        .order_by(CaseEvent.id.desc())
        .limit(1)
    )
    return shown + (f" (last failure: {failure})" if failure else "")


class EventOutbox:
    """The sender's database steps, each one short transaction (run in a worker thread)."""

    def __init__(self, settings: WebhookSettings, clock: Callable[[], datetime] = utc_now):
        self.settings = settings
        self.retries = leases.Retries.of(settings)
        self.clock = clock

    def recover(self) -> int:
        """Queues again what a stopped notifier left in ``sending`` past the lease."""
        now = self.clock()
        with session_scope() as session:
            result = session.execute(
                update(CaseEvent)
                .where(self.retries.lease_ended(CaseEvent, EventStatus.SENDING, now))
                .values(status=EventStatus.QUEUED, next_attempt_at=now)
            )
        count = int(getattr(result, "rowcount", 0) or 0)
        if count:
            logger.info("recovered %d case event(s) a stopped notifier had claimed", count)
        return count

    def claim(self) -> list[Claimed]:
        """Due events whose case has nothing earlier still unsent, oldest first: at most one
        per case (the earlier one blocks the next), ``batch`` in all."""
        now = self.clock()
        earlier = aliased(CaseEvent)
        waits_for_earlier = exists().where(
            earlier.case_id == CaseEvent.case_id,
            earlier.id < CaseEvent.id,
            earlier.status.in_(UNSETTLED),
        )
        due = leases.due(
            CaseEvent, EventStatus.QUEUED, now, ~waits_for_earlier, limit=self.settings.batch
        )
        with session_scope() as session:
            events = list(session.scalars(due))
            leases.claim(events, EventStatus.SENDING, now)
            for event in events:  # no re-check before posting: the attempt counts from here
                event.attempts += 1
            return [Claimed(e.id, e.event_id, e.event_type, e.case_id, e.payload) for e in events]

    def settle(self, claimed: Claimed, error: str | None) -> EventStatus | None:
        """Sent, queued again after a backoff, or failed; None when the case was deleted
        meanwhile (the person asked, or its retention ended)."""
        now = self.clock()
        with session_scope() as session:
            event = session.get(CaseEvent, claimed.id)
            if event is None:
                return None
            if error is None:
                if event.case_id is None:  # a case.deleted: nothing of the case is kept
                    session.delete(event)
                    return EventStatus.SENT
                event.status, event.sent_at, event.last_error = EventStatus.SENT, now, None
                return event.status
            leases.note_error(event, error)
            later = self.retries.next_attempt(event.attempts, now)
            if later is None:
                event.status = EventStatus.FAILED
                return event.status
            event.status, event.next_attempt_at = EventStatus.QUEUED, later
            return event.status


class Helpdesk:
    """The receiver at ``CASE_WEBHOOK_URL``: one session for the process, signed POSTs."""

    def __init__(self, settings: WebhookSettings, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self._clock = clock
        self._session: aiohttp.ClientSession | None = None

    def headers(self, claimed: Claimed, body: bytes) -> dict[str, str]:
        timestamp = str(int(self._clock()))
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": USER_AGENT,
            "X-Event-Id": claimed.event_id,
            "X-Event-Type": claimed.event_type,
            "X-Timestamp": timestamp,
        }
        if self.settings.secret:
            headers["X-Signature"] = signature(self.settings.secret, timestamp, body)
        return headers

    async def post(self, claimed: Claimed) -> str | None:
        """None when the helpdesk took it (2xx), else a short reason (never the payload)."""
        if self._session is None:
            timeout = aiohttp.ClientTimeout(total=self.settings.timeout_seconds)
            self._session = aiohttp.ClientSession(timeout=timeout)
        body = claimed.payload.encode()
        try:
            async with self._session.post(
                self.settings.url,
                data=body,
                headers=self.headers(claimed, body),
                allow_redirects=False,
            ) as response:
                await response.content.read(4096)  # what it says does not matter, only the status
                if 200 <= response.status < 300:
                    return None
                return f"HTTP {response.status}"
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            return f"unreachable ({type(error).__name__})"

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


class CaseWebhookSender:
    """The notifier's job for case events: claim what is due, post it, settle it, repeat."""

    def __init__(
        self,
        settings: WebhookSettings,
        outbox: EventOutbox | None = None,
        helpdesk: Helpdesk | None = None,
    ) -> None:
        self.settings = settings
        self.outbox = outbox or EventOutbox(settings)
        self.helpdesk = helpdesk or Helpdesk(settings)
        self._stopping = asyncio.Event()
        self.sent = 0

    def stop(self) -> None:
        self._stopping.set()

    async def run(self) -> None:
        """Until :meth:`stop`; a database that is down is waited for, never the end."""
        if not self.settings.secret:
            logger.warning(
                "%s is not set: case events go to the helpdesk unsigned", case_events.SECRET_ENV
            )
        logger.info("case events go to the helpdesk configured in %s", case_events.URL_ENV)
        next_recovery = 0.0
        failures = 0
        try:
            while not self._stopping.is_set():
                try:
                    if time.monotonic() >= next_recovery:
                        await asyncio.to_thread(self.outbox.recover)
                        next_recovery = time.monotonic() + self.settings.claim_lease_seconds / 2
                    posted = await self.send_due()
                    failures = 0
                except Exception as error:
                    failures += 1
                    logger.error(
                        "case events: cannot use the content database (%s); retrying",
                        type(error).__name__,
                        exc_info=failures == 1,
                    )
                    posted = 0
                if not posted:
                    pause = self.settings.poll_seconds * (2 ** min(failures, 6))
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(self._stopping.wait(), timeout=pause)
        finally:
            await self.helpdesk.close()

    async def send_due(self) -> int:
        """Posts one batch of due events side by side; returns how many were claimed."""
        batch = await asyncio.to_thread(self.outbox.claim)
        await asyncio.gather(*(self._send(claimed) for claimed in batch))
        return len(batch)

    async def _send(self, claimed: Claimed) -> None:
        error = await self.helpdesk.post(claimed)
        status = await asyncio.to_thread(self.outbox.settle, claimed, error)
        if status is EventStatus.SENT:
            self.sent += 1
        elif error is not None:
            logger.warning(
                "case %d event %s (%s): %s -> %s",
                claimed.case_id,
                claimed.event_id,
                claimed.event_type,
                error,
                "deleted" if status is None else status.value,
            )
