"""Danger first (bot/policies/danger.py): the help before anything else, in every state of the
conversation; then a command or the question the message also asks, and nothing else; the rules
see the turn without the help."""

from __future__ import annotations

from pathlib import Path

import pytest
from rasa.shared.core.constants import ACTION_LISTEN_NAME
from rasa.shared.core.domain import Domain
from rasa.shared.core.events import (
    ActionExecuted,
    BotUttered,
    ConversationPaused,
    Event,
    SlotSet,
    UserUttered,
)
from rasa.shared.core.trackers import DialogueStateTracker

from bot.paused import PausedConversationProcessor
from bot.policies.danger import DANGER_ACTION, danger_action, helped, without_help

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = Domain.load(str(ROOT / "bot" / "domain"))


def said(text: str, intent: str) -> UserUttered:
    parse = {"intent": {"name": intent, "confidence": 1.0}, "entities": [], "text": text}
    return UserUttered(text, parse["intent"], [], parse)


def conversation(*events: Event) -> DialogueStateTracker:
    return DialogueStateTracker.from_events(
        "c", [ActionExecuted(ACTION_LISTEN_NAME), *events], DOMAIN.slots
    )


HELP = (
    ActionExecuted(DANGER_ACTION),
    BotUttered("call +93 700 000 121"),
    SlotSet("case_waiting", True),
)


@pytest.mark.parametrize(
    ("text", "intent"),
    [("lost my son 7 years near abbey gate plz help", "ask_airport_status"),
     ("mor me pa gate ke behosha shwa doctor ta artia da", "subscribe_alerts"),
     ("my mother fainted near the gate, need doctor", "nlu_fallback"),
     ("Taliban at the door what do i do", "ask_help"),
     ("طفلم پیش دروازه ابی گم شده", "ask_human")],
)  # fmt: skip
def test_danger_is_answered_first_whatever_the_intent(text: str, intent: str) -> None:
    assert danger_action(conversation(said(text, intent))) == DANGER_ACTION


@pytest.mark.parametrize(
    ("text", "intent"),
    [("is the gate lost?", "ask_airport_status"), ("my son's passport is lost", "ask_documents"),
     ("I lost my ticket", "ask_flights"), ("safe journey", "goodbye"),
     ("پاسپورتم گم شده", "ask_documents"), ("/ask_help", "ask_help")],
)  # fmt: skip
def test_everyday_messages_are_left_to_the_rules(text: str, intent: str) -> None:
    assert danger_action(conversation(said(text, intent))) is None


def test_after_the_help_only_a_question_asked_too_is_answered() -> None:
    asks = conversation(
        said("lost my son at the gate, is the gate open?", "ask_airport_status"), *HELP
    )
    assert danger_action(asks) is None  # the rules answer the gate
    only_help = conversation(
        said("lost my son near abbey gate plz help", "ask_airport_status"), *HELP
    )
    assert danger_action(only_help) == ACTION_LISTEN_NAME
    fallback = conversation(said("my mother fainted, where is the gate?", "nlu_fallback"), *HELP)
    assert danger_action(fallback) == ACTION_LISTEN_NAME  # "I did not understand" would bury it
    command = conversation(said("delete my data, they are at our door", "delete_my_data"), *HELP)
    assert danger_action(command) is None


def test_the_rules_see_the_turn_without_the_help() -> None:
    message = said("lost my son at the gate, is the gate open?", "ask_airport_status")
    tracker = conversation(message, *HELP)
    assert helped(tracker)
    seen = without_help(tracker, DOMAIN)
    assert seen.latest_action_name == ACTION_LISTEN_NAME
    assert seen.latest_message is not None and seen.latest_message.text == message.text
    assert not helped(seen)
    answered = conversation(message, *HELP, ActionExecuted("action_answer_airport_status"))
    assert without_help(answered, DOMAIN).latest_action_name == "action_answer_airport_status"


def test_a_paused_conversation_lets_danger_through() -> None:
    paused = (ConversationPaused(), ActionExecuted(ACTION_LISTEN_NAME))
    danger = conversation(*paused, said("my daughter is missing since the blast", "nlu_fallback"))
    assert danger.is_paused()
    assert PausedConversationProcessor._should_handle_message(danger)
    assert danger_action(danger) == DANGER_ACTION
    calm = conversation(*paused, said("my visa was refused, what now", "nlu_fallback"))
    assert not PausedConversationProcessor._should_handle_message(calm)
