"""A bare menu number picks the menu item, in Latin or Persian digits."""

import pytest
from rasa.shared.nlu.constants import INTENT, TEXT
from rasa.shared.nlu.training_data.message import Message

from bot.nlu.menu_choice import MenuChoiceClassifier

MENU = {"1": "ask_flights", "2": "ask_airport_status", "3": "ask_announcements"}


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("1", "ask_flights"),
        ("۲", "ask_airport_status"),
        ("٣", "ask_announcements"),
        (" 2. ", "ask_airport_status"),
        ("#1", "ask_flights"),
        ("01", "ask_flights"),
    ],
)
def test_menu_number_sets_intent_with_full_confidence(text: str, intent: str) -> None:
    message = Message({TEXT: text, INTENT: {"name": "nlu_fallback", "confidence": 0.2}})
    MenuChoiceClassifier(MENU).process([message])
    assert message.get(INTENT) == {"name": intent, "confidence": 1.0}


@pytest.mark.parametrize("text", ["9", "12", "flight 1", "1 2", "", "one"])
def test_other_messages_keep_their_intent(text: str) -> None:
    original = {"name": "ask_help", "confidence": 0.8}
    message = Message({TEXT: text, INTENT: dict(original)})
    MenuChoiceClassifier(MENU).process([message])
    assert message.get(INTENT) == original
