"""A message that is only an opt-out keyword ends alerts; the same word in a sentence does not."""

import pytest
from rasa.shared.nlu.constants import INTENT, INTENT_RANKING_KEY, TEXT
from rasa.shared.nlu.training_data.message import Message

from bot.nlu.stop_keywords import OPT_OUT_KEYWORDS, StopKeywordClassifier
from kernel.lang.normalise import normalise

UNSUBSCRIBE = {"name": "unsubscribe_alerts", "confidence": 1.0}


def classified(text: str, intent: dict | None = None) -> Message:
    """``text`` after the component, as the pipeline hands it over (normalised), with ``intent``."""
    message = Message({TEXT: normalise(text)})
    message.set(INTENT, intent or {"name": "nlu_fallback", "confidence": 0.2})
    StopKeywordClassifier().process([message])
    return message


@pytest.mark.parametrize(
    "text",
    [
        # the carriers' standard set, in every case
        "STOP", "stop", "Stop", "STOPALL", "stop all", "UNSUBSCRIBE", "Unsubscribe", "CANCEL",
        "cancel", "END", "end", "QUIT", "quit", "stop alerts", "Stop Alerts",
        # Dari and Pashto in Arabic script
        "توقف", "بس", "لغو", "ستاپ", "ودروه", "بند یې کړه",
        # romanized Dari and Pashto
        "bas", "BAS", "Bas", "laghw", "laghv", "tawaqof", "tawaquf", "Tawaqquf", "wadrawa",
    ],
)  # fmt: skip
def test_keyword_sets_unsubscribe_with_full_confidence(text: str) -> None:
    message = classified(text)
    assert message.get(INTENT) == UNSUBSCRIBE
    assert message.get(INTENT_RANKING_KEY) == [UNSUBSCRIBE]


@pytest.mark.parametrize(
    "text",
    [
        "STOP!", "stop.", "Stop!!!", "  stop  ", "quit?", "«بس»", "بس!", "توقف؟", "لغو.",
        "توقف ؟", "لغو،", "ودروه!", '"STOP"', "bas!!", "Unsubscribe…",
    ],
)  # fmt: skip
def test_punctuation_around_the_keyword_is_ignored(text: str) -> None:
    assert classified(text).get(INTENT) == UNSUBSCRIBE


@pytest.mark.parametrize(
    "text",
    [
        "توقّف",  # with shadda
        "تـوقـف",  # with tatweel
        "بند يې كړه",  # Arabic yeh and kaf
        "\u200cبس\u200c",  # zero-width non-joiners from some keyboards
        "ＳＴＯＰ",  # full-width Latin letters
    ],
)
def test_letter_variants_are_folded(text: str) -> None:
    assert classified(text).get(INTENT) == UNSUBSCRIBE


def test_keywords_work_without_the_normaliser_too() -> None:
    message = Message({TEXT: "STOP!"})
    StopKeywordClassifier().process([message])
    assert message.get(INTENT) == UNSUBSCRIBE


@pytest.mark.parametrize(
    "text",
    [
        "بس است، حالا فهمیدم",  # "enough, now I understand"
        "بس کې ځم",  # Pashto: "I am going by bus"
        "بس دیگه تشکر",
        "when does the bus stop near the airport",
        "stop sending me flights to doha but keep the airport",
        "don't stop",
        "the end of the evacuation",
        "cancel my flight booking?",
        "لغو پرواز قطر راست است؟",
        "توقف پروازها تا کی است",
        "stopping",
        "busy",
        "basta",
        "7",
        "",
        "   ",
        "!!!",
    ],
)
def test_other_messages_keep_their_intent(text: str) -> None:
    original = {"name": "ask_flights", "confidence": 0.8}
    message = classified(text, dict(original))
    assert message.get(INTENT) == original


def test_message_without_text_is_left_alone() -> None:
    message = Message({})
    StopKeywordClassifier().process([message])
    assert message.get(INTENT) is None


def test_keywords_are_stored_normalised() -> None:
    assert all(keyword == normalise(keyword) for keyword in OPT_OUT_KEYWORDS)
