"""A paused conversation: the person's messages reach their case, and only STOP, "delete my data",
"safety" and the caseworker's side get an answer from the assistant."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from rasa.shared.core.events import (
    ActionExecuted,
    BotUttered,
    ConversationPaused,
    ConversationResumed,
    SlotSet,
    UserUttered,
)
from rasa.shared.core.trackers import DialogueStateTracker
from sqlalchemy import text

from bot.case_inbox import CaseInbox
from bot.paused import PausedConversationProcessor
from bot.stores import ForgetfulInMemoryTrackerStore
from kernel.contentdb.engines import database_url, engine_for
from kernel.settings import publishes_case_events

PERSON = "telegram-5f0c1e7a9b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8e"
OPENED = datetime(2021, 8, 24, 4, 30, tzinfo=timezone.utc)


def said(words: str, intent: str = "nlu_fallback") -> UserUttered:
    return UserUttered(words, intent={"name": intent, "confidence": 1.0})


def paused_tracker(*events: object) -> DialogueStateTracker:
    return DialogueStateTracker.from_events(PERSON, [ConversationPaused(), *events])


@pytest.fixture
def inbox(content_db_url: str) -> CaseInbox:
    engine = engine_for(database_url(content_db_url))
    with engine.begin() as connection:
        connection.execute(text("DELETE FROM case_events"))
        connection.execute(text("DELETE FROM case_messages"))
        connection.execute(text("DELETE FROM cases"))
    return CaseInbox(engine, publishes_case_events())


def open_case(inbox: CaseInbox, status: str = "waiting", conversation: str = PERSON) -> int:
    with inbox.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO cases (conversation_id, channel, language, status, priority,"
                " opened_at, active_at) VALUES (:c, 'telegram', 'prs', :s, 0, :t, :t)"
            ),
            {"c": conversation, "s": status, "t": OPENED.replace(tzinfo=None)},
        )
        return int(connection.execute(text("SELECT max(id) FROM cases")).scalar_one())


def lines(inbox: CaseInbox, case_id: int) -> list[str]:
    with inbox.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT text FROM case_messages WHERE case_id = :i ORDER BY id"), {"i": case_id}
        )
        return [row[0] for row in rows]


def priority(inbox: CaseInbox, case_id: int) -> int:
    with inbox.engine.connect() as connection:
        found = connection.execute(text("SELECT priority FROM cases WHERE id = :i"), {"i": case_id})
        return int(found.scalar_one())


async def test_a_paused_conversations_messages_go_to_its_open_case(inbox: CaseInbox) -> None:
    closed = open_case(inbox, "closed")
    case = open_case(inbox)
    store = ForgetfulInMemoryTrackerStore(domain=None)
    store._cases = inbox
    tracker = paused_tracker(said("ویزه ام رد شد و پاسپورتم پیش سفارت است"))
    await store.save(tracker)
    tracker.update(said("پرواز به دوحه", "ask_flights"))
    tracker.update(SlotSet("destination", "Doha"))  # Rasa's slot mapping, after the message
    await store.save(tracker)
    assert lines(inbox, case) == ["ویزه ام رد شد و پاسپورتم پیش سفارت است", "پرواز به دوحه"]
    assert lines(inbox, closed) == []
    assert priority(inbox, case) == 0


async def test_a_question_answered_while_held_still_goes_to_the_case(inbox: CaseInbox) -> None:
    case = open_case(inbox)
    store = ForgetfulInMemoryTrackerStore(domain=None)
    store._cases = inbox
    answered = paused_tracker(
        said("د ابي دروازه خلاصه ده؟", "ask_airport_status"),
        ActionExecuted("action_answer_airport_status"),
        BotUttered("Abbey Gate: closed"),
    )
    await store.save(answered)
    danger = paused_tracker(
        said("my son is lost at abbey gate", "ask_airport_status"),
        ActionExecuted("action_answer_danger"),
        BotUttered("Lost family: ICRC …"),
    )
    await store.save(danger)  # the danger action records its message itself
    assert lines(inbox, case) == ["د ابي دروازه خلاصه ده؟"]


async def test_an_urgent_word_raises_the_priority(inbox: CaseInbox) -> None:
    case = open_case(inbox)
    assert inbox.record(PERSON, "زما ماشوم ناروغ دی")
    assert priority(inbox, case) == 1


async def test_what_is_not_a_paused_persons_message_stays_out(inbox: CaseInbox) -> None:
    case = open_case(inbox)
    store = ForgetfulInMemoryTrackerStore(domain=None)
    store._cases = inbox
    answered = paused_tracker(
        said("STOP", "unsubscribe_alerts"),
        ActionExecuted("action_unsubscribe_alerts"),
        BotUttered("You will get no more alerts."),
    )
    resumed = DialogueStateTracker.from_events(
        PERSON, [ConversationPaused(), ConversationResumed(), said("flights to Doha?")]
    )
    trigger = paused_tracker(said("", "EXTERNAL_case_closed"))
    reply = paused_tracker(said("", "EXTERNAL_case_reply"))
    for tracker in (answered, resumed, trigger, reply):
        await store.save(tracker)
    assert lines(inbox, case) == []
    assert not inbox.record("telegram-nobody", "hello")  # no case: nothing written


@pytest.mark.parametrize(
    ("intent", "answered"),
    [
        ("unsubscribe_alerts", True),
        ("delete_my_data", True),
        ("ask_safety", True),
        ("EXTERNAL_case_closed", True),
        ("EXTERNAL_case_reply", True),
        ("restart", True),
        ("ask_flights", True),
        ("ask_airport_status", True),
        ("follow_up", True),
        ("ask_documents", False),
        ("ask_human", False),
        ("greet", False),
        ("nlu_fallback", False),
    ],
)
def test_in_a_paused_conversation_what_must_always_work_and_questions_are_answered(
    intent: str, answered: bool
) -> None:
    tracker = paused_tracker(said("…", intent))
    assert PausedConversationProcessor._should_handle_message(tracker) is answered
    running = DialogueStateTracker.from_events(PERSON, [said("…", intent)])
    assert PausedConversationProcessor._should_handle_message(running)


def events(inbox: CaseInbox) -> list[dict[str, object]]:
    with inbox.engine.connect() as connection:
        rows = connection.execute(text("SELECT payload, status FROM case_events ORDER BY id"))
        return [{**json.loads(payload), "row_status": status} for payload, status in rows]


async def test_with_a_helpdesk_each_message_is_queued_as_a_case_event(
    inbox: CaseInbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASE_WEBHOOK_URL", "https://helpdesk.example.org/hooks/cases")
    case = open_case(inbox)
    store = ForgetfulInMemoryTrackerStore(domain=None)
    # Reads CASE_WEBHOOK_URL as Rasa does at start-up.
    store._cases = CaseInbox(inbox.engine, publishes_case_events())
    await store.save(paused_tracker(said("زما ماشوم ټپي دی، روغتون ته اړتیا لرو")))
    assert lines(inbox, case) == ["زما ماشوم ټپي دی، روغتون ته اړتیا لرو"]
    [event] = events(inbox)
    assert event["row_status"] == "queued" and event["schema"] == "case-event/1"
    assert event["type"] == "case.message"
    assert event["case"] == {
        "id": case,
        "status": "waiting",
        "language": "prs",
        "channel": "telegram",
        "priority": "urgent",  # raised by this very message
        "organisation": None,
        "opened_at": {"utc": "2021-08-24T04:30:00Z", "kabul": "2021-08-24T09:00:00+04:30"},
        "taken_by": None,
        "taken_at": None,
        "closed_at": None,
    }
    message = event["message"]
    assert isinstance(message, dict) and message["author"] == "person"
    assert message["text"] == "زما ماشوم ټپي دی، روغتون ته اړتیا لرو"
    assert PERSON not in json.dumps(event) and PERSON.split("-")[1] not in json.dumps(event)


async def test_without_a_helpdesk_or_with_a_malformed_url_no_event_is_queued(
    inbox: CaseInbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = open_case(inbox)
    monkeypatch.delenv("CASE_WEBHOOK_URL", raising=False)
    assert CaseInbox(inbox.engine, publishes_case_events()).record(PERSON, "ویزه")
    monkeypatch.setenv("CASE_WEBHOOK_URL", "ftp://helpdesk")
    # The message is kept all the same.
    assert CaseInbox(inbox.engine, publishes_case_events()).record(PERSON, "پاسپورت")
    assert lines(inbox, case) == ["ویزه", "پاسپورت"]
    assert events(inbox) == []


async def test_a_quiet_web_chat_case_of_a_surge_queues_no_event_until_it_is_announced(
    inbox: CaseInbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASE_WEBHOOK_URL", "https://helpdesk.example.org/hooks/cases")
    conversation = "webchat-" + "7" * 40
    case = open_case(inbox, conversation=conversation)
    with inbox.engine.begin() as connection:
        connection.execute(text("UPDATE cases SET channel = 'webchat' WHERE id = :i"), {"i": case})
    recorder = CaseInbox(inbox.engine, publishes_case_events())
    assert recorder.record(conversation, "my child is bleeding", OPENED)
    assert lines(inbox, case) == ["my child is bleeding"] and events(inbox) == []
    with inbox.engine.begin() as connection:  # a caseworker took it: the helpdesk was told
        connection.execute(
            text(
                "INSERT INTO case_events (event_id, case_id, event_type, payload, status,"
                " attempts, created_at, next_attempt_at) VALUES ('e1', :i, 'case.opened', '{}',"
                " 'sent', 1, :t, :t)"
            ),
            {"i": case, "t": OPENED.replace(tzinfo=None)},
        )
    assert recorder.record(conversation, "we are at abbey gate", OPENED)
    assert [event["type"] for event in events(inbox)[1:]] == ["case.message"]
