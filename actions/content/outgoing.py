"""Where a message on its way to a person stands: the columns an alert's ``Delivery``
(``actions/alerts/models.py``) and a caseworker's ``CaseReply`` (``actions/cases/models.py``)
share, and the states both go through. Here, at the bottom, so that cases and the question log
need nothing from the alert system; the outbox kernel (``actions/common/outbox.py``) moves a
row through them. The columns and the statuses themselves are the content
database's (``kernel/contentdb``), which the bot runtime's alert channel writes too."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Mapped

from actions.content.columns import Base
from kernel.contentdb import tables
from kernel.contentdb.statuses import DeliveryStatus
from kernel.contentdb.tables import CHANNEL, CONVERSATION_ID

__all__ = [
    "CHANNEL",
    "CONVERSATION_ID",
    "FINAL_STATUSES",
    "DeliveryStatus",
    "ProviderMessage",
    "Sending",
]

#: Statuses a delivery never leaves.
FINAL_STATUSES = frozenset(
    {
        DeliveryStatus.SENT,
        DeliveryStatus.FAILED,
        DeliveryStatus.CANCELLED,
        DeliveryStatus.SUPERSEDED,
    }
)


class Sending:
    """Where one message on its way through the notifier stands (``actions/common/outbox.py``
    reads and writes these columns; an alert's ``Delivery`` and a caseworker's ``CaseReply``
    share them, each with its own ``status``). Typing only: each model's table has them."""

    attempts: Mapped[int]
    next_attempt_at: Mapped[datetime]
    claimed_at: Mapped[datetime | None]
    rendered_at: Mapped[datetime | None]
    delivered_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    #: Why it failed or is being retried, e.g. "HTTP 429 (retry after 3 s)"; never an address.
    last_error: Mapped[str | None]
    provider_message_id: Mapped[str | None]
    provider_status: Mapped[str | None]
    provider_error: Mapped[str | None]
    status_at: Mapped[datetime | None]


class ProviderMessage(Base):
    """A further message of an alert or a reply the provider took as several: its id, and the
    row it belongs to (one of the two). Rasa's channel writes it; the database deletes it with
    its row."""

    __table__ = tables.provider_messages

    message_id: Mapped[str]
    alert_delivery_id: Mapped[int | None]
    case_reply_id: Mapped[int | None]
