"""The place a flight question names, as the trained model reads it, in every slice.

«د دوحې الوتنه کله ده؟» ("when is the flight of Doha?") got every flight: the extractor missed
the oblique «دوحې» in a sentence it had not been shown, while «دوحې ته الوتنه» worked. The
names annotated anywhere are now found by name in a flight question, and only there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rasa.core.agent import Agent

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "assistant.tar.gz"


@pytest.fixture(scope="module")
def parse() -> Iterator[Any]:
    logging.getLogger("rasa").setLevel(logging.WARNING)
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` first")
    agent, loop = Agent.load(str(MODEL)), asyncio.new_event_loop()
    yield lambda text: loop.run_until_complete(agent.parse_message(text))
    loop.close()


def destinations(parsed: dict[str, Any]) -> list[str]:
    return [e["value"] for e in parsed["entities"] if e["entity"] == "destination"]


@pytest.mark.parametrize(
    "text",
    [
        "د دوحې الوتنه کله ده؟",
        "د دوحې الوتنې شته؟",
        "پرواز دوحه کی است",
        "when is the doha flight",
        "parwaz ba doha kay ast",
        "da doha alwatana kala da",
    ],
)
def test_a_flight_question_naming_doha_asks_for_the_doha_flights(parse: Any, text: str) -> None:
    parsed = parse(text)
    assert parsed["intent"]["name"] in ("ask_flights", "follow_up"), parsed["intent"]
    assert destinations(parsed) == ["Doha"], parsed["entities"]


def test_an_embassy_in_a_documents_question_is_no_destination(parse: Any) -> None:
    parsed = parse("سفارت امریکا چه اسناد میخواهد")
    assert destinations(parsed) == [], parsed["entities"]
