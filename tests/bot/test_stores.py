"""The tracker stores forget a conversation when its user asks, and after the retention period.

Checked where it matters: the rows of Rasa's ``events`` table (SQLite and PostgreSQL) and the
in-memory store's contents.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from rasa.core.tracker_store import SQLTrackerStore
from rasa.shared.core.domain import Domain
from rasa.shared.core.events import ActionExecuted, BotUttered, SessionStarted, UserUttered
from rasa.shared.core.trackers import DialogueStateTracker

from bot.stores import (
    ROWS_PER_INSERT,
    ForgetfulInMemoryTrackerStore,
    ForgetfulSQLTrackerStore,
    asks_to_be_forgotten,
)
from kernel.settings import conversation_retention
from tests.databases import backend_params

DOMAIN = Domain.empty()
#: How each store of the fixture was made: another worker's store on the same database.
TWINS: dict[int, dict[str, Any]] = {}
PG = "postgresql://postgres@127.0.0.1:5432/test"


def conversation(
    sender: str, *, deleted: bool = False, at: float | None = None
) -> DialogueStateTracker:
    """A conversation with one question and its answer; with ``deleted``, a deletion turn."""
    when = time.time() if at is None else at
    tracker = DialogueStateTracker(sender, DOMAIN.slots)
    tracker.update(UserUttered("when is the next flight", timestamp=when))
    tracker.update(
        BotUttered(
            "QR8010 leaves at 14:00",
            metadata={"utter_action": "utter_flights_list"},
            timestamp=when,
        )
    )
    if deleted:
        tracker.update(UserUttered("delete my data", timestamp=when))
        tracker.update(ActionExecuted("action_delete_my_data", timestamp=when))
        tracker.update(
            BotUttered("Deleted.", metadata={"utter_action": "utter_data_deleted"}, timestamp=when)
        )
    return tracker


def test_only_a_turn_that_confirmed_the_deletion_asks_to_forget() -> None:
    assert asks_to_be_forgotten(conversation("a", deleted=True))
    assert not asks_to_be_forgotten(conversation("a"))
    later = conversation("a", deleted=True)
    later.update(UserUttered("hello again"))
    assert not asks_to_be_forgotten(later)  # the next conversation is a new one


def test_retention_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert conversation_retention({}) == timedelta(days=7)
    day_and_a_half = conversation_retention({"CONVERSATION_RETENTION": "1d12h"})
    assert day_and_a_half == timedelta(days=1, hours=12)
    for wrong in ("0d", "a week", "-3d"):
        with pytest.raises(ValueError, match="CONVERSATION_RETENTION"):
            conversation_retention({"CONVERSATION_RETENTION": wrong})


async def test_in_memory_store_forgets_on_request_and_after_the_retention_period() -> None:
    store = ForgetfulInMemoryTrackerStore(DOMAIN)
    await store.save(conversation("keep"))
    await store.save(conversation("leave"))
    await store.save(conversation("leave", deleted=True))
    assert set(await store.keys()) == {"keep"}

    assert store.purge_older_than(timedelta(days=7), now=time.time() + 8 * 86400) == 1
    assert set(await store.keys()) == set()


def _postgres_or_skip() -> None:
    try:
        sa.create_engine(PG).connect().close()
    except sa.exc.OperationalError as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL unreachable (CI=true: mandatory): {error}")
        pytest.skip(f"PostgreSQL unreachable: {error}")


@pytest.fixture(params=backend_params("postgresql"))
def sql_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ForgetfulSQLTrackerStore]:
    if request.param == "sqlite":
        kwargs: dict[str, Any] = {"dialect": "sqlite", "db": str(tmp_path / "rasa.db")}
        store = ForgetfulSQLTrackerStore(DOMAIN, **kwargs)
        TWINS[id(store)] = kwargs
        yield store
        return
    _postgres_or_skip()
    name = f"test_trackers_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(PG, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    kwargs = {
        "dialect": "postgresql", "host": "127.0.0.1", "port": 5432, "db": name,
        "username": "postgres",
    }  # fmt: skip
    store = ForgetfulSQLTrackerStore(DOMAIN, **kwargs)
    TWINS[id(store)] = kwargs
    yield store
    TWINS.pop(id(store), None)
    store.engine.dispose()
    with admin.connect() as connection:
        connection.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))


def rows(store: ForgetfulSQLTrackerStore, sender: str) -> int:
    with store.engine.connect() as connection:
        return int(
            connection.execute(
                sa.text("SELECT count(*) FROM events WHERE sender_id = :s"), {"s": sender}
            ).scalar_one()
        )


async def test_sql_store_deletes_every_event_of_the_person_and_nobody_elses(
    sql_store: ForgetfulSQLTrackerStore,
) -> None:
    await sql_store.save(conversation("keep"))
    await sql_store.save(conversation("leave"))
    assert rows(sql_store, "leave") == 2

    await sql_store.save(conversation("leave", deleted=True))

    assert rows(sql_store, "leave") == 0
    assert rows(sql_store, "keep") == 2
    assert await sql_store.retrieve("leave") is None
    # Writing again starts a new, empty conversation, not the old one again.
    fresh = DialogueStateTracker("leave", DOMAIN.slots)
    fresh.update(UserUttered("salam"))
    await sql_store.save(fresh)
    assert rows(sql_store, "leave") == 1


async def test_sql_store_purges_conversations_older_than_the_retention_period(
    sql_store: ForgetfulSQLTrackerStore,
) -> None:
    eight_days_ago = time.time() - 8 * 86400
    await sql_store.save(conversation("old", at=eight_days_ago))
    await sql_store.save(conversation("recent"))
    old_then_back = conversation("back", at=eight_days_ago)
    old_then_back.update(UserUttered("any news?"))
    await sql_store.save(old_then_back)

    assert sql_store.purge_older_than(timedelta(days=7)) == 1

    assert rows(sql_store, "old") == 0
    assert rows(sql_store, "recent") == 2
    assert rows(sql_store, "back") == 3  # its last message is recent: kept whole


def stored_texts(store: ForgetfulSQLTrackerStore, sender: str) -> list[tuple[str, str | None]]:
    with store.engine.connect() as connection:
        found = connection.execute(
            sa.text("SELECT type_name, data FROM events WHERE sender_id = :s ORDER BY id"),
            {"s": sender},
        )
        return [(kind, json.loads(data).get("text")) for kind, data in found]


async def test_sql_store_inserts_each_turns_events_once_without_counting_them(
    sql_store: ForgetfulSQLTrackerStore,
) -> None:
    """Turn after turn as Rasa does them (read, add, save; sometimes saved twice), across a
    new session, and a tracker the store did not read: every event stored once, in order, and
    no COUNT of the stored events for the trackers it read."""
    counts: list[str] = []
    sa.event.listen(
        sql_store.engine,
        "before_cursor_execute",
        lambda _c, _cur, statement, *_: (
            counts.append(statement) if "count(" in statement.lower() else None
        ),
    )
    first = DialogueStateTracker("person", DOMAIN.slots)  # a new conversation: counted
    first.update(UserUttered("salam"))
    first.update(BotUttered("Salam!"))
    await sql_store.save(first)
    counted_for_new = len(counts)
    for turn in range(3):
        tracker = await sql_store.retrieve("person")
        assert tracker is not None
        tracker.update(UserUttered(f"question {turn}"))
        tracker.update(ActionExecuted("action_flights"))
        await sql_store.save(tracker)
        tracker.update(BotUttered(f"answer {turn}"))
        await sql_store.save(tracker)  # the same tracker saved again: only what is new
    tracker = await sql_store.retrieve("person")
    assert tracker is not None
    tracker.update(SessionStarted())
    tracker.update(UserUttered("after a day"))
    await sql_store.save(tracker)
    again = await sql_store.retrieve("person")  # the latest session only
    assert again is not None
    assert [e.text for e in again.events if isinstance(e, UserUttered)] == ["after a day"]
    again.update(BotUttered("welcome back"))
    await sql_store.save(again)

    assert stored_texts(sql_store, "person") == [
        ("user", "salam"),
        ("bot", "Salam!"),
        *[
            step
            for turn in range(3)
            for step in (("user", f"question {turn}"), ("action", None), ("bot", f"answer {turn}"))
        ],
        ("session_started", None),
        ("user", "after a day"),
        ("bot", "welcome back"),
    ]
    assert counted_for_new >= 1  # Rasa's own way for a tracker it did not read
    assert len(counts) == counted_for_new


def twin(kind: type[SQLTrackerStore], store: SQLTrackerStore) -> SQLTrackerStore:
    """A store of another worker (``kind``) on ``store``'s database."""
    return kind(DOMAIN, **TWINS[id(store)])


def dumped(tracker: DialogueStateTracker | None) -> list[dict[str, object]]:
    assert tracker is not None
    return [event.as_dict() for event in tracker.events]


async def test_sql_store_reads_what_another_worker_stored_as_rasa_reads_it(
    sql_store: ForgetfulSQLTrackerStore,
) -> None:
    """Two workers take turns on one conversation, each keeping what it read: each read is
    the one Rasa's own store makes, across a new session and after the conversation was
    deleted and begun again elsewhere."""
    other = twin(ForgetfulSQLTrackerStore, sql_store)  # another worker
    rasa_own = twin(SQLTrackerStore, sql_store)
    first = DialogueStateTracker("person", DOMAIN.slots)
    first.update(UserUttered("salam"))
    await sql_store.save(first)
    for turn, (reader, writer) in enumerate([(sql_store, other), (other, sql_store)] * 3):
        tracker = await writer.retrieve("person")
        assert tracker is not None
        if turn == 4:
            tracker.update(ActionExecuted("action_session_start"))
            tracker.update(SessionStarted())
        tracker.update(UserUttered(f"question {turn}"))
        tracker.update(BotUttered(f"answer {turn}"))
        await writer.save(tracker)
        assert dumped(await reader.retrieve("person")) == dumped(await rasa_own.retrieve("person"))
    assert [
        e.text for e in (await sql_store.retrieve("person")).events if isinstance(e, UserUttered)
    ] == ["question 4", "question 5"]  # type: ignore[union-attr]

    assert isinstance(other, ForgetfulSQLTrackerStore)
    other._delete(["person"])  # the retention run, or a deletion handled by the other worker
    assert await sql_store.retrieve("person") is None
    again = DialogueStateTracker("person", DOMAIN.slots)
    again.update(UserUttered("new start"))
    await other.save(again)
    assert dumped(await sql_store.retrieve("person")) == dumped(await rasa_own.retrieve("person"))
    assert len(dumped(await sql_store.retrieve("person"))) == 1


async def test_sql_store_reads_only_the_rows_stored_since_its_last_read(
    sql_store: ForgetfulSQLTrackerStore,
) -> None:
    """The turn's read fetches the rows from the last one it knew, not the whole session."""
    tracker = DialogueStateTracker("talker", DOMAIN.slots)
    for turn in range(20):
        tracker.update(UserUttered(f"question {turn}"))
        tracker.update(BotUttered(f"answer {turn}"))
    await sql_store.save(tracker)
    fetched: list[int] = []
    sa.event.listen(
        sql_store.engine,
        "after_cursor_execute",
        lambda _c, cursor, statement, *_: (
            fetched.append(cursor.rowcount)
            if statement.lstrip().upper().startswith("SELECT")
            else None
        ),
    )
    cold = await sql_store.retrieve("talker")  # first read in this worker: Rasa's read
    assert cold is not None and len(cold.events) == 40
    cold.update(UserUttered("one more"))
    await sql_store.save(cold)
    fetched.clear()
    warm = await sql_store.retrieve("talker")
    assert warm is not None and len(warm.events) == 41
    assert dumped(warm) == dumped(await twin(SQLTrackerStore, sql_store).retrieve("talker"))
    assert fetched and max(fetched) <= 1  # the last known row only


async def test_sql_store_inserts_a_turns_events_in_one_statement_in_their_order(
    sql_store: ForgetfulSQLTrackerStore,
) -> None:
    """A turn's events go to the database in one ``INSERT`` on PostgreSQL, and a save of
    more rows than one statement holds keeps them all, in order: read back, the conversation
    is the one Rasa's own store reads."""
    inserts: list[str] = []
    sa.event.listen(
        sql_store.engine,
        "before_cursor_execute",
        lambda _c, _cur, statement, *_: (
            inserts.append(statement) if statement.lstrip().upper().startswith("INSERT") else None
        ),
    )
    posted = DialogueStateTracker("long", DOMAIN.slots)  # a tracker posted through the API
    for turn in range(2 * ROWS_PER_INSERT):
        posted.update(UserUttered(f"question {turn}"))
        posted.update(BotUttered(f"answer {turn}"))
    await sql_store.save(posted)
    rasa_own = twin(SQLTrackerStore, sql_store)
    assert dumped(await sql_store.retrieve("long")) == dumped(posted)
    assert dumped(await rasa_own.retrieve("long")) == dumped(posted)

    inserts.clear()
    tracker = await sql_store.retrieve("long")
    assert tracker is not None
    tracker.update(UserUttered("one more"))
    tracker.update(ActionExecuted("action_flights"))
    tracker.update(BotUttered("QR8010 leaves at 14:00"))
    await sql_store.save(tracker)
    expected = 1 if sql_store.engine.dialect.name == "postgresql" else 3
    assert len(inserts) == expected
    assert stored_texts(sql_store, "long")[-3:] == [
        ("user", "one more"), ("action", None), ("bot", "QR8010 leaves at 14:00"),
    ]  # fmt: skip
    assert dumped(await sql_store.retrieve("long")) == dumped(await rasa_own.retrieve("long"))
