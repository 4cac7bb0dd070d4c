"""Every table of the content database that both runtimes use, defined once.

The content runtime owns the schema (its Alembic migrations create these tables) and maps its
models onto these very ``Table`` objects (``actions/*/models.py``: ``__table__ = tables.X``);
the bot runtime reads and writes them with SQLAlchemy Core. Tables only the content runtime
uses (airports, flights, revisions …) are declared with its models, on the same ``metadata``.
A test upgrades fresh databases to the migrations' head and compares them with this metadata
(``tests/actions/test_schema_matches_migrations.py``).

Plain SQLAlchemy Core, nothing else: the bot runtime has SQLAlchemy 1.4, the content runtime 2.0.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from kernel.contentdb.statuses import Author, CaseStatus, DeliveryStatus, EventStatus
from kernel.contentdb.types import UTCDateTime, choice

#: Stable constraint names, so that migrations (and SQLite batch migrations) can refer to them.
NAMING_CONVENTION: Final[dict[str, str]] = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: The whole content database: these tables, and the content runtime's own models join it.
metadata = MetaData(naming_convention=NAMING_CONVENTION)

#: A conversation id: "<channel>-<40 hex digits>" (bot/channels/identity.py).
CONVERSATION_ID = String(64)
CHANNEL = String(32)
LANGUAGE = String(8)
NAME = String(200)
SLUG = String(64)
#: Daily hours in Kabul time, "08:00-20:00" (kernel/case_hours.py).
CASE_HOURS = String(11)
#: A caseworker's sign-in name (the console's editor names are as long).
CASEWORKER = String(64)
#: Why a send failed or is being retried, e.g. "HTTP 429 (retry after 3 s)"; never an address.
LAST_ERROR = String(200)


def _sending() -> list[Column]:  # type: ignore[type-arg,unused-ignore]  # generic in 2.0 only
    """Where one message on its way through the notifier stands: the columns an alert's
    delivery and a caseworker's reply share (``actions/common/outbox.py``)."""
    return [
        Column("attempts", Integer, nullable=False, default=0),
        Column("next_attempt_at", UTCDateTime, nullable=False),
        Column("claimed_at", UTCDateTime),
        #: Set by the bot's alert channel right before the provider, only if nobody did
        #: before (``bot/channels/deliveries.py``): a delivery triggered twice goes out once.
        Column("rendered_at", UTCDateTime),
        Column("delivered_at", UTCDateTime),
        Column("finished_at", UTCDateTime),
        Column("last_error", LAST_ERROR),
        #: The id the provider gave the (first) message, which its delivery statuses name
        #: (a WhatsApp ``wamid.``, a Twilio ``SM…``): written by Rasa's channel when it sent it.
        #: (the others of one sent as several: ``provider_messages``)
        Column("provider_message_id", String(128), index=True),
        #: What the provider said became of it afterwards (``kernel/delivery_statuses.py``): sent,
        #: delivered, read or failed, with the provider's error code ("131026") and when.
        Column("provider_status", String(16)),
        Column("provider_error", String(16)),
        Column("status_at", UTCDateTime),
    ]


#: Who runs or said something; caseworkers' organisations have ``case_hours``.
organisations = Table(
    "organisations",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("slug", SLUG, nullable=False, unique=True),
    Column("name_en", NAME, nullable=False),
    Column("name_prs", NAME, nullable=False),
    Column("name_ps", NAME, nullable=False),
    #: "08:00-20:00", Kabul time; None when it takes no cases (kernel/case_hours.py).
    Column("case_hours", CASE_HOURS),
    Column("case_wait_minutes", Integer),
    Column("withdrawn_at", UTCDateTime),
)

#: A subscriber's channel address, sealed by the bot runtime (``bot/channels/addresses.py``).
alert_addresses = Table(
    "alert_addresses",
    metadata,
    Column("conversation_id", CONVERSATION_ID, primary_key=True),
    Column("channel", CHANNEL, nullable=False),
    #: Which key sealed it (a hash of the key, not the key), for rotation.
    Column("key_id", String(16), nullable=False),
    Column("sealed", Text, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False, index=True),
)

#: One alert to one subscriber (the outbox of ``actions/alerts``).
alert_deliveries = Table(
    "alert_deliveries",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("broadcast_id", Integer, ForeignKey("alert_broadcasts.id"), nullable=False),
    Column("conversation_id", CONVERSATION_ID, nullable=False, index=True),
    Column("channel", CHANNEL, nullable=False),
    Column("status", choice(DeliveryStatus, "status"), nullable=False),
    *_sending(),
    UniqueConstraint("broadcast_id", "conversation_id"),
    Index(None, "status", "channel", "next_attempt_at"),
    #: What became of a broadcast's alerts, counted from the index alone (the console).
    Index("ix_alert_deliveries_outcome", "broadcast_id", "status", "provider_status"),
)

#: One request for a person, from "talk to a person" until a caseworker closes it.
cases = Table(
    "cases",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("conversation_id", CONVERSATION_ID, nullable=False, index=True),
    Column("channel", CHANNEL, nullable=False),
    Column("language", LANGUAGE, nullable=False),
    Column("organisation_id", Integer, ForeignKey("organisations.id")),
    Column("status", choice(CaseStatus, "case_status"), nullable=False),
    Column("priority", Integer, nullable=False),
    Column("opened_at", UTCDateTime, nullable=False),
    #: The last time anything was written to the case; retention counts from here.
    Column("active_at", UTCDateTime, nullable=False, index=True),
    Column("taken_by", CASEWORKER),
    Column("taken_at", UTCDateTime),
    Column("closed_at", UTCDateTime),
    #: When the person's channel said they can no longer be reached there (they blocked the
    #: assistant, are not on WhatsApp, texted STOP: ``actions/alerts/unreachable.py``); what
    #: they write afterwards shows they can be again.
    Column("unreachable_at", UTCDateTime),
    Index("ix_cases_status_priority_opened_at", "status", "priority", "opened_at"),
)

#: A line of a case: what the person wrote, what the assistant or the caseworker answered.
case_messages = Table(
    "case_messages",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "case_id",
        Integer,
        ForeignKey("cases.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("author", choice(Author, "case_author"), nullable=False),
    Column("text", Text, nullable=False),
    Column("written_at", UTCDateTime, nullable=False),
)

#: A caseworker's reply on its way to the person: the outbox row of one case line, sent
#: like an alert (the same columns and statuses as ``alert_deliveries``).
case_replies = Table(
    "case_replies",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "case_id",
        Integer,
        ForeignKey("cases.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    #: The line of the case this reply is (its text; shown with the reply's status).
    Column(
        "message_id",
        Integer,
        ForeignKey("case_messages.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
    ),
    Column("conversation_id", CONVERSATION_ID, nullable=False, index=True),
    Column("channel", CHANNEL, nullable=False),
    #: The language the caseworker wrote in (a WhatsApp template names it).
    Column("language", LANGUAGE, nullable=False),
    Column("status", choice(DeliveryStatus, "case_reply_status"), nullable=False),
    *_sending(),
    Index(None, "status", "channel", "next_attempt_at"),
)

#: The ids the provider gave the further messages of an alert or a reply sent as several (a
#: WhatsApp text over 4,096 characters, Twilio WhatsApp over 1,600): the row's own
#: ``provider_message_id`` names the first, these the others, so that a status of any of them
#: finds its row (``bot/channels/statuses.py``). Written by Rasa's channel with the first;
#: deleted with their row (a WhatsApp message id holds the person's number).
provider_messages = Table(
    "provider_messages",
    metadata,
    Column("message_id", String(128), primary_key=True),
    Column(
        "alert_delivery_id",
        Integer,
        ForeignKey("alert_deliveries.id", ondelete="CASCADE"),
        index=True,
    ),
    Column(
        "case_reply_id",
        Integer,
        ForeignKey("case_replies.id", ondelete="CASCADE"),
        index=True,
    ),
)

#: One event of a case's life for the helpdesk (``CASE_WEBHOOK_URL``): the outbox row.
case_events = Table(
    "case_events",
    metadata,
    Column("id", Integer, primary_key=True),
    #: What the receiver de-duplicates on (a UUID); a retry sends the same one.
    Column("event_id", String(36), nullable=False, unique=True),
    Column(
        "case_id",
        Integer,
        ForeignKey("cases.id", ondelete="CASCADE"),
        #: None for ``case.deleted``, which outlives the case it tells of.
        nullable=True,
        index=True,
    ),
    Column("event_type", String(16), nullable=False),
    #: The exact JSON that is signed and posted (kernel/case_events.py).
    Column("payload", Text, nullable=False),
    Column("status", choice(EventStatus, "case_event_status"), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("created_at", UTCDateTime, nullable=False),
    Column("next_attempt_at", UTCDateTime, nullable=False),
    Column("claimed_at", UTCDateTime),
    Column("sent_at", UTCDateTime),
    #: Why the last attempt failed: "HTTP 500", "unreachable (TimeoutError)"; never a text.
    Column("last_error", LAST_ERROR),
    Index(None, "status", "next_attempt_at"),
)

#: Turns of one Kabul hour (``hour``: the UTC instant it starts) by one facet at a time.
question_counts = Table(
    "question_counts",
    metadata,
    Column("hour", UTCDateTime, nullable=False),
    Column("facet", String(16), nullable=False),
    Column("value", String(64), nullable=False),
    Column("turns", Integer, nullable=False),
    PrimaryKeyConstraint("hour", "facet", "value"),
)

#: A message the assistant could not answer, masked before it was stored.
unanswered_questions = Table(
    "unanswered_questions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("asked_at", UTCDateTime, nullable=False, index=True),
    #: A keyed hash of the conversation id (or the person) under a key only the bot holds.
    Column("conversation_tag", BigInteger, nullable=False, index=True),
    #: A hash of the text, so a week's messages are grouped on integers along one index.
    Column("wording", BigInteger, nullable=False),
    Column("intent", String(64), nullable=False),
    Column("language", LANGUAGE, nullable=False),
    Column("script", String(4), nullable=False),
    Column("channel", CHANNEL, nullable=False),
    Column("text", String(240), nullable=False),
    Index(
        "ix_unanswered_questions_wording_conversation_tag_asked_at",
        "wording",
        "conversation_tag",
        "asked_at",
    ),
)

#: The tables the bot runtime writes (the content runtime maps a model onto each).
SHARED: Final = (
    organisations,
    alert_addresses,
    alert_deliveries,
    cases,
    case_messages,
    case_replies,
    provider_messages,
    case_events,
    question_counts,
    unanswered_questions,
)
