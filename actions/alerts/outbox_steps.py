"""The alerts' outbox for the notifier: ``alert_deliveries``, re-checked against the person's
subscriptions (for a rumour's verdict, their ask) and stored address right before each goes out.

The steps and their exactly-once guarantees are the kernel's (``actions/common/outbox.py``);
what is the alerts' own is the table, the intent that delivers a row, why a row must not go
out after all and, when the person's provider refused them for good, that their subscriptions
end as a typed STOP ends them (``unreachable.py``).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from actions.alerts import unreachable
from actions.alerts.models import Broadcast, Delivery, StoredAddress, Topic
from actions.alerts.subscriptions import still_wanted
from actions.common.outbox import DeliveryStatus, Outbox
from actions.content.asks import Ask
from actions.content.db import session_scope
from actions.content.models import Revision
from kernel.contract import ALERT_CHANNELS, ALERT_DELIVERY, ALERT_INTENT

NO_ADDRESS = "no stored address"


class AlertOutbox(Outbox):
    """Alerts (``alert_deliveries``): one per subscriber of a published change."""

    model = Delivery
    intent = ALERT_INTENT
    entity = ALERT_DELIVERY
    kind = "alert"
    channels = ALERT_CHANNELS

    def unit_of_work(self) -> AbstractContextManager[Session]:
        return session_scope()

    def unsendable(
        self, session: Session, row: Any, now: datetime
    ) -> tuple[DeliveryStatus, str | None] | None:
        """Opted out since: cancelled; no address left: failed."""
        broadcast = session.get(Broadcast, row.broadcast_id)
        assert broadcast is not None
        if broadcast.topic in (Topic.CLAIMS, Topic.ANSWERS):
            # Those who asked about a rumour or a question subscribe to nothing: their ask
            # holds the wish.
            wanted = still_asked(session, row.conversation_id, broadcast)
        else:
            wanted = still_wanted(
                session, row.conversation_id, broadcast.topic, broadcast.topic_key, now
            )
        if not wanted:
            return DeliveryStatus.CANCELLED, None
        if not has_address(session, row.conversation_id, now):
            return DeliveryStatus.FAILED, NO_ADDRESS
        return None

    def stop_reaching(self, session: Session, conversation_id: str, now: datetime) -> None:
        unreachable.stop_reaching(session, conversation_id, now)


def still_asked(session: Session, conversation_id: str, broadcast: Broadcast) -> bool:
    """Whether the conversation still wants the verdict or answer the broadcast tells: not
    after STOP (the wish is cleared), "delete my data" (the ask is deleted) or ``answer_by``
    (retention clears the wish), as ``action_send_alert`` checks again when it writes it."""
    record_id = select(Revision.record_id).where(Revision.id == broadcast.revision_id)
    asked = Ask.claim_id if broadcast.topic is Topic.CLAIMS else Ask.answer_id
    found = session.scalar(
        select(Ask.id)
        .where(
            Ask.conversation_id == conversation_id,
            asked == record_id.scalar_subquery(),
            Ask.wants_answer.is_(True),
        )
        .limit(1)
    )
    return found is not None


def has_address(session: Session, conversation_id: str, now: datetime) -> bool:
    """Whether a sealed address for the conversation is stored and not expired."""
    expires_at = session.scalar(
        select(StoredAddress.expires_at).where(StoredAddress.conversation_id == conversation_id)
    )
    return expires_at is not None and expires_at > now
