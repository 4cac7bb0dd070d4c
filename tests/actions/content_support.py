"""Helpers for the content tests: trackers from JSON fixtures, running actions, the domain."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import yaml
from rasa_sdk import Tracker
from rasa_sdk.executor import CollectingDispatcher

from actions.content.answering import ContentAction
from actions.content.seed.loader import read_file
from actions.content.seed.records import parse
from kernel.contract import variations_for

FIXTURES = Path(__file__).parent / "fixtures"
DOMAIN_DIR = Path(__file__).resolve().parents[2] / "bot" / "domain"
#: 04:30 UTC = 09:00 Kabul, Tuesday 24 August 2021.
NOW = datetime(2021, 8, 24, 4, 30, tzinfo=timezone.utc)
LANGUAGES = ("en", "prs", "ps")
#: The records of the demo (demo.yml and claims.yml): seeding writes one revision for each.
DEMO_RECORDS = len(parse(read_file(), NOW))
ISOLATED = re.compile("\u2068[^\u2069]*\u2069")

Messages = list[dict[str, Any]]


def tracker(
    fixture: str, language: object = "en", entities: dict[str, str] | None = None
) -> Tracker:
    """A tracker from a JSON fixture, with the language slot and latest entities replaced."""
    state = copy.deepcopy(json.loads((FIXTURES / f"tracker_{fixture}.json").read_text("utf-8")))
    state["slots"]["language"] = language
    if entities is not None:
        state["latest_message"]["entities"] = [
            {"entity": name, "value": value} for name, value in entities.items()
        ]
    return Tracker.from_dict(state)


async def run(action: ContentAction, state: Tracker) -> tuple[Messages, list[dict[str, Any]]]:
    """Run an action as the action server would; return what it sent and the events."""
    dispatcher = CollectingDispatcher()
    events = await action.run(dispatcher, state, {})
    return dispatcher.messages, events


def only_message(messages: Messages) -> dict[str, Any]:
    assert len(messages) == 1, messages
    return messages[0]


def clock(offset: timedelta = timedelta()) -> Callable[[], datetime]:
    return lambda: NOW + offset


def outside_isolates(text: str) -> str:
    """The right-to-left text with the isolated Latin runs removed."""
    return ISOLATED.sub("", text)


def load_domain_responses() -> dict[str, list[dict[str, Any]]]:
    responses: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(DOMAIN_DIR.glob("*.yml")):
        responses.update(yaml.safe_load(path.read_text("utf-8")).get("responses") or {})
    return responses


def render(message: dict[str, Any], language: str, channel: str | None = None) -> str:
    """What the user would read: the domain variation for ``language`` with the variables in.

    Mirrors Rasa's choice: on ``channel``, a variation for it whose slot condition matches, else
    its unconditioned one; then a variation for any channel whose condition matches, else the
    unconditioned one.
    """
    variations = load_domain_responses()[message["response"]]

    def matches(v: dict[str, Any]) -> bool:
        return any(c.get("value") == language for c in v.get("condition") or [])

    on_channel = [v for v in variations if channel and v.get("channel") == variations_for(channel)]
    anywhere = [v for v in variations if not v.get("channel")]
    chosen = next(
        v
        for group in (on_channel, anywhere)
        for v in [*filter(matches, group), *(v for v in group if not v.get("condition"))]
    )
    return re.sub(r"{([^\n{}]+?)}", lambda m: str(message[m.group(1)]), chosen["text"])
