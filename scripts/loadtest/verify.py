"""Reading conversations back from the tracker store and checking that none lost a turn."""

from __future__ import annotations

import asyncio
import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

import aiohttp
import psycopg

from scripts.loadtest.traffic import Turn, squeeze


@dataclass
class Check:
    conversations: int = 0
    messages: int = 0
    lost: int = 0
    duplicated: int = 0
    unanswered: int = 0
    reply_mismatch: int = 0

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.unanswered or self.reply_mismatch)


def user_turns(events: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """(text, texts of the bot messages until the next user message) per user message."""
    result: list[tuple[str, list[str]]] = []
    for event in events:
        if event.get("event") == "user":
            result.append((str(event.get("text")), []))
        elif event.get("event") == "bot" and result:
            result[-1][1].append(str(event.get("text") or ""))
    return result


def check_conversations(
    turns: list[Turn], events_by_sender: dict[str, list[dict[str, Any]]]
) -> Check:
    """Every answered message exactly once in its conversation, followed by its replies.

    Compares each conversation's user messages in the store with the messages sent (same texts,
    same order), and the bot messages after each with the REST reply (same texts). A message
    whose request failed may or may not have been processed: stored once, it is neither lost
    nor duplicated.
    """
    sent: dict[str, list[Turn]] = defaultdict(list)
    for turn in turns:
        sent[turn.sender].append(turn)
    result = Check()
    for sender, own in sent.items():
        result.conversations += 1
        result.messages += len(own)
        stored = user_turns(events_by_sender.get(sender, []))
        stored_texts = Counter(text for text, _ in stored)
        answered = [t for t in own if t.replies is not None]
        result.lost += sum((Counter(t.text for t in answered) - stored_texts).values())
        result.duplicated += sum((stored_texts - Counter(t.text for t in own)).values())
        result.unanswered += sum(1 for _, bots in stored if not bots)
        if [text for text, _ in stored] == [t.text for t in answered]:
            result.reply_mismatch += sum(
                1
                for (_, bots), turn in zip(stored, answered, strict=True)
                if bots and squeeze(bots) != turn.reply_text
            )
    return result


def events_from_table(conninfo: str, prefix: str) -> dict[str, list[dict[str, Any]]]:
    """Every stored event of the benchmark's conversations, from Rasa's ``events`` table."""
    events: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with psycopg.connect(conninfo) as connection:
        rows = connection.execute(
            "SELECT sender_id, data FROM events WHERE sender_id LIKE %s ORDER BY id",
            (f"{prefix}-%",),
        )
        for sender, data in rows:
            events[sender].append(json.loads(data))
    return dict(events)


async def events_from_api(url: str, senders: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Every conversation's events through Rasa's HTTP API (in-memory tracker stores)."""
    events: dict[str, list[dict[str, Any]]] = {}
    queue = list(senders)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:

        async def fetch() -> None:
            while queue:
                sender = queue.pop()
                async with session.get(f"{url}/conversations/{sender}/tracker") as response:
                    response.raise_for_status()
                    events[sender] = (await response.json()).get("events") or []

        await asyncio.gather(*(fetch() for _ in range(4)))
    return events
