"""Regression guard: the trained model on the held-out split (never trained on).

Runs after `make train` against models/assistant.tar.gz. The floors sit a little below the
figures measured by `make bench-nlu` (docs/BENCHMARKS.md), so a change that makes
understanding worse fails here, in the suite, rather than in front of a user.
"""

import asyncio
import logging
import os
from pathlib import Path

import pytest
from rasa.core.agent import Agent
from rasa.shared.nlu.training_data.loading import load_data

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "assistant.tar.gz"
HELD_OUT = ROOT / "tests" / "nlu" / "heldout"

#: slice → (intent accuracy floor, language-identification floor)
FLOORS = {
    "en": (0.93, 0.97),
    "prs_arab": (0.95, 0.98),
    "prs_latn": (0.90, 0.94),
    "ps_arab": (0.94, 0.96),
    "ps_latn": (0.91, 0.93),
}


@pytest.fixture(scope="module")
def parses() -> dict[str, list[tuple[str, dict]]]:
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` first")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    logging.getLogger("rasa").setLevel(logging.WARNING)
    agent = Agent.load(str(MODEL))
    loop = asyncio.new_event_loop()
    results: dict[str, list[tuple[str, dict]]] = {}
    for name in FLOORS:
        for message in load_data(str(HELD_OUT / f"{name}.yml")).training_examples:
            parsed = loop.run_until_complete(agent.parse_message(message.get("text")))
            results.setdefault(name, []).append((message.get("intent"), parsed))
    loop.close()
    return results


@pytest.mark.parametrize("slice_name", sorted(FLOORS))
def test_intent_accuracy(parses: dict[str, list[tuple[str, dict]]], slice_name: str) -> None:
    cases = parses[slice_name]
    accuracy = sum(p["intent"]["name"] == truth for truth, p in cases) / len(cases)
    assert accuracy >= FLOORS[slice_name][0], f"{slice_name}: {accuracy:.3f}"


@pytest.mark.parametrize("slice_name", sorted(FLOORS))
def test_language_identification(
    parses: dict[str, list[tuple[str, dict]]], slice_name: str
) -> None:
    code, _, script = slice_name.partition("_")
    script = "Arab" if script == "arab" else "Latn"
    cases = parses[slice_name]
    correct = sum(
        (p["language"]["code"], p["language"]["script"]) == (code, script) for _, p in cases
    )
    assert correct / len(cases) >= FLOORS[slice_name][1], (
        f"{slice_name}: {correct / len(cases):.3f}"
    )
