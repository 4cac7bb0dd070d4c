"""The words and numbers replies tell users to send do what the replies promise.

Runs after `make train` against models/assistant.tar.gz: «امنیت» asks for the safety advice,
«توقف» ends alerts, "send 8" deletes the data, and so on, through the whole pipeline.
"""

import asyncio
import logging
import os
import re
from pathlib import Path

import pytest
from rasa.core.agent import Agent
from rasa.shared.core.domain import Domain

from kernel.lang.texts import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "assistant.tar.gz"
DOMAIN = Domain.load(str(ROOT / "bot" / "domain"))

#: response (or catalogue entry, kernel/lang/texts/) → the intent of every word it asks the user
#: to write («…» or "…", or STOP).
WORDS = {
    "utter_safety_offer": "ask_safety",
    "utter_data_deleted": "ask_safety",
    "utter_alerts_subscribed": "unsubscribe_alerts",
    "utter_subscriptions_list": "unsubscribe_alerts",
    "alerts.airport": "unsubscribe_alerts",
    "alerts.flights": "unsubscribe_alerts",
    "alerts.announcement": "unsubscribe_alerts",
}
#: response → the intent of the menu number it asks the user to send (\d: Persian digits too).
NUMBERS = {"utter_no_subscriptions": "subscribe_alerts", "utter_safety": "delete_my_data"}


def cases(table: dict[str, str], pattern: str) -> list[tuple[str, str, str]]:
    found = []
    for name, intent in table.items():
        written = (
            CATALOGUE.entry(name).values()
            if name in CATALOGUE
            else [variation["text"] for variation in DOMAIN.responses[name]]
        )
        for text in written:
            for word in re.findall(pattern, text):
                found.append((name, "".join(word), intent))
    return found


WORD_CASES = cases(WORDS, r'«([^»]+)»|"([^"]+)"|\b(STOP)\b')
NUMBER_CASES = cases(NUMBERS, r"(?<![\d{])(\d)(?![\d}])")


@pytest.fixture(scope="module")
def parse():
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` first")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    logging.getLogger("rasa").setLevel(logging.WARNING)
    agent = Agent.load(str(MODEL))
    loop = asyncio.new_event_loop()
    yield lambda text: loop.run_until_complete(agent.parse_message(text))
    loop.close()


def test_every_reply_names_something_to_send() -> None:
    named = {name for name, _, _ in WORD_CASES + NUMBER_CASES}
    assert named == set(WORDS) | set(NUMBERS)


@pytest.mark.parametrize(("name", "text", "intent"), WORD_CASES + NUMBER_CASES)
def test_what_replies_tell_users_to_send_is_understood(parse, name, text, intent) -> None:
    assert parse(text)["intent"]["name"] == intent, f"{name}: {text!r}"
