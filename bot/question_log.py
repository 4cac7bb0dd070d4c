"""What people ask, counted after every turn, and what we could not answer, masked.

Turns that fall back (``nlu_fallback``) or are out of scope are answered by rules with a
response: they never reach the action server. The tracker store (``bot/stores.py``) therefore
records every turn here, as it saves it, in the content database (tables of the content
runtime's migration 0014, defined in ``kernel/contentdb/tables.py``), for the editors' page
``/console/questions``:

* ``question_counts``: turns by Kabul hour (stored as the UTC instant it starts: Kabul is
  UTC+04:30, so a Kabul hour starts at half past a UTC hour) and intent, by hour and
  language-script (``ps-Arab``), by hour and channel — counts only, one facet at a time, no
  conversation id, no text;
* ``unanswered_questions``: for fallback and out-of-scope turns, the message masked before it is
  stored (``kernel/question_mask.py``), its time, and a keyed hash of the conversation id
  (``keyed_tag``, HMAC under ``CONVERSATION_ID_KEY``, which the content database never sees,
  cut to 64 bits) of the person's address where the channel knows it (``PERSON``: a phone
  number on SMS and WhatsApp alike, a Telegram chat, a web chat client's network address),
  else of the conversation id: it lets the page count *different people*, not conversations
  one person can open at will, and lets "delete my data" remove the person's rows, while a
  copy of the database cannot link a row to a conversation.

Recording never fails a turn: an error is logged (with the conversation id, never the text)
and the turn goes on. Rows are purged after ``CONVERSATION_RETENTION`` by the content
runtime's retention job (``actions/notifier/retention.py``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Final

from rasa.shared.core.events import UserUttered
from rasa.shared.core.trackers import DialogueStateTracker
from sqlalchemy import delete, insert
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from bot.case_inbox import message_for_the_case
from bot.channels.identity import keyed_tag
from kernel.contentdb.engines import database_url, engine_for
from kernel.contentdb.tables import question_counts, unanswered_questions
from kernel.contract import is_external, person_in
from kernel.lang.codes import DEFAULT_LANGUAGE, LANGUAGES
from kernel.lang.letters import has_arabic_script
from kernel.question_mask import as_bigint, mask, wording
from kernel.settings import content_db_url

logger = logging.getLogger(__name__)

#: Intents whose messages are kept (masked): what the assistant could not answer.
UNANSWERED: Final = frozenset({"nlu_fallback", "out_of_scope"})
TAG_PURPOSE: Final = "question-log"
#: A save that comes long after its last message is not that message's turn (an API call).
TURN_MAX_AGE_SECONDS: Final = 600.0
REMEMBERED_CONVERSATIONS: Final = 10_000

#: Kabul's zone; it has kept UTC+04:30 since 1945, so a fixed offset is exact.
KABUL: Final = timezone(timedelta(hours=4, minutes=30), "Asia/Kabul")
_COUNT_KEY: Final = ("hour", "facet", "value")


def conversation_tag(conversation_id: str) -> int:
    return as_bigint(keyed_tag(TAG_PURPOSE, conversation_id))


def people_of(tracker: DialogueStateTracker) -> set[str]:
    """Every person tag the conversation's messages carried."""
    return {
        person
        for event in tracker.events
        if isinstance(event, UserUttered) and (person := person_in(event.metadata)) is not None
    }


def asker_tag(conversation_id: str, person: str | None) -> int:
    """Whom an unanswered message counts as: the person (the address' keyed hash: three web
    chat pages of one client, or SMS and WhatsApp from one number, are one), else the
    conversation."""
    return (
        as_bigint(keyed_tag(TAG_PURPOSE, f"person:{person}"))
        if person
        else (conversation_tag(conversation_id))
    )


@dataclass(frozen=True)
class Turn:
    """One person's message as the question log keeps it."""

    asked_at: datetime
    intent: str
    language: str
    script: str
    channel: str
    #: The masked message, for turns the assistant could not answer; else None.
    text: str | None

    @property
    def hour(self) -> datetime:
        """The Kabul hour the turn falls in, as its UTC start: editors read the page by Kabul
        hour and day, and a UTC hour straddles two Kabul ones (00:10 Kabul is 19:40 UTC)."""
        local = self.asked_at.astimezone(KABUL)
        return local.replace(minute=0, second=0, microsecond=0).astimezone(timezone.utc)

    def counted(self) -> list[tuple[datetime, str, str]]:
        """The (hour, facet, value) counts this turn adds one to."""
        return [
            (self.hour, "intent", self.intent),
            (self.hour, "language", f"{self.language}-{self.script}"),
            (self.hour, "channel", self.channel),
        ]


def _language(tracker: DialogueStateTracker, parsed: dict[str, Any]) -> str:
    """The conversation's language after the turn (what the person was answered in), else the
    message's detected one."""
    for value in (tracker.get_slot("language"), parsed.get("code")):
        if value in LANGUAGES:
            return str(value)
    return DEFAULT_LANGUAGE


def turn_of(tracker: DialogueStateTracker) -> tuple[UserUttered, Turn] | None:
    """The person's message that this save ends, as a :class:`Turn`; None for saves that are
    not a person's turn (alerts and other triggers) and for the messages that go to a case
    while a caseworker holds the conversation (they are the case's, not questions to us)."""
    if message_for_the_case(tracker) is not None:
        return None
    message = next((e for e in reversed(tracker.events) if isinstance(e, UserUttered)), None)
    intent = (message.intent_name or "") if message else ""
    if message is None or not intent or is_external(intent):
        return None
    parsed = (message.parse_data or {}).get("language") or {}
    parsed = parsed if isinstance(parsed, dict) else {}
    text = message.text or ""
    script = parsed.get("script")
    if script not in ("Arab", "Latn"):
        script = "Arab" if has_arabic_script(text) else "Latn"
    masked = mask(text) if intent in UNANSWERED else ""
    turn = Turn(
        asked_at=datetime.fromtimestamp(message.timestamp, timezone.utc),
        intent=intent[:64],
        language=_language(tracker, parsed),
        script=str(script),
        channel=(message.input_channel or "unknown")[:32],
        text=masked or None,
    )
    return message, turn


class QuestionLog:
    """Counts every turn and keeps the masked messages that were not answered.

    A message that was not answered is written as its turn is saved. The counts are added up
    in memory and written every ``FLUSH_SECONDS``, one statement for all the turns since
    (writing three rows per turn was a sixth of the tracker store's time in the load test);
    a Rasa process that is killed loses at most those seconds of counts, never a message.
    """

    FLUSH_SECONDS: Final = 5.0
    #: Distinct (hour, facet, value) counts held while the database is down, at most.
    MAX_PENDING: Final = 10_000

    def __init__(self, engine: Engine, flush_seconds: float = FLUSH_SECONDS) -> None:
        self.engine = engine
        self.flush_seconds = flush_seconds
        #: The last message counted per conversation, so a second save of a turn counts nothing.
        self._counted: OrderedDict[str, float] = OrderedDict()
        self._pending: Counter[tuple[datetime, str, str]] = Counter()
        self._flushing: asyncio.Task[None] | None = None

    @classmethod
    def from_env(cls) -> QuestionLog:
        return cls(engine_for(database_url(content_db_url())))

    def _is_new(self, sender_id: str, message: UserUttered) -> bool:
        if time.time() - message.timestamp > TURN_MAX_AGE_SECONDS:
            return False
        if self._counted.get(sender_id, float("-inf")) >= message.timestamp:
            return False
        self._counted[sender_id] = message.timestamp
        self._counted.move_to_end(sender_id)
        while len(self._counted) > REMEMBERED_CONVERSATIONS:
            self._counted.popitem(last=False)
        return True

    async def after_turn(self, tracker: DialogueStateTracker) -> None:
        """Records the turn this save ends, once; never raises."""
        try:
            found = turn_of(tracker)
            if found is None or not self._is_new(tracker.sender_id, found[0]):
                return
            turn = found[1]
            self._pending.update(turn.counted())
            self._flush_soon()
            if turn.text:
                tag = asker_tag(tracker.sender_id, person_in(found[0].metadata))
                await asyncio.to_thread(self.keep, turn, tag)
        except Exception:
            # The engine hides statement parameters: the traceback carries no text.
            logger.error(
                "%s: could not record the turn's question", tracker.sender_id, exc_info=True
            )

    def _flush_soon(self) -> None:
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.get_running_loop().create_task(self._flush_later())

    async def _flush_later(self) -> None:
        await asyncio.sleep(self.flush_seconds)
        await self.flush()

    async def flush(self) -> None:
        """Writes the counts added up since the last flush; never raises. A failed write keeps
        them for the next one (up to ``MAX_PENDING`` distinct counts)."""
        waiting, current = self._flushing, asyncio.current_task()
        if waiting is not None and waiting is not current and not waiting.done():
            waiting.cancel()
        pending, self._pending = self._pending, Counter()
        if not pending:
            return
        try:
            await asyncio.to_thread(self.count, pending)
        except Exception:
            logger.error("could not record %d question counts", pending.total(), exc_info=True)
            if len(pending) + len(self._pending) <= self.MAX_PENDING:
                self._pending.update(pending)
            self._flush_soon()

    def count(self, counts: Counter[tuple[datetime, str, str]]) -> None:
        rows = [
            {"hour": hour, "facet": facet, "value": value, "turns": turns}
            for (hour, facet, value), turns in counts.items()
        ]
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(question_counts).values(rows)
        statement = statement.on_conflict_do_update(
            index_elements=list(_COUNT_KEY),
            set_={"turns": question_counts.c.turns + statement.excluded.turns},
        )
        with self.engine.begin() as connection:
            connection.execute(statement)

    def keep(self, turn: Turn, tag: int) -> None:
        """Stores the masked message of a turn that was not answered."""
        with self.engine.begin() as connection:
            connection.execute(
                insert(unanswered_questions).values(
                    asked_at=turn.asked_at,
                    conversation_tag=tag,
                    wording=wording(turn.text or ""),
                    intent=turn.intent,
                    language=turn.language,
                    script=turn.script,
                    channel=turn.channel,
                    text=turn.text,
                )
            )

    async def forget(self, sender_id: str, people: set[str] | None = None) -> None:
        """Deletes the conversation's messages ("delete my data"), those kept under its
        ``people`` tags included; counts have nothing to delete. A failure is logged: the rows
        then go with the retention period."""
        tags = [conversation_tag(sender_id), *(asker_tag(sender_id, p) for p in people or ())]
        try:
            await asyncio.to_thread(self._delete, tags)
        except Exception:
            logger.error("%s: could not delete its unanswered questions", sender_id, exc_info=True)

    def _delete(self, tags: list[int]) -> int:
        table = unanswered_questions
        with self.engine.begin() as connection:
            result = connection.execute(delete(table).where(table.c.conversation_tag.in_(tags)))
        return int(result.rowcount or 0)
