"""Content-action benchmark: answer latency of every content action on a realistic data set.

    .venv/actions/bin/python scripts/bench_content.py [--runs 300] \
        [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test]

Why: every answer reads the content database while someone waits on a bad connection, and a
surge means many flights and announcements; the target is p95 < 20 ms per action, so that the
action server is never what makes an answer slow.

Builds a temporary SQLite database (and, with ``--postgres``, a temporary schema that is
dropped afterwards), migrates it with Alembic, loads the demo airports, gates and guidance,
adds 10 000 flights and 1 000 announcements, then runs each action through its real ``run()``
with a ``CollectingDispatcher`` and a tracker, rotating en / prs / ps, and prints a Markdown
table. ``--profile SCENARIO`` also prints where one scenario spends its time (cProfile).
Standard library and the content runtime's own packages only.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import platform
import pstats
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rasa_sdk import Tracker  # noqa: E402
from rasa_sdk.executor import CollectingDispatcher  # noqa: E402
from sqlalchemy import Engine, insert, select, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from actions.chat.airport import ActionAnswerAirportStatus  # noqa: E402
from actions.chat.announcements import ActionAnswerAnnouncements  # noqa: E402
from actions.chat.documents import ActionAnswerDocuments  # noqa: E402
from actions.chat.flights import ActionAnswerFlights  # noqa: E402
from actions.chat.help import ActionAnswerHelp  # noqa: E402
from actions.common.kabul_time import KABUL  # noqa: E402
from actions.content import db  # noqa: E402
from actions.content.answering import ContentAction  # noqa: E402
from actions.content.migrate import upgrade_to_head  # noqa: E402
from actions.content.models import (  # noqa: E402
    Airport,
    Announcement,
    AnnouncementKind,
    Flight,
    FlightStatus,
    Organisation,
    Verification,
)
from actions.content.seed.loader import read_file  # noqa: E402
from actions.publishing import load  # noqa: E402

LANGUAGES = ("en", "prs", "ps")
TARGET_P95_MS = 20.0
PREFIXES = ("RCH", "QR", "GAF", "UAF", "PK", "BAW", "AFR", "TK", "EK", "FZ", "IAM", "RRR")
ORIGINS = ("KBL", "KBL", "KBL", "KBL", "MZR", "KDH")  # most flights leave Kabul
#: What a user types for a flight number without its letters (matches a handful of flights).
DIGITS_ASKED = "871"


@dataclass(frozen=True)
class Scenario:
    """One question: the action that answers it and the entities of the user's message."""

    name: str
    action: type[ContentAction]
    entities: dict[str, str]


@dataclass(frozen=True)
class Latency:
    p50: float
    p95: float
    p99: float


def scenarios(day: str, exact_number: str) -> list[Scenario]:
    return [
        Scenario("flights", ActionAnswerFlights, {}),
        Scenario("flights · destination", ActionAnswerFlights, {"destination": "Doha"}),
        Scenario("flights · date", ActionAnswerFlights, {"date": day}),
        Scenario(
            "flights · destination + date",
            ActionAnswerFlights,
            {"destination": "Tashkent", "date": day},
        ),
        Scenario("flights · number", ActionAnswerFlights, {"flight_number": exact_number}),
        Scenario("flights · digits only", ActionAnswerFlights, {"flight_number": DIGITS_ASKED}),
        Scenario("flights · none found", ActionAnswerFlights, {"destination": "Atlantis"}),
        Scenario("airport status", ActionAnswerAirportStatus, {"airport": "KBL"}),
        Scenario("announcements", ActionAnswerAnnouncements, {}),
        Scenario("documents", ActionAnswerDocuments, {}),
        Scenario("help", ActionAnswerHelp, {}),
    ]


def tracker(language: str, entities: dict[str, str]) -> Tracker:
    return Tracker.from_dict(
        {
            "sender_id": "bench",
            "slots": {"language": language, "language_chosen": False},
            "latest_message": {
                "text": "…",
                "intent": {"name": "ask", "confidence": 1.0},
                "entities": [{"entity": name, "value": value} for name, value in entities.items()],
            },
            "events": [],
            "paused": False,
            "followup_action": None,
            "active_loop": {},
            "latest_action_name": "action_listen",
        }
    )


def fill(engine: Engine, now: datetime, flights: int, announcements: int, seed: int) -> str:
    """The demo content plus generated flights and announcements; returns an upcoming number."""
    rng = random.Random(seed)
    with Session(engine) as session, session.begin():
        load(session, read_file(), now)
        orgs = list(session.scalars(select(Organisation.id).order_by(Organisation.id)))
        airports = {a.iata: a.id for a in session.scalars(select(Airport))}
        destinations = [iata for iata in airports if iata not in ("KBL", "MZR", "KDH")]
        rows: list[dict[str, Any]] = []
        seen: set[tuple[str, str]] = set()
        while len(rows) < flights:
            number = f"{rng.choice(PREFIXES)}{rng.randint(1, 9999)}"
            departs = now + timedelta(minutes=rng.randint(-3 * 24 * 60, 25 * 24 * 60))
            key = (number, departs.astimezone(KABUL).date().isoformat())
            if key in seen:
                continue
            seen.add(key)
            verified = now - timedelta(minutes=rng.randint(0, 10 * 60))
            if departs < now:
                status = rng.choice((FlightStatus.DEPARTED, FlightStatus.CANCELLED))
            else:
                status = rng.choice(
                    (FlightStatus.SCHEDULED,) * 6 + (FlightStatus.DELAYED, FlightStatus.BOARDING)
                )
            rows.append(
                {
                    "flight_number": number,
                    "operator_id": rng.choice(orgs),
                    "origin_id": airports[rng.choice(ORIGINS)],
                    "destination_id": airports[rng.choice(destinations)],
                    "departs_at": departs,
                    "status": status,
                    "eligibility_en": "Passengers on the operator's manifest.",
                    "eligibility_prs": "مسافرانی که نام‌شان در فهرست است.",
                    "eligibility_ps": "هغه مسافر چې نومونه یې په لست کې دي.",
                    "assembly_point_en": "North Gate.",
                    "assembly_point_prs": "دروازهٔ شمالی.",
                    "assembly_point_ps": "شمالي دروازه.",
                    "source_id": rng.choice(orgs),
                    "verified_at": verified,
                    "valid_until": verified + timedelta(hours=rng.choice((4, 8, 12, 24, 48))),
                }
            )
        session.execute(insert(Flight), rows)
        notices: list[dict[str, Any]] = []
        for index in range(announcements):
            published = now - timedelta(minutes=rng.randint(30, 21 * 24 * 60))
            lapses = rng.random() < 0.3
            notices.append(
                {
                    "slug": f"bench-announcement-{index}",
                    "issuer_id": rng.choice(orgs),
                    "kind": rng.choice(list(AnnouncementKind)),
                    "published_at": published,
                    "verification": rng.choice(list(Verification)),
                    "valid_until": published + timedelta(days=rng.randint(1, 30))
                    if lapses
                    else None,
                    "title_en": f"Announcement {index}",
                    "title_prs": f"اعلامیه {index}",
                    "title_ps": f"اعلان {index}",
                    "text_en": "What was announced, in a few sentences.",
                    "text_prs": "آنچه اعلام شد، در چند جمله.",
                    "text_ps": "هغه څه چې اعلان شول، په څو جملو کې.",
                    "source_id": rng.choice(orgs),
                    "verified_at": published + timedelta(minutes=rng.randint(0, 120)),
                }
            )
        session.execute(insert(Announcement), notices)
        upcoming = session.scalars(
            select(Flight.flight_number)
            .where(Flight.departs_at > now, Flight.valid_until > now)
            .order_by(Flight.departs_at)
            .limit(1)
        ).one()
    return upcoming


def clock(now: datetime) -> Callable[[], datetime]:
    return lambda: now


async def measure(scenario: Scenario, now: datetime, runs: int) -> list[float]:
    """Milliseconds per ``run()``, after a few warm-up runs (connection pool, SQL compile cache)."""
    action = scenario.action(clock=clock(now))
    trackers = [tracker(language, scenario.entities) for language in LANGUAGES]
    for state in trackers:
        await action.run(CollectingDispatcher(), state, {})
    timings: list[float] = []
    for index in range(runs):
        dispatcher = CollectingDispatcher()
        state = trackers[index % len(trackers)]
        started = time.perf_counter()
        await action.run(dispatcher, state, {})
        timings.append((time.perf_counter() - started) * 1000)
        if not dispatcher.messages:
            raise RuntimeError(f"{scenario.name}: the action sent nothing")
    return timings


def profile(scenario: Scenario, now: datetime, runs: int) -> None:
    """Where one scenario's answers spend their time, to stderr.

    Profiles the part ``run()`` hands to a worker thread (reading and formatting), called
    directly: cProfile sees only the thread it is enabled in.
    """
    action = scenario.action(clock=clock(now))
    trackers = [tracker(language, scenario.entities) for language in LANGUAGES]
    profiler = cProfile.Profile()
    profiler.enable()
    for index in range(runs):
        language = LANGUAGES[index % len(LANGUAGES)]
        action.in_session(CollectingDispatcher(), trackers[index % len(trackers)], language, now)
    profiler.disable()
    pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(40)


def latency(timings: list[float]) -> Latency:
    cuts = statistics.quantiles(timings, n=100, method="inclusive")
    return Latency(p50=cuts[49], p95=cuts[94], p99=cuts[98])


@contextmanager
def sqlite_database() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="bench-content-") as directory:
        yield f"sqlite:///{Path(directory) / 'content.db'}"


@contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """A fresh schema in the given database, dropped with everything in it afterwards."""
    schema = f"bench_content_{uuid.uuid4().hex[:12]}"
    admin = db.create_content_engine(url)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield (
            make_url(url)
            .update_query_dict({"options": f"-csearch_path={schema}"})
            .render_as_string(hide_password=False)
        )
    finally:
        db.dispose_engine()
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def prepare(url: str, args: argparse.Namespace) -> tuple[datetime, str]:
    """Point the content database at ``url``, migrate and fill it; the benchmark's clock and an
    upcoming flight number."""
    os.environ[db.URL_ENV] = url
    engine = db.get_engine()
    upgrade_to_head(engine)
    now = datetime.now(timezone.utc).replace(microsecond=0)
    exact = fill(engine, now, args.flights, args.announcements, args.seed)
    if engine.dialect.name == "postgresql":
        # As autovacuum does within a minute of a bulk load; measured before it, the planner
        # guesses from no statistics at all. SQLite gets none: nothing analyses it in production.
        with engine.begin() as connection:
            connection.execute(text("ANALYZE"))
    return now, exact


def bench(url: str, args: argparse.Namespace) -> dict[str, Latency]:
    """Migrate and fill the database at ``url``, then time every scenario on it."""
    now, exact = prepare(url, args)
    day = (now + timedelta(days=2)).astimezone(KABUL).date().isoformat()
    results: dict[str, Latency] = {}
    for scenario in scenarios(day, exact):
        if args.profile and scenario.name != args.profile:
            continue
        if args.profile:
            profile(scenario, now, args.runs)
        results[scenario.name] = latency(asyncio.run(measure(scenario, now, args.runs)))
    db.dispose_engine()
    return results


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def table(results: dict[str, dict[str, Latency]], what: str = "action") -> str:
    """p50, p95 and p99 of each row (``what``: action, page) on each backend, in Markdown."""
    backends = list(results)
    header = f"| {what} | " + " | ".join(f"{b} p50 | {b} p95 | {b} p99" for b in backends) + " |"
    rule = "|---|" + "---:|" * (3 * len(backends))
    lines = [header, rule]
    for name in next(iter(results.values())):
        cells = []
        for backend in backends:
            figures = results[backend][name]
            cells += [f"{figures.p50:.1f}", f"{figures.p95:.1f}", f"{figures.p99:.1f}"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine() -> list[str]:
    """What a reader needs to weigh the figures: the machine, how busy it was, when."""
    load = ", ".join(f"{figure:.2f}" for figure in os.getloadavg())
    finished = datetime.now(timezone.utc)
    return [
        f"- Machine: {os.cpu_count()} CPUs (nproc), {cpu_model()}; {platform.platform()}",
        f"- Load average when done (1, 5, 15 min): {load}",
        f"- Python {platform.python_version()}; date {finished:%Y-%m-%d %H:%M} UTC",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=300, help="timed runs per action (300)")
    parser.add_argument("--postgres", metavar="URL", help="also run on a schema in this database")
    parser.add_argument("--flights", type=int, default=10_000)
    parser.add_argument("--announcements", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=2021, help="random seed of the data set")
    parser.add_argument("--profile", metavar="SCENARIO", help="profile one scenario (to stderr)")
    args = parser.parse_args(argv)

    results: dict[str, dict[str, Latency]] = {}
    with sqlite_database() as url:
        results["SQLite"] = bench(url, args)
    if args.postgres:
        with postgres_schema(args.postgres) as url:
            results["PostgreSQL"] = bench(url, args)

    slowest = max(figures.p95 for per in results.values() for figures in per.values())
    print("# Content actions: answer latency (ms)\n")
    print("\n".join(machine()))
    print(
        f"- Data: {args.flights} flights, {args.announcements} announcements + demo airports, "
        f"gates, guidance; {args.runs} runs per action through `run()`, languages rotated; "
        "PostgreSQL analysed after loading (as autovacuum would), SQLite not"
    )
    print(
        f"- Target p95 < {TARGET_P95_MS:.0f} ms: {'met' if slowest < TARGET_P95_MS else 'NOT met'} "
        f"(slowest p95 {slowest:.1f} ms)\n"
    )
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
