"""What the alert system keeps: who wants which alerts, each alert to send, and where to send it.

Kept to the minimum an alert needs, because a seized server must not become a list of people:

* :class:`Subscription` and :class:`Delivery` name a conversation only by its keyed hash
  (``conversation_id``), never by a phone number or chat id.
* :class:`StoredAddress` is the one place a real address exists, sealed with AES-256-GCM by the
  bot runtime (``bot/channels/addresses.py``), with a key that is never in this database. The
  content runtime can see that an address exists, extend its expiry and delete it, not read it.
* Everything expires: subscriptions and addresses after ``ALERT_SUBSCRIPTION_TTL`` (renewed on
  subscribing again), deliveries are purged with conversations (``actions/notifier/retention.py``).

:class:`Broadcast` + :class:`Delivery` are the outbox: written in the editor's transaction, so a
published change and its alerts are committed together, and sent by the notifier, which can
crash and restart without sending anything twice (``actions/notifier/loop.py``).
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from actions.content.columns import Base, UTCDateTime, choice
from actions.content.outgoing import CHANNEL as CHANNEL
from actions.content.outgoing import CONVERSATION_ID as CONVERSATION_ID
from actions.content.outgoing import FINAL_STATUSES as FINAL_STATUSES
from actions.content.outgoing import DeliveryStatus as DeliveryStatus
from actions.content.outgoing import Sending as Sending
from kernel.contentdb import tables

#: An airport code, "*" for "every destination", or (claims) the start of a claim's slug.
TOPIC_KEY = String(16)
EVERYWHERE = "*"


class Topic(str, enum.Enum):
    """What a subscriber wants to hear about."""

    AIRPORT = "airport"  # the status or a gate of an airport changes (key: its IATA code)
    FLIGHTS = "flights"  # a flight to a destination is added or changes (key: IATA code or *)
    ANNOUNCEMENTS = "announcements"  # a new official announcement (key: *)
    #: Not subscribed to: the verdict on a rumour, for those who asked about it and wanted to be
    #: told (``actions/claims/askers.py``; key: the claim's slug, cut to 16 characters).
    CLAIMS = "claims"
    #: Not subscribed to either: an editor's answer to a question someone asked when there was
    #: none, for those who wanted to be told (key: the answer's slug, cut to 16 characters).
    ANSWERS = "answers"


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

    __table__ = tables.alert_addresses

    conversation_id: Mapped[str]
    channel: Mapped[str]
    #: Which key sealed it (a hash of the key, not the key), for rotation.
    key_id: Mapped[str]
    sealed: Mapped[str]
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]


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


class Delivery(Sending, Base):
    """One alert to one subscriber, with where it stands.

    The bot runtime's alert channel (``bot/channels/deliveries.py``) sets ``rendered_at`` just
    before it hands the alert to the provider, and only if nobody did before, so a delivery
    triggered twice goes out once; it sets ``delivered_at`` when the provider took it, or clears
    ``rendered_at`` again when the provider refused. Both happen even if the notifier that asked
    has died meanwhile (the send is shielded from the request's cancellation).
    """

    __table__ = tables.alert_deliveries

    id: Mapped[int]
    broadcast_id: Mapped[int]
    conversation_id: Mapped[str]
    channel: Mapped[str]
    status: Mapped[DeliveryStatus]
