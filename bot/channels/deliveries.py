"""Each alert goes out once: the bot runtime's side of the outbox (``actions/common/outbox.py``).

``action_send_alert`` writes an alert and tags it with its delivery id (custom payload
``{"alert_delivery": <id>}``); ``action_send_case_reply`` tags a caseworker's reply the same
way (``{"case_reply": <id>}``, table ``case_replies``). The alert channel then, in the content
database:

1. **claims** the delivery (``rendered_at`` set only if nobody set it: a second trigger of the
   same delivery sends nothing),
2. hands the alert to the provider, and
3. records ``delivered_at`` and the ids the provider gave its messages (the first on the row,
   those of the further parts of a long one in ``provider_messages``), which its later
   delivery statuses name (``bot/channels/statuses.py``) — or, when the provider refused,
   releases the claim so that the notifier's retry can send it.

All three run shielded from cancellation: Sanic cancels a request whose client went away (a
notifier killed mid-broadcast), and an alert half sent and never recorded would be lost or,
after the notifier's restart, sent twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timezone

from sqlalchemy import Column, Table, delete, insert, update
from sqlalchemy.engine import Connection, Engine

from bot.channels.transport import SENT_MESSAGE_IDS
from kernel.contentdb.statuses import DeliveryStatus
from kernel.contentdb.tables import alert_deliveries, case_replies, provider_messages
from kernel.contract import ALERT_DELIVERY, CASE_REPLY

logger = logging.getLogger(__name__)

#: Each tag of the contract, and the table whose row it names (``kernel/contentdb/tables.py``).
OUTBOXES: dict[str, Table] = {
    ALERT_DELIVERY: alert_deliveries,
    CASE_REPLY: case_replies,
}
#: The column of ``provider_messages`` that names a row of each outbox.
PARTS: dict[str, Column] = {  # type: ignore[type-arg,unused-ignore]  # generic in 2.0 only
    alert_deliveries.name: provider_messages.c.alert_delivery_id,
    case_replies.name: provider_messages.c.case_reply_id,
}


class DeliveryLog:
    """Claims, confirms and releases deliveries in the content database (in ``table``: the
    alerts' by default, or another of ``OUTBOXES``)."""

    def __init__(
        self,
        engine: Engine,
        clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
        table: Table = alert_deliveries,
    ) -> None:
        self.engine = engine
        self._clock = clock
        self.table = table

    def _claim(self, delivery: int) -> bool:
        table = self.table
        with self.engine.begin() as connection:
            claimed = connection.execute(
                update(table)
                .where(
                    table.c.id == delivery,
                    table.c.status == DeliveryStatus.SENDING,
                    table.c.rendered_at.is_(None),
                )
                .values(rendered_at=self._clock())
            )
        return bool(claimed.rowcount)

    def _settle(self, delivery: int, delivered: bool, message_ids: Sequence[str] = ()) -> None:
        values: dict[str, object] = (
            # A new message: what the provider said of an earlier try is no longer news.
            {
                "delivered_at": self._clock(),
                "provider_message_id": message_ids[0] if message_ids else None,
                "provider_status": None,
                "provider_error": None,
                "status_at": None,
            }
            if delivered
            else {"rendered_at": None}
        )
        with self.engine.begin() as connection:
            connection.execute(
                update(self.table).where(self.table.c.id == delivery).values(**values)
            )
            if delivered:
                self._note_parts(connection, delivery, message_ids[1:])

    def _note_parts(self, connection: Connection, delivery: int, others: Sequence[str]) -> None:
        """The ids of the messages after the first (a long alert split), in place of those of
        an earlier try; an id given twice is kept once."""
        row = PARTS[self.table.name]
        connection.execute(delete(provider_messages).where(row == delivery))
        kept = list(dict.fromkeys(others))
        if kept:
            connection.execute(
                insert(provider_messages),
                [{"message_id": one, row.key: delivery} for one in kept],
            )

    async def send_once(self, delivery: int, send: Callable[[], Awaitable[None]]) -> bool:
        """Run ``send`` if this delivery was not claimed before; False if it was (not sent)."""
        return await asyncio.shield(self._send_once(delivery, send))

    async def _send_once(self, delivery: int, send: Callable[[], Awaitable[None]]) -> bool:
        if not await asyncio.to_thread(self._claim, delivery):
            logger.info("%s %s was sent before: not again", self.table.name, delivery)
            return False
        sent: list[str] = []
        SENT_MESSAGE_IDS.set(sent)  # this shielded task's own context: seen by the provider API
        try:
            await send()
        except BaseException:
            await asyncio.to_thread(self._settle, delivery, False)
            raise
        await asyncio.to_thread(self._settle, delivery, True, sent)
        return True
