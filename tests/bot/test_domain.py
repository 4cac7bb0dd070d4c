"""Every answer exists in all three languages, and the contracts other parts rely on hold."""

import re
from pathlib import Path

import pytest
from rasa.shared.core.constants import DEFAULT_INTENTS
from rasa.shared.core.domain import Domain

from bot.channels.whatsapp import BUTTON_TITLE as BUTTON_TITLE_LIMIT
from bot.lang.letters import ARABIC_LETTER, DARI_GAF, PASHTO_LETTERS

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = Domain.load(str(ROOT / "bot" / "domain"))
CONTRACT_INTENTS = {
    "greet", "goodbye", "thank", "ask_flights", "ask_airport_status", "ask_announcements",
    "ask_documents", "ask_help", "set_language", "subscribe_alerts", "unsubscribe_alerts",
    "show_menu", "delete_my_data", "out_of_scope", "list_subscriptions", "ask_safety",
    "EXTERNAL_alert", "follow_up", "ask_human", "EXTERNAL_case_closed", "EXTERNAL_case_reply",
    "withdraw_case", "check_claim", "ask_question",
}  # fmt: skip
PASHTO_ONLY = PASHTO_LETTERS


def test_intents_and_entities_are_the_contract() -> None:
    assert set(DOMAIN.intents) >= CONTRACT_INTENTS
    assert set(DOMAIN.intents) - CONTRACT_INTENTS <= set(DEFAULT_INTENTS)
    assert set(DOMAIN.entities) == {
        "destination", "airport", "date", "flight_number", "language", "alert_topic",
        "alert_delivery", "gate", "detail", "case_reply",
    }  # fmt: skip


SMS_CHANNELS = ("sms_gateway", "twilio_sms")
_PLACEHOLDER = re.compile(r"{[^{}]*}")


def has_words(text: str) -> bool:
    """Whether a variation has wording of its own, not only the action's data blocks."""
    return any(ch.isalpha() for ch in _PLACEHOLDER.sub("", text))


@pytest.mark.parametrize("name", sorted(DOMAIN.responses))
def test_response_has_dari_pashto_and_english(name: str) -> None:
    """Per channel: the chat variations, and the SMS forms where a response has them (Rasa
    prefers an SMS variation without condition to a chat one for the right language, so an
    SMS form missing in one language would answer its readers in English)."""
    by_channel: dict[str | None, dict[str, str]] = {}
    for variation in DOMAIN.responses[name]:
        conditions = variation.get("condition") or []
        language = next((c["value"] for c in conditions if c.get("name") == "language"), "en")
        by_language = by_channel.setdefault(variation.get("channel"), {})
        assert language not in by_language, f"{name}: two variations for {language}"
        by_language[language] = variation["text"]
    assert None in by_channel, f"{name} has no chat variations"
    # The web chat has its own wording where a phone number or alerts would not fit it.
    assert set(by_channel) <= {None, *SMS_CHANNELS, "webchat"}, f"{name}: unknown channel"
    sms = [by_channel.get(channel) for channel in SMS_CHANNELS]
    assert sms[0] == sms[1], f"{name}: the SMS gateway and Twilio forms differ"
    for channel, by_language in by_channel.items():
        assert set(by_language) == {"en", "prs", "ps"}, f"{name} lacks a language ({channel})"
        dari = by_language["prs"].replace("پښتو", "")  # the language's own name is written as is
        assert not PASHTO_ONLY & set(dari), f"{name}: Pashto letters in the Dari text"
        if has_words(by_language["ps"]):
            assert PASHTO_ONLY & set(by_language["ps"]), f"{name}: Pashto text without Pashto"
        assert DARI_GAF not in by_language["ps"], f"{name}: Dari's گ in Pashto (it writes ګ)"
        english = by_language["en"]
        arabic = len(ARABIC_LETTER.findall(english))
        assert arabic <= 12, f"{name}: the English text is not English"  # language names only


@pytest.mark.parametrize("name", sorted(n for n, v in DOMAIN.responses.items() if v))
def test_button_titles_fit_whatsapp(name: str) -> None:
    """WhatsApp cuts a button title after 20 characters: «پروازهای جدید یا ت…» says nothing."""
    for variation in DOMAIN.responses[name]:
        if variation.get("channel") in SMS_CHANNELS:
            continue  # numbered lines there (bot/channels/sms_render.py), never WhatsApp buttons
        for button in variation.get("buttons") or []:
            assert len(button["title"]) <= BUTTON_TITLE_LIMIT, f"{name}: {button['title']!r}"
