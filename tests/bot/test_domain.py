"""Every answer exists in all three languages, and the contracts other parts rely on hold."""

import re
from collections import defaultdict
from pathlib import Path

import pytest
import yaml
from rasa.shared.core.constants import DEFAULT_INTENTS
from rasa.shared.core.domain import Domain

from bot.channels.whatsapp import BUTTON_TITLE as BUTTON_TITLE_LIMIT
from bot.nlu.stop_keywords import UNSUBSCRIBE_INTENT, WITHDRAW_INTENT
from kernel import contract
from kernel.contract import SMS
from kernel.lang.codes import LANGUAGES
from kernel.lang.letters import ARABIC_LETTER, DARI_GAF, PASHTO_LETTERS

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = Domain.load(str(ROOT / "bot" / "domain"))
PASHTO_ONLY = PASHTO_LETTERS
#: The intents other processes trigger through Rasa's HTTP API (kernel/contract.py).
TRIGGERED = {contract.ALERT_INTENT, contract.CASE_REPLY_INTENT, contract.CASE_CLOSED_INTENT}
#: The intents the keyword classifier sets for a whole-message keyword (bot/nlu/stop_keywords.py).
KEYWORDS = {UNSUBSCRIBE_INTENT, WITHDRAW_INTENT}


def trained() -> dict[str, set[str]]:
    """Each intent the NLU data teaches, with the languages it is taught in (data/nlu/<code>/)."""
    taught: dict[str, set[str]] = defaultdict(set)
    for path in (ROOT / "data" / "nlu").glob("*/*.yml"):
        for example in yaml.safe_load(path.read_text("utf-8")).get("nlu") or []:
            if "intent" in example:
                taught[example["intent"]].add(path.parent.name)
    return taught


def tapped() -> set[str]:
    """The intents the domain's buttons send (``payload: /intent{…}``): never typed."""
    return {
        match.group(1)
        for variations in DOMAIN.responses.values()
        for variation in variations
        for button in variation.get("buttons") or []
        if (match := re.match(r"/(\w+)", str(button.get("payload", ""))))
    }


def test_each_intent_comes_from_somewhere_and_the_domain_has_each() -> None:
    """An intent is taught in every language, set by a keyword, triggered by another process
    (``kernel/contract.py``) or sent by a button; one with none of these is never predicted, and
    one the domain lacks breaks the turn that gets it."""
    taught = trained()
    sources = set(taught) | KEYWORDS | TRIGGERED | tapped()
    intents = set(DOMAIN.intents)
    assert not sources - intents, f"not in the domain: {sorted(sources - intents)}"
    unsourced = intents - sources - set(DEFAULT_INTENTS)
    assert not unsourced, f"nothing teaches, triggers or taps: {sorted(unsourced)}"
    externals = {intent for intent in intents if contract.is_external(intent)}
    unnamed = sorted(externals - TRIGGERED)
    assert externals == TRIGGERED, f"not named in kernel/contract.py: {unnamed}"
    partly = {intent: sorted(codes) for intent, codes in taught.items() if codes != set(LANGUAGES)}
    assert not partly, f"taught in some languages only: {partly}"


def test_entities_are_the_contract() -> None:
    assert set(DOMAIN.entities) == {
        "destination", "airport", "date", "flight_number", "language", "alert_topic",
        "alert_delivery", "gate", "detail", "case_reply",
    }  # fmt: skip


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
    assert set(by_channel) <= {None, SMS, "webchat"}, f"{name}: unknown channel"
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
        if variation.get("channel") == SMS:
            continue  # numbered lines there (kernel/sms_render.py), never WhatsApp buttons
        for button in variation.get("buttons") or []:
            assert len(button["title"]) <= BUTTON_TITLE_LIMIT, f"{name}: {button['title']!r}"
