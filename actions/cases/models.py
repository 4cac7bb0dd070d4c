"""What a case keeps: whose conversation (by its keyed hash only), its state, and its messages.

A case never holds a phone number or a chat id: the conversation id is the same HMAC the
channels use (bot/channels/identity.py), and a caseworker's reply reaches the person through
Rasa, which alone can unseal an address. Texts are kept no longer than the conversation itself
(``actions/alerts/retention.py`` purges them with it), and so are the events sent to a
helpdesk about the case (:class:`CaseEvent`, deleted with it).
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from actions.content.columns import Base, UTCDateTime, choice
from actions.content.outgoing import CHANNEL, CONVERSATION_ID, DeliveryStatus, Sending

#: A caseworker's sign-in name (the console's editor names are as long).
CASEWORKER = String(64)
LANGUAGE = String(8)


class CaseStatus(str, enum.Enum):
    WAITING = "waiting"  # in the queue, nobody has taken it
    TAKEN = "taken"  # one caseworker holds the conversation
    CLOSED = "closed"  # handed back to the assistant


class Priority(int, enum.Enum):
    NORMAL = 0
    URGENT = 1  # medical, a child, violence (bot/case_urgency.py)


class Author(str, enum.Enum):
    PERSON = "person"
    ASSISTANT = "assistant"  # the assistant's last answers before the case, for context
    CASEWORKER = "caseworker"


class Case(Base):
    """One request for a person, from "talk to a person" until a caseworker closes it."""

    __tablename__ = "cases"
    __table_args__ = (
        Index("ix_cases_status_priority_opened_at", "status", "priority", "opened_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    conversation_id: Mapped[str] = mapped_column(CONVERSATION_ID, index=True)
    channel: Mapped[str] = mapped_column(CHANNEL)
    language: Mapped[str] = mapped_column(LANGUAGE)
    organisation_id: Mapped[int | None] = mapped_column(ForeignKey("organisations.id"))
    status: Mapped[CaseStatus] = mapped_column(choice(CaseStatus, "case_status"))
    priority: Mapped[int] = mapped_column(Integer)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: The last time anything was written to the case; retention counts from here.
    active_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    taken_by: Mapped[str | None] = mapped_column(CASEWORKER)
    taken_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: When the person's channel said they can no longer be reached there (they blocked the
    #: assistant, are not on WhatsApp, texted STOP: ``actions/alerts/unreachable.py``); what
    #: they write afterwards shows they can be again.
    unreachable_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class CaseAudit(Base):
    """Who looked at or changed which case, when: kept as long as the sign-ins themselves, and
    naming no person but the caseworker (the case id is a number)."""

    __tablename__ = "case_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(Integer, index=True)
    caseworker: Mapped[str] = mapped_column(CASEWORKER)
    #: "opened" (the case's page was shown), "took", "replied", "closed".
    action: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class CaseMessage(Base):
    """A line of the case: what the person wrote, what the assistant or the caseworker answered."""

    __tablename__ = "case_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    author: Mapped[Author] = mapped_column(choice(Author, "case_author"))
    text: Mapped[str] = mapped_column(Text)
    written_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CaseReply(Sending, Base):
    """A caseworker's reply on its way to the person: the outbox row of one case line.

    Sent like an alert (``actions/alerts/models.py`` ``Delivery``, the same columns and
    statuses): the notifier's courier claims it and triggers Rasa, whose channel claims it
    again (``rendered_at``) right before the provider and records ``delivered_at``, so a reply
    triggered twice reaches the person once (``bot/channels/deliveries.py``).
    """

    __tablename__ = "case_replies"
    __table_args__ = (Index(None, "status", "channel", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    #: The line of the case this reply is (its text; shown with the reply's status).
    message_id: Mapped[int] = mapped_column(
        ForeignKey("case_messages.id", ondelete="CASCADE"), unique=True
    )
    conversation_id: Mapped[str] = mapped_column(CONVERSATION_ID, index=True)
    channel: Mapped[str] = mapped_column(CHANNEL)
    #: The language the caseworker wrote in (a WhatsApp template names it).
    language: Mapped[str] = mapped_column(LANGUAGE)
    status: Mapped[DeliveryStatus] = mapped_column(choice(DeliveryStatus, "case_reply_status"))


class EventStatus(str, enum.Enum):
    QUEUED = "queued"  # waiting for its turn (or for a retry after ``next_attempt_at``)
    SENDING = "sending"  # claimed by a notifier, being posted
    SENT = "sent"  # the helpdesk answered 2xx
    FAILED = "failed"  # every attempt failed; the case's later events go on


class CaseEvent(Base):
    """One event of a case's life for the helpdesk (``CASE_WEBHOOK_URL``): the outbox row.

    Written in the transaction of the change it describes, by whichever runtime made it (Rasa's
    tracker store writes ``case.message`` rows itself, ``bot/case_inbox.py``); sent in order per
    case, at least once, by ``actions/cases/webhook_sender.py``. ``payload`` is the exact JSON
    that is signed and posted (``bot/case_events.py``); it goes when the case goes.
    """

    __tablename__ = "case_events"
    __table_args__ = (Index(None, "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: What the receiver de-duplicates on (a UUID); a retry sends the same one.
    event_id: Mapped[str] = mapped_column(String(36), unique=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), index=True)
    event_type: Mapped[str] = mapped_column(String(16))
    payload: Mapped[str] = mapped_column(Text)
    status: Mapped[EventStatus] = mapped_column(choice(EventStatus, "case_event_status"))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Why the last attempt failed: "HTTP 500", "unreachable (TimeoutError)"; never a text.
    last_error: Mapped[str | None] = mapped_column(String(200))
