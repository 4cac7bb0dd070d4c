"""A forwarded message or a long pasted statement is an "is this true?"; questions are not."""

from __future__ import annotations

from typing import Any

import pytest
from rasa.shared.nlu.constants import INTENT, TEXT
from rasa.shared.nlu.training_data.message import Message

from bot.nlu.claim_detector import ClaimDetector
from kernel.contract import FORWARDED
from kernel.lang.normalise import normalise

CHAIN_LETTER = (
    "URGENT share with everyone: all gates of Kabul airport open tonight for women and "
    "children, the Americans will take every family with a tazkira, go to Abbey Gate after "
    "midnight and wait by the canal, they will call the names from a list, bring all documents"
)


def intent_of(text: str, intent: str = "ask_airport_status", metadata: Any = None) -> str:
    """The intent after the component, with ``intent`` from the classifier before it."""
    message = Message({TEXT: normalise(text), "metadata": metadata})
    message.set(INTENT, {"name": intent, "confidence": 0.6})
    ClaimDetector().process([message])
    return str(message.get(INTENT)["name"])


def test_a_forwarded_message_is_checked_whatever_it_says() -> None:
    assert intent_of("is abbey gate open?", metadata={FORWARDED: True}) == "check_claim"


def test_a_long_pasted_statement_is_checked() -> None:
    assert len(CHAIN_LETTER) > 200
    assert intent_of(CHAIN_LETTER) == "check_claim"


@pytest.mark.parametrize(
    "text",
    [
        "is abbey gate open?",
        CHAIN_LETTER + "?",
        "is it true that " + CHAIN_LETTER,
        "آیا " + "همه دروازه‌های میدان هوایی امشب برای زنان و اطفال باز است " * 4,
    ],
)
def test_questions_and_short_messages_keep_their_intent(text: str) -> None:
    assert intent_of(text, metadata={}) == "ask_airport_status"


def test_a_long_request_for_a_person_keeps_its_intent() -> None:
    own = "I need to talk to a person " + "my family is in danger and we have no documents " * 4
    assert intent_of(own, intent="ask_human") == "ask_human"


def test_a_buttons_payload_is_left_alone() -> None:
    payload = "/ask_flights" + "x" * 300
    assert intent_of(payload, "ask_flights", {}) == "ask_flights"
