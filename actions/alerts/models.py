"""What the alert system keeps: who wants which alerts, each alert to send, and where to send it.

Kept to the minimum an alert needs, because a seized server must not become a list of people:

* :class:`Subscription` and :class:`Delivery` name a conversation only by its keyed hash
  (``conversation_id``), never by a phone number or chat id.
* :class:`StoredAddress` is the one place a real address exists, sealed with AES-256-GCM by the
  bot runtime (``bot/channels/addresses.py``), with a key that is never in this database. The
  content runtime can see that an address exists, extend its expiry and delete it, not read it.
* Everything expires: subscriptions and addresses after ``ALERT_SUBSCRIPTION_TTL`` (renewed on
  subscribing again), deliveries are purged with conversations (``actions/alerts/retention.py``).

:class:`Broadcast` + :class:`Delivery` are the outbox: written in the editor's transaction, so a
published change and its alerts are committed together, and sent by the notifier, which can
crash and restart without sending anything twice (``actions/alerts/notifier.py``).
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from actions.content.columns import Base, UTCDateTime, choice

#: A conversation id: "<channel>-<40 hex digits>" (bot/channels/identity.py).
CONVERSATION_ID = String(64)
CHANNEL = String(32)
#: An airport code, or "*" for "every destination".
TOPIC_KEY = String(16)
EVERYWHERE = "*"


class Topic(str, enum.Enum):
    """What a subscriber wants to hear about."""

    AIRPORT = "airport"  # the status or a gate of an airport changes (key: its IATA code)
    FLIGHTS = "flights"  # a flight to a destination is added or changes (key: IATA code or *)
    ANNOUNCEMENTS = "announcements"  # a new official announcement (key: *)


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


class Subscription(Base):
    """One conversation wants alerts on one topic, in its language, until ``expires_at``."""

    __tablename__ = "alert_subscriptions"
    __table_args__ = (
        UniqueConstraint("conversation_id", "topic", "topic_key"),
        Index(None, "topic", "topic_key"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    conversation_id: Mapped[str] = mapped_column(CONVERSATION_ID, index=True)
    channel: Mapped[str] = mapped_column(CHANNEL)
    topic: Mapped[Topic] = mapped_column(choice(Topic, "topic"))
    topic_key: Mapped[str] = mapped_column(TOPIC_KEY)
    language: Mapped[str] = mapped_column(String(3))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class StoredAddress(Base):
    """A subscriber's channel address, sealed by the bot runtime (never readable here)."""

    __tablename__ = "alert_addresses"

    conversation_id: Mapped[str] = mapped_column(CONVERSATION_ID, primary_key=True)
    channel: Mapped[str] = mapped_column(CHANNEL)
    #: Which key sealed it (a hash of the key, not the key), for rotation.
    key_id: Mapped[str] = mapped_column(String(16))
    sealed: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class Broadcast(Base):
    """One published change that matters to a topic: the alert every subscriber gets."""

    __tablename__ = "alert_broadcasts"
    __table_args__ = (Index(None, "topic", "topic_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    revision_id: Mapped[int] = mapped_column(ForeignKey("revisions.id"), index=True)
    topic: Mapped[Topic] = mapped_column(choice(Topic, "topic"))
    topic_key: Mapped[str] = mapped_column(TOPIC_KEY)
    editor: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


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


class Delivery(Sending, Base):
    """One alert to one subscriber, with where it stands.

    The bot runtime's alert channel (``bot/channels/deliveries.py``) sets ``rendered_at`` just
    before it hands the alert to the provider, and only if nobody did before, so a delivery
    triggered twice goes out once; it sets ``delivered_at`` when the provider took it, or clears
    ``rendered_at`` again when the provider refused. Both happen even if the notifier that asked
    has died meanwhile (the send is shielded from the request's cancellation).
    """

    __tablename__ = "alert_deliveries"
    __table_args__ = (
        UniqueConstraint("broadcast_id", "conversation_id"),
        Index(None, "status", "channel", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    broadcast_id: Mapped[int] = mapped_column(ForeignKey("alert_broadcasts.id"))
    conversation_id: Mapped[str] = mapped_column(CONVERSATION_ID, index=True)
    channel: Mapped[str] = mapped_column(CHANNEL)
    status: Mapped[DeliveryStatus] = mapped_column(choice(DeliveryStatus, "status"))
