"""Alert and safety replies keep their promises: buttons send their topic, the opt-out words
they name really end alerts, and the short ones fit in three SMS."""

import re
from pathlib import Path

import pytest
from rasa.core.nlg.interpolator import interpolate
from rasa.nlu.classifiers.regex_message_handler import RegexMessageHandler
from rasa.shared.core.domain import Domain
from rasa.shared.nlu.constants import ENTITIES, INTENT, TEXT
from rasa.shared.nlu.training_data.message import Message

from bot.nlu.stop_keywords import is_opt_out
from kernel.lang.texts import CATALOGUE
from kernel.sms_segments import segment_count

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = Domain.load(str(ROOT / "bot" / "domain"))
TOPICS = ["airport", "flights", "announcements"]

#: Replies that tell the user how to end alerts: domain responses, and the alerts the action
#: server writes from the catalogue (kernel/lang/texts/alerts.py).
NAMING_OPT_OUT = [
    "utter_alerts_subscribed",
    "utter_subscriptions_list",
    "alerts.airport",
    "alerts.flights",
    "alerts.announcement",
]
#: Replies sent on their own (not alerts with data blocks, not utter_safety): three SMS at most.
SHORT = [
    "utter_ask_alert_topic", "utter_alerts_subscribed", "utter_subscriptions_list",
    "utter_no_subscriptions", "utter_alerts_unsubscribed", "utter_alerts_channel_unsupported",
    "utter_alerts_failed", "utter_data_deleted", "utter_delete_failed", "utter_safety_offer",
]  # fmt: skip
#: Typical values: two topics, a Kabul date.
VALUES = {"topics": "airport status, flights to Doha", "until": "Tue 7 Sep", "destination": "Doha"}


def variations(name: str) -> list[dict]:
    """A domain response's variations, or a catalogue entry's texts in the same form."""
    if name in CATALOGUE:
        return [
            {"text": text, "condition": [{"type": "slot", "name": "language", "value": code}]}
            for code, text in CATALOGUE.entry(name).items()
        ]
    return DOMAIN.responses[name]


def language(variation: dict) -> str:
    conditions = variation.get("condition") or []
    return next((c["value"] for c in conditions if c.get("name") == "language"), "en")


@pytest.mark.parametrize("variation", variations("utter_ask_alert_topic"), ids=language)
def test_topic_buttons_subscribe_to_their_topic(variation: dict) -> None:
    buttons = interpolate(variation["buttons"], {})
    assert [b["payload"] for b in buttons] == [
        f'/subscribe_alerts{{"alert_topic": "{topic}"}}' for topic in TOPICS
    ]
    messages = RegexMessageHandler().process(
        [Message({TEXT: b["payload"]}) for b in buttons], DOMAIN
    )
    assert [m.get(INTENT)["name"] for m in messages] == ["subscribe_alerts"] * 3
    assert [m.get(ENTITIES)[0]["value"] for m in messages] == TOPICS


@pytest.mark.parametrize("name", NAMING_OPT_OUT)
def test_opt_out_words_named_in_replies_end_alerts(name: str) -> None:
    for variation in variations(name):
        text = variation["text"]
        words = re.findall("«([^»]+)»", text) + re.findall(r"\bSTOP\b", text)
        assert words, f"{name} ({language(variation)}) does not say how to stop alerts"
        assert all(is_opt_out(word) for word in words), f"{name}: {words}"


@pytest.mark.parametrize("name", SHORT)
def test_short_replies_fit_in_three_sms(name: str) -> None:
    for variation in variations(name):
        text = interpolate(variation["text"], VALUES)
        options = [f"{n} {b['title']}" for n, b in enumerate(variation.get("buttons", []), 1)]
        rendered = "\n".join([text, *options])
        assert segment_count(rendered) <= 3, f"{name} ({language(variation)}): {len(rendered)}"


def test_safety_advice_stays_short_enough_to_page() -> None:
    for variation in variations("utter_safety"):
        assert len(variation["text"]) <= 400, language(variation)


@pytest.mark.parametrize("variation", variations("utter_safety"), ids=language)
def test_safety_advice_says_how_to_keep_the_chat_from_coming_back(variation: dict) -> None:
    """A deleted chat comes back with the next alert or caseworker reply: the advice names
    the word that ends alerts and the number that deletes everything."""
    text = variation["text"]
    words = re.findall("«([^»]+)»", text) + re.findall(r"\bSTOP\b", text)
    assert any(is_opt_out(word) for word in words), text
    assert re.search(r"(^|\s)[8۸]:?\s", text), text
