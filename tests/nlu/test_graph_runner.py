"""The in-order graph runner (bot/speed/graph_runner.py) predicts exactly what Rasa's dask runner
does: the same understanding of every held-out message, the same actions in a conversation."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rasa.core.processor
from rasa.core.agent import Agent
from rasa.core.channels.channel import CollectingOutputChannel, UserMessage
from rasa.engine.runner.dask import DaskGraphRunner
from rasa.shared.nlu.training_data.loading import load_data

from bot.speed.graph_runner import InOrderGraphRunner

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "assistant.tar.gz"
HELD_OUT = ROOT / "tests" / "nlu" / "heldout"
CONVERSATION = [
    "salam",
    "when is the next flight to doha",
    "and tomorrow?",
    "میدان هوایی باز است؟",
    "د ابی دروازه خلاصه ده؟",
    "menu",
    "3",
    "tashakor",
]


def held_out_messages() -> list[str]:
    return [
        str(example.get("text"))
        for path in sorted(HELD_OUT.glob("*.yml"))
        for example in load_data(str(path)).training_examples
    ]


def agent_with(runner: type[DaskGraphRunner], monkeypatch: pytest.MonkeyPatch) -> Agent:
    monkeypatch.setattr(rasa.core.processor, "DaskGraphRunner", runner)
    return Agent.load(str(MODEL))


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    logging.getLogger("rasa").setLevel(logging.WARNING)
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` first")
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def understood(parsed: dict[str, Any]) -> tuple[Any, ...]:
    entities = [(e["entity"], e["value"], e["start"]) for e in parsed["entities"]]
    ranking = [(r["name"], round(r["confidence"], 9)) for r in parsed["intent_ranking"]]
    return parsed["intent"]["name"], ranking, entities, parsed.get("language")


def test_every_held_out_message_is_understood_the_same(
    loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    messages = held_out_messages()
    assert len(messages) > 600
    results = []
    for runner in (DaskGraphRunner, InOrderGraphRunner):
        agent = agent_with(runner, monkeypatch)
        results.append(
            [understood(loop.run_until_complete(agent.parse_message(m))) for m in messages]
        )
    assert results[0] == results[1]


def test_a_conversation_gets_the_same_actions_and_answers(
    loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcripts = []
    for runner in (DaskGraphRunner, InOrderGraphRunner):
        agent = agent_with(runner, monkeypatch)
        said = []
        for text in CONVERSATION:
            output = CollectingOutputChannel()
            loop.run_until_complete(
                agent.handle_message(UserMessage(text, output, sender_id="same-person"))
            )
            said.append([m.get("text") for m in output.messages])
        tracker = loop.run_until_complete(agent.tracker_store.retrieve("same-person"))
        actions = [e.action_name for e in tracker.events if e.type_name == "action"]
        transcripts.append((said, actions))
    assert transcripts[0] == transcripts[1]
    assert any(transcripts[0][0])  # the conversation was answered at all
