"""A typed «۲» after "Which one did you hear? 1 … 2 …" is the second rumour, as the trained
model and the assistant's own processor read it (the web chat and REST hand Rasa the bare
number; Telegram, WhatsApp and SMS map it in the channel)."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest
from rasa.core.agent import Agent
from rasa.core.channels.channel import UserMessage
from rasa.shared.core.events import ActionExecuted, BotUttered, UserUttered
from rasa.shared.core.trackers import DialogueStateTracker

from bot import paused

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "assistant.tar.gz"
PICK = '/check_claim{{"detail": "{}"}}'
WHICH = [
    {"title": "۱ کانادا هر افغان را می‌برد", "payload": PICK.format("canada-every-tazkira")},
    {"title": "۲ کانادا همکاران را می‌برد", "payload": PICK.format("canada-worked-for-canada")},
]


@pytest.fixture(scope="module")
def agent() -> Agent:
    logging.getLogger("rasa").setLevel(logging.WARNING)
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` first")
    paused.install()
    return Agent.load(str(MODEL))


def after_the_choice(sender: str) -> DialogueStateTracker:
    now = time.time()
    return DialogueStateTracker.from_events(
        sender,
        [
            UserUttered("کانادا همه را می‌برد؟", timestamp=now - 5),
            ActionExecuted("action_check_claim", timestamp=now - 4),
            BotUttered("کدام یکی را شنیده‌اید؟", {"buttons": WHICH}, timestamp=now - 4),
            ActionExecuted("action_listen", timestamp=now - 4),
        ],
    )


@pytest.mark.parametrize("typed", ["۲", "2", "٢"])
def test_a_typed_two_is_the_second_rumour_not_the_airport(agent: Agent, typed: str) -> None:
    assert agent.processor is not None
    message = UserMessage(typed, sender_id="typed-choice")
    parsed = asyncio.run(agent.processor.parse_message(message, after_the_choice("typed-choice")))
    assert parsed["intent"]["name"] == "check_claim", parsed["intent"]
    details = [e["value"] for e in parsed["entities"] if e["entity"] == "detail"]
    assert details == ["canada-worked-for-canada"], parsed["entities"]


def test_without_the_choice_two_is_the_airport(agent: Agent) -> None:
    assert agent.processor is not None
    fresh = DialogueStateTracker.from_events("typed-menu", [])
    parsed = asyncio.run(agent.processor.parse_message(UserMessage("۲"), fresh))
    assert parsed["intent"]["name"] == "ask_airport_status", parsed["intent"]
