"""Where a message on its way to a person stands: the columns an alert's ``Delivery``
(``actions/alerts/models.py``) and a caseworker's ``CaseReply`` (``actions/cases/models.py``)
share, and the states both go through. Here, at the bottom, so that cases and the question log
(which content's models gather) need nothing from the alert system."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from actions.content.columns import UTCDateTime

#: A conversation id: "<channel>-<40 hex digits>" (bot/channels/identity.py).
CONVERSATION_ID = String(64)
CHANNEL = String(32)


class DeliveryStatus(str, enum.Enum):
    QUEUED = "queued"  # waiting for its turn (or for a retry after ``next_attempt_at``)
    SENDING = "sending"  # claimed by a notifier, handed to Rasa
    SENT = "sent"  # Rasa's channel handed it to the provider
    FAILED = "failed"  # given up: no address any more, or every retry failed
    CANCELLED = "cancelled"  # the subscriber opted out before it went out
    SUPERSEDED = "superseded"  # a newer change to the same thing went out instead


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
    """Where one message on its way through the notifier stands (``actions/alerts/notifier.py``
    reads and writes these columns; an alert's ``Delivery`` and a caseworker's ``CaseReply``
    share them, each with its own ``status``)."""

    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    rendered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Why it failed or is being retried, e.g. "HTTP 429 (retry after 3 s)"; never an address.
    last_error: Mapped[str | None] = mapped_column(String(200))
    #: The id the provider gave the (first) message, which its delivery statuses name
    #: (a WhatsApp ``wamid.``, a Twilio ``SM…``): written by Rasa's channel when it sent it.
    provider_message_id: Mapped[str | None] = mapped_column(String(128), index=True)
    #: What the provider said became of it afterwards (``bot/delivery_statuses.py``): sent,
    #: delivered, read or failed, with the provider's error code ("131026") and when.
    provider_status: Mapped[str | None] = mapped_column(String(16))
    provider_error: Mapped[str | None] = mapped_column(String(16))
    status_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
