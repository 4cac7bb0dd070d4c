"""What the providers say became of an alert or a caseworker's reply after they took it.

WhatsApp's webhook ``statuses`` and Twilio's ``StatusCallback`` name a message by the id the
provider gave it when it was sent; the delivery log stored that id on the outbox row
(``deliveries.py``). Here each status is written on its row — its status, its error code, its
time — and nothing else: never the recipient's number, which both carry. What a permanent
failure means for the person (their subscriptions end, their caseworker is told) is the
notifier's to decide (``actions/alerts/outbox_steps.py`` ``Outbox.reconcile``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import select, update
from sqlalchemy.engine import Engine

from bot import delivery_statuses
from bot.channels.deliveries import OUTBOXES

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProviderStatus:
    """One status a provider reported for one of our messages."""

    message_id: str
    #: In our words (``delivery_statuses.ours``): sent, delivered, read or failed.
    status: str
    #: The provider's error code of a failure ("131026", "21610"), else None.
    error: str | None = None
    at: datetime | None = None


def provider_status(
    message_id: object, status: object, error: object = None, at: object = None
) -> ProviderStatus | None:
    """A status as a provider posted it, or None when it names no message or says nothing we
    record (``queued``, ``accepted``)."""
    ours = delivery_statuses.ours(status if isinstance(status, str) else None)
    if not isinstance(message_id, str) or not message_id.strip() or ours is None:
        return None
    code = str(error).strip()[:16] if error not in (None, "") else None
    return ProviderStatus(message_id.strip()[:128], ours, code, unix_time(at))


def unix_time(value: object) -> datetime | None:
    """A provider's Unix timestamp (a string for Meta) as UTC, or None."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**33:
        return datetime.fromtimestamp(value, timezone.utc)
    return None


class StatusLog:
    """Writes providers' statuses on the outbox rows in the content database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def record(self, statuses: Iterable[ProviderStatus]) -> int:
        """How many rows took a status; a status older than what a row knows is kept out."""
        recorded = 0
        with self.engine.begin() as connection:
            for status in statuses:
                for table in OUTBOXES.values():
                    row = connection.execute(
                        select(table.c.id, table.c.provider_status).where(
                            table.c.provider_message_id == status.message_id
                        )
                    ).first()
                    if row is None or not delivery_statuses.later_than(status.status, row[1]):
                        continue
                    connection.execute(
                        update(table)
                        .where(table.c.id == row[0])
                        .values(
                            provider_status=status.status,
                            provider_error=status.error,
                            status_at=status.at or datetime.now(timezone.utc),
                        )
                    )
                    recorded += 1
        return recorded

    async def take(self, channel: str, statuses: list[ProviderStatus]) -> None:
        """Records ``statuses`` off the event loop; a database that is down costs a log line,
        never the provider's request (it would retry it for days)."""
        if not statuses:
            return
        try:
            recorded = await asyncio.to_thread(self.record, statuses)
        except Exception as error:
            logger.error(
                "%s: %d delivery status(es) not recorded (%s)",
                channel,
                len(statuses),
                type(error).__name__,
            )
            return
        failed = sum(1 for status in statuses if status.status == delivery_statuses.FAILED)
        logger.info(
            "%s: %d delivery status(es), %d recorded, %d failed",
            channel,
            len(statuses),
            recorded,
            failed,
        )
