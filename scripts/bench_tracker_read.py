"""What a turn costs Rasa's process in the production tracker store, with and without the
kept session events (``bot/session_snapshots.py``).

    PYTHONPATH=. .venv/bot/bin/python scripts/bench_tracker_read.py [--people 50] [--turns 12]

People take turns one after the other, as a surge interleaves them: each turn reads the
conversation, adds a turn's events (the person's message with its full parse, two slots, the
action, the answer with buttons, ``action_listen``) and saves it, on a fresh PostgreSQL
database. Three stores, each on its own database, round by round in the same run: the
project's with the kept events, the project's keeping one conversation per worker (so every
read is Rasa's own read of the whole session), and Rasa's own ``SQLTrackerStore``. Reported:
this process's CPU time (``time.process_time``: PostgreSQL's own work is not in it) per turn,
over all turns and at the last turn of a session.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Coroutine
from datetime import datetime, timezone
from typing import Any

import sqlalchemy as sa
from rasa.core.tracker_store import SQLTrackerStore
from rasa.shared.core.domain import Domain
from rasa.shared.core.events import ActionExecuted, BotUttered, SlotSet, UserUttered

from bot.session_snapshots import SessionSnapshots
from bot.stores import ForgetfulSQLTrackerStore

PG_ADMIN = os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/test")
ANSWER = (
    "د کابل هوايي ډګر: تړلی. ټولې دروازې بندې دي. هوايي ډګر ته مه راځئ. "
    "سرچینه: د متحده ایالاتو سفارت، ۱۰ دقیقې مخکې تایید شوی. "
) * 3


def turn_events(turn: int) -> list[Any]:
    """A turn as the production stack stores it (sizes from a real Pashto airport question)."""
    ranking = [
        {"name": name, "confidence": confidence}
        for name, confidence in (
            ("ask_airport_status", 0.987),
            ("check_claim", 0.0039),
            ("out_of_scope", 0.0031),
            ("subscribe_alerts", 0.0025),
            ("list_subscriptions", 0.0007),
        )
    ]
    entity = {
        "entity": "airport",
        "start": 0,
        "end": 16,
        "confidence_entity": 0.85,
        "value": "KBL",
        "extractor": "CRFEntityExtractor",
        "processors": ["EntityCanonicaliser"],
    }
    text = f"د کابل هوايي ډګر خلاص دی؟ {turn}"
    parse: Any = {
        "intent": ranking[0],
        "entities": [entity],
        "text": text,
        "language": {"code": "ps", "script": "Arab", "confidence": 1.0, "shared": False},
        "text_tokens": [[0, 1], [2, 6], [7, 12], [13, 16], [17, 21], [22, 24]],
        "intent_ranking": ranking,
    }
    buttons = [{"title": f"{n}. د الوتکو وخت", "payload": f"/ask_{n}"} for n in range(3)]
    return [
        UserUttered(text, ranking[0], [entity], parse, input_channel="telegram"),
        SlotSet("language", "ps"),
        SlotSet("topic", "airport"),
        ActionExecuted("action_airport_status", policy="ConversationPolicy", confidence=1.0),
        BotUttered(
            ANSWER,
            {"buttons": buttons},
            {"utter_action": "utter_airport_status", "language": "ps"},
        ),
        ActionExecuted("action_listen", policy="ConversationPolicy", confidence=1.0),
    ]


def fresh_database() -> tuple[str, Callable[[], None]]:
    name = f"bench_tracker_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    return name, drop


def store(kind: str, domain: Domain, database: str) -> SQLTrackerStore:
    options: dict[str, Any] = {
        "dialect": "postgresql",
        "host": "127.0.0.1",
        "port": 5432,
        "db": database,
        "username": "postgres",
    }
    if kind == "rasa":
        return SQLTrackerStore(domain, **options)
    made = ForgetfulSQLTrackerStore(domain, **options)
    if kind == "whole session":
        made._snapshots = SessionSnapshots(1)
    return made


async def one_turn(tracker_store: SQLTrackerStore, sender: str, turn: int) -> float:
    """CPU seconds of this process for one turn's read and save."""
    started = time.process_time()
    tracker = await tracker_store.get_or_create_tracker(sender, append_action_listen=False)
    for event in turn_events(turn):
        tracker.update(event)
    await tracker_store.save(tracker)
    return time.process_time() - started


def run(
    arguments: argparse.Namespace,
    runner: Callable[[Coroutine[Any, Any, float]], float],
) -> dict[str, dict[int, list[float]]]:
    domain = Domain.load("bot/domain")
    kinds = ("kept session", "whole session", "rasa")
    cleanups = []
    stores = {}
    for kind in kinds:
        name, drop = fresh_database()
        cleanups.append(drop)
        stores[kind] = store(kind, domain, name)
    costs: dict[str, dict[int, list[float]]] = {kind: {} for kind in kinds}
    try:
        for turn in range(arguments.turns):
            for person in range(arguments.people):
                for kind in kinds:  # the three stores in turn, the same moment
                    cost = runner(one_turn(stores[kind], f"person-{person}", turn))
                    costs[kind].setdefault(turn, []).append(cost)
    finally:
        for made in stores.values():
            made.engine.dispose()
        for drop in cleanups:
            drop()
    return costs


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--people", type=int, default=50)
    parser.add_argument("--turns", type=int, default=12, help="turns of each person's session")
    arguments = parser.parse_args()
    loop = asyncio.new_event_loop()
    costs = run(arguments, loop.run_until_complete)
    loop.close()
    load1, load5, _ = os.getloadavg()
    print(
        f"**Run:** {datetime.now(timezone.utc):%Y-%m-%d %H:%M UTC}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {load1:.2f} / {load5:.2f}; "
        f"{arguments.people} people × {arguments.turns} turns, 6 events a turn.\n"
    )
    print(f"| store | CPU ms per turn, all turns (median) | mean | at turn {arguments.turns} |")
    print("|---|---:|---:|---:|")
    for kind, by_turn in costs.items():
        every = [cost for values in by_turn.values() for cost in values]
        last = by_turn[arguments.turns - 1]
        print(
            f"| {kind} | {1000 * statistics.median(every):.2f} | "
            f"{1000 * statistics.mean(every):.2f} | {1000 * statistics.median(last):.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
