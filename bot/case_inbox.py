"""What a person writes while a caseworker holds the conversation goes to their case.

Rasa runs no action in a paused conversation (``bot/paused.py``), so the action server never
sees these messages; Rasa itself logs each one in the tracker and saves it. The tracker store
(``bot/stores.py``) therefore records them here, as the last step of saving a turn that ended on
the person's message: one place for every channel, Rasa's REST channel and HTTP API included,
and the text goes straight from the tracker to the case, never through a log. An urgent word
(``kernel/case_urgency.py``) raises the case's priority. When a helpdesk receives case events
(``CASE_WEBHOOK_URL``), the message's ``case.message`` is queued in the same transaction
(``bot/case_outbox.py``).

The tables belong to the content runtime (migration 0008); both runtimes take their definition
from ``kernel/contentdb/tables.py``. This side writes them with SQLAlchemy Core in a worker
thread, like the address book.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Final

from rasa.shared.core.constants import ACTION_LISTEN_NAME
from rasa.shared.core.events import ActionExecuted, BotUttered, Event, UserUttered
from rasa.shared.core.trackers import DialogueStateTracker
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine

from bot.case_outbox import queue_message
from kernel.case_hours import staffed
from kernel.case_urgency import is_urgent
from kernel.contentdb.engines import database_url, engine_for
from kernel.contentdb.statuses import OPEN_CASE_STATUSES, Author, CaseStatus, Priority
from kernel.contentdb.tables import case_messages, cases, organisations
from kernel.contract import is_external
from kernel.settings import content_db_url, publishes_case_events

logger = logging.getLogger(__name__)

#: The one-line "received" a message that went into the case gets (bot/paused.py); it does not
#: make the message answered.
RECEIVED: Final = "utter_case_received"
#: Questions the assistant answers while a caseworker holds the conversation, as it does while a
#: case waits at night: the flights, the airport and its gates, and a follow-up of those. Only
#: these: "my visa was refused, what now" reads like a documents question and is the person's
#: problem, for the caseworker. The message still goes into the case, with its "received": the
#: caseworker sees what was asked, and a line meant for them that reads like a question
#: ("I am at the North Gate, they do not let me in") is not lost.
ANSWERED_WHILE_HELD: Final = frozenset({"ask_flights", "ask_airport_status", "follow_up"})
#: The action that records its message in the case itself (actions/chat/danger.py).
RECORDS_ITS_MESSAGE: Final = "action_answer_danger"


def is_receipt(event: Event) -> bool:
    """Whether ``event`` is part of the "received" line (its action, its message, the listen
    after it) rather than an answer."""
    if isinstance(event, ActionExecuted):
        return event.action_name in (RECEIVED, ACTION_LISTEN_NAME)
    if isinstance(event, BotUttered):
        return (event.metadata or {}).get("utter_action") == RECEIVED
    return False


def message_for_the_case(tracker: DialogueStateTracker) -> str | None:
    """The person's message of this turn that belongs to their case because the conversation
    is paused: one that ended the turn unanswered, or a question answered while held
    (``ANSWERED_WHILE_HELD``); None for any other turn. (Rasa may still log slot events after
    it, from the message's entities, and the "received" line: only an action or a reply after
    it means it was answered.)"""
    if not tracker.is_paused():
        return None
    answered = False
    for event in reversed(tracker.events):
        if isinstance(event, ActionExecuted) and event.action_name == RECORDS_ITS_MESSAGE:
            return None
        if is_receipt(event):
            continue
        if isinstance(event, (ActionExecuted, BotUttered)):
            answered = True
        elif isinstance(event, UserUttered):
            if not event.text or is_external(event.intent_name):
                return None
            if answered and event.intent_name not in ANSWERED_WHILE_HELD:
                return None
            return event.text
    return None


@dataclass(frozen=True)
class OpenCase:
    """A conversation's open case, as Rasa needs it to give the conversation back its case."""

    case_id: int
    language: str
    #: Whether a caseworker holds the conversation: the case is taken, or the organisation
    #: is staffed now (the pause then waits for them, as when the case was opened).
    held: bool


class CaseInbox:
    """Appends a person's messages to their open case."""

    def __init__(self, engine: Engine, publishing: bool = False) -> None:
        self.engine = engine
        #: Whether a helpdesk gets case events (``CASE_WEBHOOK_URL``), read once at start-up.
        self.publishing = publishing

    @classmethod
    def from_env(cls) -> CaseInbox:
        """The inbox of this process: the content database and the helpdesk's setting, read
        once when Rasa creates its tracker store."""
        return cls(engine_for(database_url(content_db_url())), publishes_case_events())

    async def after_turn(self, tracker: DialogueStateTracker) -> None:
        """Records the turn's message if it belongs to a case; never fails the save."""
        text = message_for_the_case(tracker)
        if text is None:
            return
        try:
            recorded = await asyncio.to_thread(self.record, tracker.sender_id, text)
        except Exception:
            # No text in the log: the traceback of a database error carries no parameters
            # (``hide_parameters`` on the engine).
            logger.error(
                "%s: could not add a message to its case", tracker.sender_id, exc_info=True
            )
            return
        if not recorded:
            logger.warning("%s: paused, but no open case to add the message to", tracker.sender_id)

    def record(self, conversation_id: str, text: str, now: datetime | None = None) -> bool:
        """Appends ``text`` to the conversation's open case; False when it has none."""
        now = now or datetime.now(timezone.utc)
        with self.engine.begin() as connection:
            case_id = connection.scalar(
                select(cases.c.id)
                .where(
                    cases.c.conversation_id == conversation_id,
                    cases.c.status.in_(OPEN_CASE_STATUSES),
                )
                .order_by(cases.c.id.desc())
                .limit(1)
            )
            if case_id is None:
                return False
            connection.execute(
                insert(case_messages).values(
                    case_id=case_id, author=Author.PERSON, text=text, written_at=now
                )
            )
            changes: dict[str, object] = {"active_at": now}
            if is_urgent(text):
                changes["priority"] = int(Priority.URGENT)
            connection.execute(update(cases).where(cases.c.id == case_id).values(**changes))
            if self.publishing:
                queue_message(connection, case_id, text, now)
        return True

    def open_case_of(self, conversation_id: str, now: datetime | None = None) -> OpenCase | None:
        """The conversation's open case, and whether a caseworker holds it now."""
        now = now or datetime.now(timezone.utc)
        with self.engine.connect() as connection:
            row = connection.execute(
                select(cases.c.id, cases.c.language, cases.c.status, organisations.c.case_hours)
                .outerjoin(organisations, cases.c.organisation_id == organisations.c.id)
                .where(
                    cases.c.conversation_id == conversation_id,
                    cases.c.status.in_(OPEN_CASE_STATUSES),
                )
                .order_by(cases.c.id.desc())
                .limit(1)
            ).first()
        if row is None:
            return None
        held = row.status == CaseStatus.TAKEN or staffed(row.case_hours, now)
        return OpenCase(int(row.id), str(row.language), held)

    def note(self, case_id: int, text: str, now: datetime | None = None) -> None:
        """A line of the assistant's in the case, for the caseworker (why the conversation
        changed without them)."""
        now = now or datetime.now(timezone.utc)
        with self.engine.begin() as connection:
            connection.execute(
                insert(case_messages).values(
                    case_id=case_id, author=Author.ASSISTANT, text=text, written_at=now
                )
            )
