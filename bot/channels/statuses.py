"""What the providers say became of an alert or a caseworker's reply after they took it.

WhatsApp's webhook ``statuses`` and Twilio's ``StatusCallback`` name a message by the id the
provider gave it when it was sent, Kannel's delivery reports by the one the channel gave it in
its ``dlr-url``; the delivery log stored that id on the outbox row, and those of the further
parts of a long message in ``provider_messages`` (``deliveries.py``). Here each
status is written on its row — its status, its error code, its time; for a message sent in
parts, the furthest any part got, so a part that failed fails the whole — and nothing else:
never the recipient's number, which both carry. What a permanent
failure means for the person (their subscriptions end, their caseworker is told) is the
notifier's to decide (``actions/alerts/outbox_steps.py`` ``Outbox.reconcile``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import Table, select, update
from sqlalchemy.engine import Connection, Engine, Row

from bot.channels.deliveries import OUTBOXES, PARTS
from kernel import delivery_statuses
from kernel.contentdb.tables import provider_messages

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


def _row_of(connection: Connection, table: Table, message_id: str) -> Row[Any] | None:
    """(id, provider_status) of the row in ``table`` whose message — its first, or a further
    part of a long one (``provider_messages``) — the provider named ``message_id``."""
    columns = (table.c.id, table.c.provider_status)
    found = connection.execute(
        select(*columns).where(table.c.provider_message_id == message_id)
    ).first()
    if found is not None:
        return found
    part = PARTS[table.name]
    return connection.execute(
        select(*columns)
        .join(provider_messages, part == table.c.id)
        .where(provider_messages.c.message_id == message_id)
    ).first()


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
                    row = _row_of(connection, table, status.message_id)
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
