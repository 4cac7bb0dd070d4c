"""What a case keeps: whose conversation (by its keyed hash only), its state, and its messages.

A case never holds a phone number or a chat id: the conversation id is the same HMAC the
channels use (bot/channels/identity.py), and a caseworker's reply reaches the person through
Rasa, which alone can unseal an address. Texts are kept no longer than the conversation itself
(``actions/notifier/retention.py`` purges them with it), and so are the events sent to a
helpdesk about the case (:class:`CaseEvent`, deleted with it).

Rasa's tracker store writes cases' messages and events too: the tables both runtimes use are
defined once, in ``kernel/contentdb/tables.py``, and these models are mapped onto them.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, Integer, String, or_
from sqlalchemy.orm import Mapped, mapped_column

from actions.content.columns import Base, UTCDateTime
from actions.content.outgoing import DeliveryStatus, Sending
from kernel.contentdb import tables
from kernel.contentdb.statuses import Author, CaseStatus, EventStatus, Priority
from kernel.contentdb.tables import CASEWORKER

__all__ = [
    "Author",
    "Case",
    "CaseAudit",
    "CaseEvent",
    "CaseMessage",
    "CaseReply",
    "CaseStatus",
    "EventStatus",
    "Priority",
    "seen_by",
]


class Case(Base):
    """One request for a person, from "talk to a person" until a caseworker closes it."""

    __table__ = tables.cases

    id: Mapped[int]
    conversation_id: Mapped[str]
    channel: Mapped[str]
    language: Mapped[str]
    organisation_id: Mapped[int | None]
    status: Mapped[CaseStatus]
    priority: Mapped[int]
    opened_at: Mapped[datetime]
    #: The last time anything was written to the case; retention counts from here.
    active_at: Mapped[datetime]
    taken_by: Mapped[str | None]
    taken_at: Mapped[datetime | None]
    closed_at: Mapped[datetime | None]
    unreachable_at: Mapped[datetime | None]


def seen_by(organisation_id: int | None) -> ColumnElement[bool]:
    """The cases a caseworker of ``organisation_id`` sees, takes, answers and closes: her
    organisation's, so that two organisations staffing the service never read each other's;
    and those no organisation answers (opened while none took cases), so that nobody is left
    without help. A caseworker of no organisation (invited before migration 0026) sees only
    those (docs/HANDOFF.md, "Caseworkers and organisations")."""
    unanswered = Case.organisation_id.is_(None)
    if organisation_id is None:
        return unanswered
    return or_(unanswered, Case.organisation_id == organisation_id)


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

    __table__ = tables.case_messages

    id: Mapped[int]
    case_id: Mapped[int]
    author: Mapped[Author]
    text: Mapped[str]
    written_at: Mapped[datetime]


class CaseReply(Sending, Base):
    """A caseworker's reply on its way to the person: the outbox row of one case line.

    Sent like an alert (``actions/alerts/models.py`` ``Delivery``, the same columns and
    statuses): the notifier's courier claims it and triggers Rasa, whose channel claims it
    again (``rendered_at``) right before the provider and records ``delivered_at``, so a reply
    triggered twice reaches the person once (``bot/channels/deliveries.py``).
    """

    __table__ = tables.case_replies

    id: Mapped[int]
    case_id: Mapped[int]
    #: The line of the case this reply is (its text; shown with the reply's status).
    message_id: Mapped[int]
    conversation_id: Mapped[str]
    channel: Mapped[str]
    #: The language the caseworker wrote in (a WhatsApp template names it).
    language: Mapped[str]
    status: Mapped[DeliveryStatus]


class CaseEvent(Base):
    """One event of a case's life for the helpdesk (``CASE_WEBHOOK_URL``): the outbox row.

    Written in the transaction of the change it describes, by whichever runtime made it (Rasa's
    tracker store writes ``case.message`` rows itself, ``bot/case_inbox.py``); sent in order per
    case, at least once, by ``actions/cases/webhook_sender.py``. ``payload`` is the exact JSON
    that is signed and posted (``kernel/case_events.py``); it goes when the case goes.
    """

    __table__ = tables.case_events

    id: Mapped[int]
    #: What the receiver de-duplicates on (a UUID); a retry sends the same one.
    event_id: Mapped[str]
    #: None for ``case.deleted``: the case it tells of is gone.
    case_id: Mapped[int | None]
    event_type: Mapped[str]
    payload: Mapped[str]
    status: Mapped[EventStatus]
    attempts: Mapped[int]
    created_at: Mapped[datetime]
    next_attempt_at: Mapped[datetime]
    claimed_at: Mapped[datetime | None]
    sent_at: Mapped[datetime | None]
    #: Why the last attempt failed: "HTTP 500", "unreachable (TimeoutError)"; never a text.
    last_error: Mapped[str | None]
