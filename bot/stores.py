"""Rasa's own tracker stores, taught to forget: on a user's request, and after the retention period.

Rasa keeps every event of every conversation for ever. For people whose phone or whose
conversation with us could be used against them that is not acceptable, so these subclasses
of Rasa's stores (configured in ``endpoints.yml`` / ``endpoints.production.yml``) add two things:

* **On request.** When a turn ends with the confirmation ``utter_data_deleted`` (sent by
  ``action_delete_my_data`` after the content database forgot the person), the store deletes
  the whole conversation instead of saving it. The next message starts a new, empty one.
* **After the retention period** (``CONVERSATION_RETENTION``, default 7 days since the last
  message): checked at most once an hour while the server runs, and by ``make purge``
  (``python -m bot.stores purge``), which reads the same endpoints file Rasa does.

* **A paused conversation's messages go to its case**: a turn that ended on the person's message
  because a caseworker holds the conversation is added to the case (``bot/case_inbox.py``).
* **Every turn is counted for the editors' questions page**, and a message that was not
  answered is kept masked (``bot/question_log.py``); deleting a conversation deletes those too.

* **Memory is bounded** in the embedded profile: a cap on the conversations held, the least
  recently active dropped first, never one a caseworker holds (``ForgetfulInMemoryTrackerStore``).

Nothing else changes: they are Rasa's ``InMemoryTrackerStore`` and ``SQLTrackerStore``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import sys
import time
import warnings
from collections.abc import Iterable, Iterator
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from rasa.core.tracker_store import InMemoryTrackerStore, SQLTrackerStore, TrackerStore
from rasa.shared.core.events import (
    BotUttered,
    Event,
    SessionStarted,
    UserUttered,
    deserialise_events,
)
from rasa.shared.core.trackers import DialogueStateTracker
from rasa.shared.nlu.constants import INTENT_NAME_KEY

from bot.case_inbox import CaseInbox
from bot.question_log import QuestionLog, people_of
from bot.session_snapshots import SessionSnapshots
from kernel.contract import DELETED_CONFIRMATION
from kernel.settings import (
    conversation_retention,
    endpoints_file,
    memory_conversations,
    one_message_retention,
    session_snapshots,
)

logger = logging.getLogger(__name__)

PURGE_EVERY_SECONDS = 3600.0
#: In memory a purge is a look at a dict, so often enough for the one-message retention.
MEMORY_PURGE_EVERY_SECONDS = 300.0


def asks_to_be_forgotten(tracker: DialogueStateTracker) -> bool:
    """Whether the latest turn confirmed a deletion (a bot reply after the last user message)."""
    for event in reversed(tracker.events):
        if isinstance(event, UserUttered):
            return False
        if isinstance(event, BotUttered) and event.metadata.get("utter_action") == (
            DELETED_CONFIRMATION
        ):
            return True
    return False


class ForgetfulInMemoryTrackerStore(InMemoryTrackerStore):
    """The embedded default (``make run``): conversations live in this process's memory, bounded.

    Rasa's store holds every conversation until the process ends, and the web chat makes one
    for any new sender: 4,000 conversations of three messages raised Rasa's memory by 69 MB
    (about 18 KB each) and nothing gave it back for 7 days. So this store holds at most
    ``MEMORY_CONVERSATIONS`` (default 10,000) conversations nobody holds, and as many paused
    ones (a caseworker holds them: the pause is what sends the person's messages to their open
    case). A save beyond either drops the least recently active of its kind first: a flood of
    cases neither pushes everyone else out nor grows Rasa's memory without end (at most twice
    the cap, about 360 MB by default). A conversation that never got past its
    first message (a probe, a mistyped number, a flood) goes ``ONE_MESSAGE_RETENTION`` (default
    1 hour) after it. Losing an idle conversation costs its language choice and its context;
    the person's next message starts a new one, as after a restart. Measured in
    docs/BENCHMARKS.md ("Rasa's memory in the embedded profile").
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._retention = conversation_retention()
        self._limit = memory_conversations()
        self._one_message_retention = one_message_retention()
        #: Last save of each conversation, least recently active first (a save moves it last).
        self._last_saved: dict[str, float] = {}
        #: Conversations a caseworker holds (paused at their last save): never dropped for room.
        self._held: set[str] = set()
        #: Conversations with one message of the person's so far.
        self._one_message: set[str] = set()
        self._next_purge = time.monotonic() + MEMORY_PURGE_EVERY_SECONDS
        self._cases = CaseInbox.from_env()
        self._questions = QuestionLog.from_env()

    async def save(self, tracker: DialogueStateTracker) -> None:
        await self._questions.after_turn(tracker)
        if asks_to_be_forgotten(tracker):
            await self.forget(tracker.sender_id, people_of(tracker))
            return
        await super().save(tracker)
        await self._cases.after_turn(tracker)
        self._note(tracker)
        if time.monotonic() >= self._next_purge:
            self.purge_older_than(self._retention)
        self._keep_within_limit()

    def _note(self, tracker: DialogueStateTracker) -> None:
        sender = tracker.sender_id
        self._last_saved.pop(sender, None)
        self._last_saved[sender] = time.time()
        (self._held.add if tracker.is_paused() else self._held.discard)(sender)
        messages = (event for event in tracker.events if isinstance(event, UserUttered))
        if len(list(itertools.islice(messages, 2))) < 2:
            self._one_message.add(sender)
        else:
            self._one_message.discard(sender)

    def _drop(self, sender: str) -> None:
        self.store.pop(sender, None)
        self._last_saved.pop(sender, None)
        self._held.discard(sender)
        self._one_message.discard(sender)

    def _keep_within_limit(self) -> None:
        # The conversations nobody holds, and those a caseworker holds, each within the cap:
        # a flood of cases does not push out everyone else, nor grow without end.
        excess = len(self.store) - len(self._held) - self._limit
        if excess > 0:
            # Least recently active first; usually the very first one, so this stops at once.
            idle = (sender for sender in self._last_saved if sender not in self._held)
            for sender in list(itertools.islice(idle, excess)):
                self._drop(sender)
            logger.debug("memory: %d least recently active conversation(s) dropped", excess)
        beyond = len(self._held) - self._limit
        if beyond > 0:
            held = (sender for sender in self._last_saved if sender in self._held)
            for sender in list(itertools.islice(held, beyond)):
                self._drop(sender)
            logger.warning(
                "memory: %d conversation(s) a caseworker holds dropped: more than "
                "MEMORY_CONVERSATIONS are held; their cases stay open",
                beyond,
            )

    async def forget(self, sender_id: str, people: set[str] | None = None) -> None:
        self._drop(sender_id)
        await self._questions.forget(sender_id, people)
        logger.info("%s: conversation deleted on request", sender_id)

    def purge_older_than(self, age: timedelta, now: float | None = None) -> int:
        """Drops conversations whose last message is older than ``age``, and one-message
        conversations older than ``ONE_MESSAGE_RETENTION``; returns how many."""
        now = time.time() if now is None else now
        cutoff, first_cutoff = (
            now - age.total_seconds(),
            now - self._one_message_retention.total_seconds(),
        )
        old = [
            sender
            for sender, saved in self._last_saved.items()
            if saved < cutoff or (saved < first_cutoff and sender in self._one_message)
        ]
        for sender in old:
            self._drop(sender)
        self._next_purge = time.monotonic() + MEMORY_PURGE_EVERY_SECONDS
        if old:
            logger.info("retention: %d conversation(s) past their retention deleted", len(old))
        return len(old)


#: Set on a tracker this store read or saved: how many of its events (from the start of
#: ``tracker.events``) are in the database.
_STORED_EVENTS = "_events_in_store"


class ForgetfulSQLTrackerStore(SQLTrackerStore):
    """Rasa's SQL tracker store (PostgreSQL in production), same settings, same table.

    One thing is faster: Rasa finds the events a save must insert by *counting* the stored
    events of the conversation's latest session (a ``COUNT`` with a sub-query, a fifth of a
    production turn's CPU in the load test). The tracker being saved was read from this store
    at the start of the turn — under the conversation's lock, so nobody else stored events
    meanwhile — and that count is the number of events it was read with. So the store notes
    that number on the tracker it returns and on the tracker it saved, and inserts the events
    after it; a tracker it did not read (a new conversation, an API call) is counted as Rasa does.

    And a turn reads only what it lacks: the session's events this worker read or wrote last
    are kept (``bot/session_snapshots.py``), and the next read fetches the rows stored after
    them instead of the whole session's JSON. The tracker is the same as Rasa's own read
    (slots, the last turns, a pause, the session); ``retrieve_full_tracker`` (the HTTP API's
    whole history) is Rasa's. Reads and inserts are written in SQLAlchemy's core, without
    the ORM's objects, which cost more than the database's own work for a turn's few rows.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._retention = conversation_retention()
        self._next_purge = time.monotonic() + PURGE_EVERY_SECONDS
        self._cases = CaseInbox.from_env()
        self._questions = QuestionLog.from_env()
        self._snapshots = SessionSnapshots(session_snapshots())
        self._inserts: dict[int, Any] = {}

    async def retrieve(self, sender_id: str) -> DialogueStateTracker | None:
        tracker = self._read_session(sender_id)
        if tracker is not None:
            setattr(tracker, _STORED_EVENTS, len(tracker.events))
        return tracker

    def _read_session(self, sender_id: str) -> DialogueStateTracker | None:
        """The latest session, as Rasa's ``retrieve`` reads it: from the kept snapshot and
        the rows stored after it when it still holds, else all of the session's rows."""
        if not self.domain:
            return None
        table = self.SQLEvent.__table__
        snapshot = self._snapshots.get(sender_id)
        with self.session_scope() as session:
            if snapshot is not None:
                rows = session.execute(
                    sa.select(table.c.id, table.c.type_name, table.c.data)
                    .where(table.c.sender_id == sender_id, table.c.id >= snapshot.last_row)
                    .order_by(table.c.id)
                ).all()
                newer = rows[1:]
                if (
                    rows
                    and rows[0].id == snapshot.last_row
                    and all(row.type_name != SessionStarted.type_name for row in newer)
                ):
                    known = [*snapshot.events, *deserialise_events(_dicts(newer))]
                    if newer:
                        self._snapshots.keep(sender_id, known, newer[-1].id)
                    return DialogueStateTracker.from_events(sender_id, known, self.domain.slots)
                self._snapshots.drop([sender_id])
            rows = session.execute(_latest_session(table, sender_id)).all()
        if not rows:
            return None
        tracker = DialogueStateTracker.from_dict(sender_id, _dicts(rows), self.domain.slots)
        self._snapshots.keep(sender_id, tracker.events, rows[-1].id)
        return tracker

    def _additional_events(self, session: Any, tracker: DialogueStateTracker) -> Iterator[Any]:
        stored = getattr(tracker, _STORED_EVENTS, None)
        if stored is None or stored > len(tracker.events):
            return super()._additional_events(session, tracker)
        return itertools.islice(tracker.events, stored, len(tracker.events))

    async def save(self, tracker: DialogueStateTracker) -> None:
        await self._questions.after_turn(tracker)
        if asks_to_be_forgotten(tracker):
            await self.forget(tracker.sender_id, people_of(tracker))
            return
        await self.stream_events(tracker)
        self._insert(tracker)
        setattr(tracker, _STORED_EVENTS, len(tracker.events))
        await self._cases.after_turn(tracker)
        if time.monotonic() >= self._next_purge:
            self._next_purge = time.monotonic() + PURGE_EVERY_SECONDS
            await asyncio.to_thread(self.purge_older_than, self._retention)

    def _insert(self, tracker: DialogueStateTracker) -> None:
        """Rasa's insert of the turn's events, which also keeps the snapshot of a tracker this
        store read: its events as read, then the new ones as they will be read back (from
        their JSON: lists, not tuples), up to the id of the last row."""
        stored = getattr(tracker, _STORED_EVENTS, None)
        read_here = stored is not None and stored <= len(tracker.events)
        with self.session_scope() as session:
            new = list(self._additional_events(session, tracker))
            rows = [self._values(tracker.sender_id, event) for event in new]
            stored_json = [json.loads(row["data"]) for row in rows]
            last_row = self._insert_rows(session, rows)
            session.commit()
        logger.debug("%s: tracker stored", tracker.sender_id)
        snapshot = self._snapshots.get(tracker.sender_id)
        if not read_here or (last_row is None and snapshot is None):
            self._snapshots.drop([tracker.sender_id])
            return
        if last_row is None:
            return  # nothing new: the snapshot holds
        known = itertools.islice(tracker.events, 0, stored)
        self._snapshots.keep(
            tracker.sender_id, [*known, *deserialise_events(stored_json)], last_row
        )

    def _insert_rows(self, session: Any, rows: list[dict[str, Any]]) -> int | None:
        """Inserts the turn's rows in order; the id of the last one (None for no rows).

        Where the database says which ids it gave (PostgreSQL's ``RETURNING``), the rows go
        in one plain statement (per ``ROWS_PER_INSERT`` rows) instead of through the ORM:
        its objects and unit of work were half of a production turn's saving time. Ids
        come from one sequence in the order of the ``VALUES``, so the largest is the last.
        """
        if not rows:
            return None
        if self.engine.dialect.full_returning:
            last = 0
            for start in range(0, len(rows), ROWS_PER_INSERT):
                chunk = rows[start : start + ROWS_PER_INSERT]
                ids = session.execute(self._insert_returning(len(chunk)), _numbered(chunk))
                last = max(ids.scalars())
            return last
        objects = [self.SQLEvent(**row) for row in rows]
        session.add_all(objects)
        session.flush()
        return int(objects[-1].id)

    def _insert_returning(self, count: int) -> Any:
        """``INSERT … VALUES (…), … RETURNING id`` for ``count`` rows, written once per count:
        SQLAlchemy 1.4 does not cache a multi-row ``insert().values()``, and compiling it
        anew cost more than the ORM's flush it replaces."""
        statement = self._inserts.get(count)
        if statement is None:
            table = self.SQLEvent.__table__
            quote = self.engine.dialect.identifier_preparer
            names = ", ".join(quote.quote(column) for column in _COLUMNS)
            rows = ", ".join(
                "(" + ", ".join(f":{column}_{n}" for column in _COLUMNS) + ")" for n in range(count)
            )
            statement = sa.text(
                f"INSERT INTO {quote.format_table(table)} ({names}) VALUES {rows} "
                f"RETURNING {quote.quote('id')}"
            )
            self._inserts[count] = statement
        return statement

    @staticmethod
    def _values(sender_id: str, event: Event) -> dict[str, Any]:
        """The columns of ``event``'s row, as Rasa's store fills them."""
        data = event.as_dict()
        return {
            "sender_id": sender_id,
            "type_name": event.type_name,
            "timestamp": data.get("timestamp"),
            "intent_name": data.get("parse_data", {}).get("intent", {}).get(INTENT_NAME_KEY),
            "action_name": data.get("name"),
            "data": json.dumps(data),
        }

    async def forget(self, sender_id: str, people: set[str] | None = None) -> None:
        self._snapshots.drop([sender_id])
        await asyncio.to_thread(self._delete, [sender_id])
        await self._questions.forget(sender_id, people)
        logger.info("%s: conversation deleted on request", sender_id)

    def _delete(self, sender_ids: Iterable[str]) -> int:
        events = self.SQLEvent.__table__
        with self.engine.begin() as connection:
            result = connection.execute(
                events.delete().where(events.c.sender_id.in_(list(sender_ids)))
            )
        return int(result.rowcount or 0)

    def purge_older_than(self, age: timedelta, now: float | None = None) -> int:
        """Deletes every conversation whose last event is older than ``age``; returns how many."""
        cutoff = (time.time() if now is None else now) - age.total_seconds()
        events = self.SQLEvent.__table__
        old = (
            sa.select(events.c.sender_id)
            .group_by(events.c.sender_id)
            .having(sa.func.max(events.c.timestamp) < cutoff)
        )
        with self.engine.begin() as connection:
            senders = [row[0] for row in connection.execute(old)]
        self._snapshots.drop(senders)
        deleted = 0
        for start in range(0, len(senders), 500):
            self._delete(senders[start : start + 500])
            deleted += len(senders[start : start + 500])
        if deleted:
            logger.info("retention: %d conversation(s) older than %s deleted", deleted, age)
        return deleted


def _latest_session(table: Any, sender_id: str) -> Any:
    """Rasa's query of the latest session's rows (``SQLTrackerStore._event_query``): from the
    last ``session_started`` on, or all when there is none. Written in SQLAlchemy's core:
    the ORM's query and its objects cost more than the read itself."""
    started = (
        sa.select(sa.func.max(table.c.timestamp))
        .where(table.c.sender_id == sender_id, table.c.type_name == SessionStarted.type_name)
        .scalar_subquery()
    )
    return (
        sa.select(table.c.id, table.c.data)
        .where(
            table.c.sender_id == sender_id,
            sa.or_(table.c.timestamp >= started, started.is_(None)),
        )
        .order_by(table.c.id)
    )


#: At most this many rows in one ``INSERT`` (a turn stores a handful; a tracker posted
#: through the HTTP API can hold thousands, and each count is a statement kept).
ROWS_PER_INSERT = 64
#: The columns of an event's row that a save fills (the id comes from the database).
_COLUMNS = ("sender_id", "type_name", "timestamp", "intent_name", "action_name", "data")


def _numbered(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The parameters of ``_insert_returning``'s statement for ``rows``."""
    return {f"{column}_{n}": row[column] for n, row in enumerate(rows) for column in _COLUMNS}


def _dicts(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """The stored events' JSON, as Rasa's store reads it."""
    return [json.loads(row.data) for row in rows]


def _store_from_endpoints(path: str) -> TrackerStore:
    """The tracker store of the endpoints file, read as Rasa reads it but from that section
    alone: the other sections name variables (``ACTION_SERVER_SECRET``) that only the running
    servers have, and the purge never calls the action server."""
    import yaml  # type: ignore[import-untyped]  # Rasa's dependency; no stubs in its runtime
    from rasa.shared.utils.io import read_yaml
    from rasa.utils.endpoints import EndpointConfig

    with open(path, encoding="utf-8") as file:
        section = (yaml.safe_load(file) or {}).get("tracker_store")  # ${…} stay as written
    if section is None:
        return TrackerStore.create(None)
    expanded = read_yaml(yaml.safe_dump({"tracker_store": section}))["tracker_store"]
    return TrackerStore.create(EndpointConfig.from_dict(expanded))


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.stores purge [--endpoints FILE]``: the retention run of ``make purge``."""
    parser = argparse.ArgumentParser(prog="python -m bot.stores", description=__doc__)
    parser.add_argument("command", choices=["purge"])
    parser.add_argument("--endpoints", default=endpoints_file())
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    with warnings.catch_warnings():  # Rasa's own use of SQLAlchemy, not the operator's to fix
        warnings.simplefilter("ignore", DeprecationWarning)
        store = _store_from_endpoints(args.endpoints)
    inner = getattr(store, "_tracker_store", store)  # Rasa may wrap it in a fail-safe store
    if isinstance(inner, ForgetfulSQLTrackerStore):
        deleted = inner.purge_older_than(inner._retention)
        print(f"Deleted {deleted} conversation(s) older than {inner._retention}.")
        return 0
    print(
        f"The tracker store in {args.endpoints} keeps conversations in the server's memory: "
        "it forgets them itself (and on every restart); nothing to purge from here."
    )
    return 0


if __name__ == "__main__":
    # Run as bot.stores, not as __main__: the store Rasa builds from the endpoints file is an
    # instance of bot.stores' classes, which __main__'s copies would not recognise (the SQL
    # store was then taken for the in-memory one, and nothing was purged).
    from bot import stores

    sys.exit(stores.main())
