"""Simulated users: multi-turn conversations in five language slices over the REST channel."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import yaml

from scripts.stack import ROOT

HELDOUT = ROOT / "tests" / "nlu" / "heldout"
SLICES = ("en", "prs_arab", "prs_latn", "ps_arab", "ps_latn")
#: Questions a user may ask; intents that change stored state (deleting the conversation,
#: alert subscriptions) are left out so that the check afterwards stays exact.
QUESTIONS = ("ask_flights", "ask_airport_status", "ask_announcements", "ask_documents", "ask_help")
MENU_NUMBERS = {"Latn": "12345", "Arab": "۱۲۳۴۵"}
ANNOTATION = re.compile(r"\[([^\]]+)\](?:\([^)]*\)|\{[^}]*\})")
REQUEST_TIMEOUT_SECONDS = 30.0


def read_messages(directory: Path = HELDOUT) -> dict[str, dict[str, list[str]]]:
    """Held-out messages by slice and intent, entity annotations removed.

    Held-out, not training, messages: a real user's words are new to the model too.
    """
    messages: dict[str, dict[str, list[str]]] = {}
    for name in SLICES:
        data = yaml.safe_load((directory / f"{name}.yml").read_text(encoding="utf-8"))
        by_intent: dict[str, list[str]] = defaultdict(list)
        for block in data.get("nlu", []):
            for line in str(block.get("examples", "")).splitlines():
                text = ANNOTATION.sub(r"\1", line.strip().removeprefix("- ")).strip()
                if text:
                    by_intent[block["intent"]].append(text)
        messages[name] = dict(by_intent)
    return messages


def conversation(rng: random.Random, slice_name: str, messages: dict[str, list[str]]) -> list[str]:
    """One user's messages: a greeting, 3 to 5 questions (some by menu number), goodbye."""
    turns = [rng.choice(messages["greet"])]
    for _ in range(rng.randint(3, 5)):
        if rng.random() < 0.2:
            script = "Arab" if slice_name.endswith("arab") else "Latn"
            turns.append(rng.choice(MENU_NUMBERS[script]))
        else:
            turns.append(rng.choice(messages[rng.choice(QUESTIONS)]))
    if rng.random() < 0.5:
        turns.append(rng.choice(messages["thank"]))
    turns.append(rng.choice(messages["goodbye"]))
    return turns


@dataclass
class Turn:
    """One message and what came back."""

    sender: str
    text: str
    started: float
    latency: float
    #: Messages in the REST reply; None when the turn failed.
    replies: int | None
    error: str | None = None
    #: The reply's texts without white space (the REST channel splits texts at blank lines).
    reply_text: str = ""


def squeeze(texts: Iterable[str]) -> str:
    """Texts joined without any white space, to compare replies however a channel split them."""
    return "".join("".join(texts).split())


async def send(session: aiohttp.ClientSession, url: str, sender: str, text: str) -> Turn:
    """Post one message to a Rasa server's REST channel; an empty reply counts as an error."""
    started = time.monotonic()
    replies: int | None = None
    error: str | None = None
    reply_text = ""
    try:
        async with session.post(
            f"{url}/webhooks/rest/webhook", json={"sender": sender, "message": text}
        ) as response:
            body = await response.json(content_type=None)
            if response.status != 200:
                error = f"HTTP {response.status}"
            elif not isinstance(body, list) or not body:
                error = "no reply"
            else:
                replies = len(body)
                reply_text = squeeze(str(m.get("text") or "") for m in body)
    except (aiohttp.ClientError, asyncio.TimeoutError, json.JSONDecodeError) as exc:
        error = type(exc).__name__
    return Turn(sender, text, started, time.monotonic() - started, replies, error, reply_text)


@dataclass
class Load:
    """Closed-loop load: ``concurrency`` users, each sending its next message when answered
    (after ``think_time`` on average).

    A new TCP connection per message, as webhook callers and load balancers mostly do: with
    kept-alive connections the first 50 connections would stay on whichever Sanic worker
    accepted them, and the workers' shares would depend on start-up luck.
    """

    urls: list[str]
    concurrency: int
    seconds: float
    messages: dict[str, dict[str, list[str]]]
    prefix: str
    #: Mean seconds a user takes to write the next message (exponential); 0: none at all.
    think_time: float = 0.0
    seed: int = 7
    turns: list[Turn] = field(default_factory=list)

    async def run(self) -> None:
        connector = aiohttp.TCPConnector(limit=0, force_close=True)
        timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_SECONDS)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            deadline = time.monotonic() + self.seconds
            await asyncio.gather(
                *(self._user(session, index, deadline) for index in range(self.concurrency))
            )

    async def _user(self, session: aiohttp.ClientSession, index: int, deadline: float) -> None:
        rng = random.Random(self.seed * 1000 + index)
        slice_name = SLICES[index % len(SLICES)]
        number = 0
        while time.monotonic() < deadline:
            sender = f"{self.prefix}-{index}-{number}-{uuid.uuid4().hex[:6]}"
            number += 1
            for text in conversation(rng, slice_name, self.messages[slice_name]):
                if time.monotonic() >= deadline:
                    return
                url = self.urls[(index + number) % len(self.urls)]
                self.turns.append(await send(session, url, sender, text))
                if self.think_time > 0:
                    pause = rng.expovariate(1 / self.think_time)
                    await asyncio.sleep(min(pause, max(0.0, deadline - time.monotonic())))
