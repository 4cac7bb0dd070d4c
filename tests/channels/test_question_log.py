"""The question log the tracker store writes after every turn: counts for every turn, the masked
text of what was not answered under a keyed hash, deleted with "delete my data", and never a
failed turn when the content database is down (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from rasa.shared.core.events import (
    ActionExecuted,
    BotUttered,
    ConversationPaused,
    SlotSet,
    UserUttered,
)
from rasa.shared.core.slots import TextSlot
from rasa.shared.core.trackers import DialogueStateTracker
from sqlalchemy import create_engine, text

from bot.channels.identity import person_tag
from bot.question_log import QuestionLog, Turn
from bot.stores import ForgetfulInMemoryTrackerStore, ForgetfulSQLTrackerStore
from kernel.contentdb.engines import database_url, engine_for
from kernel.contract import PERSON
from kernel.question_mask import wording
from tests.databases import backend_params

PHONE = "۰۷۹۹ ۱۲۳ ۴۵۶"
ASKED = f"زه خپله پیشو له ځانه سره راوړلی شم؟ زما شمېره {PHONE} ده"
MASKED = "زه خپله پیشو له ځانه سره راوړلی شم زما شمېره [phone] ده"


def turn(
    sender: str,
    words: str,
    intent: str = "nlu_fallback",
    language: str = "ps",
    channel: str = "telegram",
    reply: str = "utter_default",
    detected: str | None = None,
    person: str | None = None,
) -> DialogueStateTracker:
    """A turn answered in ``language``; the message's own language was ``detected``."""
    tracker = DialogueStateTracker(sender, [TextSlot("language", mappings=[{"type": "custom"}])])
    tracker.update(
        UserUttered(
            words,
            intent={"name": intent, "confidence": 0.2},
            parse_data={
                "language": {"code": detected or language, "script": "Arab", "confidence": 0.9}
            },
            input_channel=channel,
            metadata={PERSON: person_tag(person)} if person else {},
        )
    )
    tracker.update(SlotSet("language", language))
    tracker.update(ActionExecuted(reply))
    tracker.update(BotUttered("…", metadata={"utter_action": reply}))
    return tracker


@pytest.fixture
async def store(content_db_url: str) -> AsyncIterator[ForgetfulInMemoryTrackerStore]:
    engine = engine_for(database_url(content_db_url))
    with engine.begin() as connection:
        connection.execute(text("DELETE FROM question_counts"))
        connection.execute(text("DELETE FROM unanswered_questions"))
    store = ForgetfulInMemoryTrackerStore(domain=None)
    store._questions = QuestionLog(engine)
    yield store
    await store._questions.flush()  # nothing left waiting when the test's loop closes


async def rows(store: ForgetfulInMemoryTrackerStore, query: str) -> list[tuple[object, ...]]:
    """What the database holds once the counts added up in memory are written."""
    await store._questions.flush()
    with store._questions.engine.connect() as connection:
        return [tuple(row) for row in connection.execute(text(query))]


async def test_every_turn_is_counted_and_unanswered_ones_kept_masked(
    store: ForgetfulInMemoryTrackerStore,
) -> None:
    await store.save(turn("telegram-aaa", ASKED))
    await store.save(turn("whatsapp-bbb", "flights to doha", "ask_flights", "en", "whatsapp"))
    # The conversation's language (chosen by the person) counts, not the guess about a message.
    called = "Call Farid on +93 700 123 456"
    await store.save(turn("telegram-ccc", called, "out_of_scope", "en", detected="prs"))
    counts = await rows(store, "SELECT facet, value, turns FROM question_counts")
    assert sorted(counts) == [
        ("channel", "telegram", 2),
        ("channel", "whatsapp", 1),
        ("intent", "ask_flights", 1),
        ("intent", "nlu_fallback", 1),
        ("intent", "out_of_scope", 1),
        ("language", "en-Arab", 2),
        ("language", "ps-Arab", 1),
    ]
    kept = await rows(store, "SELECT text, conversation_tag, wording FROM unanswered_questions")
    assert sorted(row[0] for row in kept) == sorted([MASKED, "call [name] on [phone]"])
    assert len({row[1] for row in kept}) == 2  # two conversations, told apart by keyed hashes
    assert {row[2] for row in kept} == {wording(MASKED), wording("call [name] on [phone]")}
    # Only what is written as text can leak; a timestamp's digits may happen to read '700'.
    stored = await rows(store, "SELECT * FROM unanswered_questions")
    everything = " ".join(value for row in stored for value in row if isinstance(value, str))
    for secret in ("telegram-aaa", "telegram-ccc", "Farid", "700", "۰۷۹۹", "123"):
        assert secret not in everything


async def test_a_turn_saved_twice_counts_once_and_triggers_or_cases_not_at_all(
    store: ForgetfulInMemoryTrackerStore,
) -> None:
    tracker = turn("telegram-aaa", ASKED)
    await store.save(tracker)
    await store.save(tracker)  # e.g. Rasa's API predicting for the conversation
    alert = turn("telegram-aaa", "", "EXTERNAL_alert")
    paused = DialogueStateTracker.from_events(
        "telegram-ddd",
        [ConversationPaused(), UserUttered(ASKED, intent={"name": "nlu_fallback"})],
    )
    await store.save(alert)
    await store.save(paused)
    assert await rows(
        store, "SELECT facet, sum(turns) FROM question_counts GROUP BY facet ORDER BY facet"
    ) == [
        ("channel", 1),
        ("intent", 1),
        ("language", 1),
    ]
    assert await rows(store, "SELECT count(*) FROM unanswered_questions") == [(1,)]


async def test_asking_for_a_person_is_counted_though_it_pauses_the_conversation(
    store: ForgetfulInMemoryTrackerStore,
) -> None:
    tracker = turn("telegram-eee", "I need to talk to a person", "ask_human", "en")
    tracker.update(ConversationPaused())  # action_request_caseworker, in the same turn
    await store.save(tracker)
    intents = "SELECT value, turns FROM question_counts WHERE facet = 'intent'"
    assert await rows(store, intents) == [("ask_human", 1)]


async def test_the_same_hour_adds_up(store: ForgetfulInMemoryTrackerStore) -> None:
    for sender in ("a", "b", "c"):
        await store.save(turn(f"telegram-{sender}", "flights", "ask_flights"))
    intents = "SELECT value, turns FROM question_counts WHERE facet = 'intent'"
    assert await rows(store, intents) == [("ask_flights", 3)]


async def test_delete_my_data_deletes_the_persons_unanswered_messages_only(
    store: ForgetfulInMemoryTrackerStore,
) -> None:
    await store.save(turn("telegram-aaa", ASKED))
    await store.save(turn("telegram-bbb", ASKED))
    leaving = turn("telegram-aaa", ASKED)
    leaving.update(UserUttered("delete my data", intent={"name": "delete_my_data"}))
    leaving.update(ActionExecuted("action_delete_my_data"))
    leaving.update(BotUttered("Deleted.", metadata={"utter_action": "utter_data_deleted"}))
    await store.save(leaving)
    assert await store.retrieve("telegram-aaa") is None
    assert await rows(store, "SELECT count(*) FROM unanswered_questions") == [(1,)]
    counts = dict(
        await rows(store, "SELECT value, turns FROM question_counts WHERE facet = 'intent'")
    )
    assert counts == {"nlu_fallback": 2, "delete_my_data": 1}  # counts name nobody: kept


async def test_one_person_is_one_asker_however_many_conversations(
    store: ForgetfulInMemoryTrackerStore,
) -> None:
    """Three web chat pages of one client, and SMS and WhatsApp from one number, are one
    person: the editors' page counts askers by the address' keyed hash."""
    for sender in ("webchat-1", "webchat-2", "webchat-3"):
        await store.save(turn(sender, ASKED, channel="webchat", person="ip:203.0.113.7"))
    await store.save(turn("sms-1", ASKED, channel="sms_gateway", person="+93 799 123 456"))
    await store.save(turn("whatsapp-1", ASKED, channel="whatsapp", person="93799123456"))
    await store.save(turn("rest-1", ASKED, channel="rest"))  # no address known: the conversation
    asked = "SELECT count(DISTINCT conversation_tag), count(*) FROM unanswered_questions"
    assert await rows(store, asked) == [(3, 6)]
    # "Delete my data" on one page deletes what that address asked (the other pages' too).
    leaving = turn("webchat-1", ASKED, channel="webchat", person="ip:203.0.113.7")
    leaving.update(UserUttered("delete my data", intent={"name": "delete_my_data"}))
    leaving.update(ActionExecuted("action_delete_my_data"))
    leaving.update(BotUttered("Deleted.", metadata={"utter_action": "utter_data_deleted"}))
    await store.save(leaving)
    assert await rows(store, "SELECT count(*) FROM unanswered_questions") == [(3,)]


def test_a_phone_number_is_one_person_however_it_is_spelled() -> None:
    assert person_tag("+93 799 123 456") == person_tag("93799123456")
    assert person_tag("whatsapp:+93799123456") == person_tag("+93 (799) 123-456")
    assert person_tag("telegram:12345678") != person_tag("ip:12345678")


async def test_rasas_sql_tracker_store_records_and_forgets_too(
    store: ForgetfulInMemoryTrackerStore, tmp_path: Path
) -> None:
    """The production store (Rasa's SQL tracker store; SQLite here for Rasa's own tables)."""
    sql = ForgetfulSQLTrackerStore(None, dialect="sqlite", db=str(tmp_path / "rasa.db"))
    sql._questions = store._questions
    await sql.save(turn("telegram-aaa", ASKED))
    assert await rows(store, "SELECT text FROM unanswered_questions") == [(MASKED,)]
    leaving = turn("telegram-aaa", "delete my data", "delete_my_data", reply="utter_data_deleted")
    await sql.save(leaving)
    assert await rows(store, "SELECT count(*) FROM unanswered_questions") == [(0,)]
    sql.engine.dispose()


@pytest.mark.parametrize("backend", backend_params("postgresql"))
async def test_a_database_that_is_down_never_fails_the_turn(
    backend: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = (
        f"sqlite:///{tmp_path / 'no-such-dir' / 'content.db'}"
        if backend == "sqlite"
        else "postgresql+psycopg2://postgres@127.0.0.1:1/test"
    )
    engine = create_engine(url, hide_parameters=True, connect_args={})
    store = ForgetfulInMemoryTrackerStore(domain=None)
    store._questions = QuestionLog(engine)
    tracker = turn("telegram-aaa", ASKED)
    with caplog.at_level(logging.INFO):
        await store.save(tracker)
        await store.forget("telegram-aaa")
    store._questions._pending.clear()  # the counts' own failure: the test above
    await store._questions.flush()
    assert [r.levelno for r in caplog.records if r.name == "bot.question_log"] == [40, 40]
    logged = caplog.text + "".join(str(r.exc_info) for r in caplog.records)
    for secret in (PHONE, "پیشو", "۰۷۹۹", "0799"):
        assert secret not in logged
    assert "telegram-aaa: could not record the turn's question" in caplog.text


async def test_counts_are_written_by_themselves_within_seconds(content_db_url: str) -> None:
    """Nobody calls flush in a running Rasa: the counts reach the database on their own."""
    engine = engine_for(database_url(content_db_url))
    with engine.begin() as connection:
        connection.execute(text("DELETE FROM question_counts"))
    store = ForgetfulInMemoryTrackerStore(domain=None)
    store._questions = QuestionLog(engine, flush_seconds=0.2)
    for sender in ("a", "b"):
        await store.save(turn(f"telegram-{sender}", "flights", "ask_flights"))
    query = "SELECT value, turns FROM question_counts WHERE facet = 'intent'"
    with engine.connect() as connection:
        assert list(connection.execute(text(query))) == []  # added up, not written yet
    await asyncio.sleep(0.6)
    with engine.connect() as connection:
        assert [tuple(r) for r in connection.execute(text(query))] == [("ask_flights", 2)]


async def test_counts_survive_a_database_that_is_down_for_a_while(
    store: ForgetfulInMemoryTrackerStore, caplog: pytest.LogCaptureFixture
) -> None:
    working = store._questions.engine
    store._questions.engine = create_engine(
        "postgresql+psycopg2://postgres@127.0.0.1:1/test", hide_parameters=True
    )
    await store.save(turn("telegram-aaa", "flights", "ask_flights"))
    with caplog.at_level(logging.ERROR):
        await store._questions.flush()  # fails: kept in memory
    assert "could not record 3 question counts" in caplog.text
    store._questions.engine = working
    await store.save(turn("telegram-bbb", "flights", "ask_flights"))
    intents = "SELECT value, turns FROM question_counts WHERE facet = 'intent'"
    assert await rows(store, intents) == [("ask_flights", 2)]


@pytest.mark.parametrize(
    ("asked_at", "kabul_hour"),
    [
        ("2026-12-01T19:40:00+00:00", "2026-12-02T00:00:00+04:30"),  # 00:10 Kabul, 2 Dec
        ("2026-12-01T19:29:59+00:00", "2026-12-01T23:00:00+04:30"),
        ("2026-12-01T19:30:00+00:00", "2026-12-02T00:00:00+04:30"),
    ],
)
def test_a_turn_counts_in_its_kabul_hour_not_its_utc_hour(asked_at: str, kabul_hour: str) -> None:
    turn = Turn(datetime.fromisoformat(asked_at), "ask_flights", "prs", "Arab", "webchat", None)
    assert turn.hour == datetime.fromisoformat(kabul_hour)
    assert turn.hour.tzinfo is not None and turn.hour.utcoffset() == timedelta(0)
