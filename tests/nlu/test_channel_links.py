"""Poster links, forwarded messages and shared places as the trained model gets them: what the
channels make of them is understood as meant, and their metadata reaches the conversation."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rasa.core.agent import Agent
from rasa.core.channels.channel import CollectingOutputChannel, UserMessage

from bot.channels.deep_links import GATE_WORDS, LANGUAGE_WORDS, SITE_WORDS, read_link
from bot.channels.places import PLACE_QUESTION, place_metadata
from kernel.contract import FORWARDED, LANGUAGE_HINT, LOCATION

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "assistant.tar.gz"


@pytest.fixture(scope="module")
def agent() -> Iterator[tuple[Agent, asyncio.AbstractEventLoop]]:
    logging.getLogger("rasa").setLevel(logging.WARNING)
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` first")
    loop = asyncio.new_event_loop()
    yield Agent.load(str(MODEL)), loop
    loop.close()


def turn(
    agent: tuple[Agent, asyncio.AbstractEventLoop], text: str, metadata: dict[str, Any], sid: str
) -> tuple[Any, str]:
    """The user event Rasa logged for the message, and the action it predicts next."""
    rasa_agent, loop = agent

    async def run() -> tuple[Any, str]:
        message = UserMessage(text, CollectingOutputChannel(), sid, metadata=metadata)
        await rasa_agent.processor.log_message(message)
        prediction = await rasa_agent.processor.predict_next_for_sender_id(sid)
        tracker = await rasa_agent.tracker_store.retrieve(sid)
        assert prediction is not None and tracker is not None
        best = max(prediction["scores"], key=lambda score: score["score"])
        return tracker.latest_message, best["action"]

    return loop.run_until_complete(run())


@pytest.mark.parametrize("word", sorted(GATE_WORDS))
def test_a_gate_link_asks_for_that_gate(
    agent: tuple[Agent, asyncio.AbstractEventLoop], word: str
) -> None:
    link = read_link(f"lang_ps-{word}")
    said, action = turn(agent, link.text, {LANGUAGE_HINT: link.language}, f"gate-{word}")
    assert said.intent["name"] == "ask_airport_status"
    # As the content database keys it: the action finds the gate by it.
    assert [(e["entity"], e["value"]) for e in said.entities] == [("gate", GATE_WORDS[word])]
    assert said.metadata[LANGUAGE_HINT] == "ps"
    assert action == "action_answer_airport_status"


@pytest.mark.parametrize("word", sorted(SITE_WORDS))
def test_a_site_link_asks_for_that_airport(
    agent: tuple[Agent, asyncio.AbstractEventLoop], word: str
) -> None:
    said, action = turn(agent, read_link(word).text, {}, f"site-{word}")
    assert [(e["entity"], e["value"]) for e in said.entities] == [("airport", SITE_WORDS[word])]
    assert action == "action_answer_airport_status"


@pytest.mark.parametrize("word", sorted(LANGUAGE_WORDS))
def test_a_language_link_sets_the_language(
    agent: tuple[Agent, asyncio.AbstractEventLoop], word: str
) -> None:
    said, action = turn(agent, read_link(word).text, {}, f"lang-{word}")
    assert said.intent["name"] == "set_language"
    assert [e["value"] for e in said.entities] == [LANGUAGE_WORDS[word]]
    assert action == "utter_language_changed"


def test_an_unknown_link_is_a_greeting(agent: tuple[Agent, asyncio.AbstractEventLoop]) -> None:
    said, action = turn(agent, read_link("free_visas").text, {}, "unknown-link")
    assert said.intent["name"] == "greet" and action == "utter_greet"


def test_a_shared_place_asks_for_help_with_its_coordinates_in_the_conversation(
    agent: tuple[Agent, asyncio.AbstractEventLoop],
) -> None:
    metadata = {**(place_metadata(34.5656, 69.2165) or {}), FORWARDED: True}
    said, action = turn(agent, PLACE_QUESTION, metadata, "shared-place")
    assert said.intent["name"] == "ask_help" and action == "action_answer_help"
    assert said.metadata[LOCATION] == {"lat": 34.5656, "lon": 69.2165}
    assert said.metadata[FORWARDED] is True


def test_a_forwarded_message_is_checked_as_a_rumour_and_stays_marked(
    agent: tuple[Agent, asyncio.AbstractEventLoop],
) -> None:
    """Whatever a forwarded message asks, the person is asking whether it is true."""
    said, _ = turn(agent, "is the airport open tomorrow", {FORWARDED: True}, "forwarded")
    assert said.intent["name"] == "check_claim"
    assert said.metadata[FORWARDED] is True
