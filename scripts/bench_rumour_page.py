"""Can a few web chat senders flood "Rumours people ask about"? A security test's flood, replayed.

    PYTHONPATH=. .venv/actions/bin/python scripts/bench_rumour_page.py \
        [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test]

A real rumour nobody checked yet ("the taliban will close the torkham border on friday") is
asked by five people on Telegram and WhatsApp over seven hours. Then web chat senders, each
from an address of its own, send the same 55 made-up rumours ("is it true that the mirogi
lomidar will belgidar every rogidar at gishaka tomorrow"), each unlike the others so that each
makes a group of its own, 165 turns in 9 seconds: three senders, then five.

Every turn goes through the action server's own path: ``action_check_claim``'s ``run()`` on a
tracker as Rasa hands it over (the message, its channel, the person tag its channel put in the
metadata), which stores the unchecked rumour with ``store_unanswered``. The page is then read
twice: the stock rule (a plain query: 3 conversations or more, newest first, 50 shown) and the
console's own (``asked.page``: people, two channels or six hours, most people first). Prints
Markdown; exits 1 when the real rumour is not first under the new rule. A temporary SQLite
database (and, with ``--postgres``, a temporary schema dropped afterwards), migrated and seeded
with the demo content, as the tests' is.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rasa_sdk import Tracker  # noqa: E402
from rasa_sdk.executor import CollectingDispatcher  # noqa: E402
from sqlalchemy import desc, distinct, func, select  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from actions.chat.claims import ActionCheckClaim  # noqa: E402
from actions.claims import asked  # noqa: E402
from actions.content import db  # noqa: E402
from actions.content.asks import Ask, AskAbout  # noqa: E402
from actions.content.migrate import upgrade_to_head  # noqa: E402
from actions.content.seed.loader import read_file  # noqa: E402
from actions.publishing import load  # noqa: E402
from scripts.bench_content import cpu_model, postgres_schema, sqlite_database  # noqa: E402
from scripts.conversations import said  # noqa: E402

#: The stock page: 3 conversations or more, newest first, the 50 newest groups.
OLD_MIN_CONVERSATIONS: Final = 3
#: The flood: 55 made-up rumours from each sender, all of it within 9 seconds.
MADE_UP: Final = 55
FLOOD: Final = timedelta(seconds=9)
#: The real rumour: who asked it, on which channel, in which words, hours apart.
REAL: Final = (
    ("telegram", "is it true that the taliban will close the torkham border on friday"),
    ("telegram", "is it true that the taliban will close the torkham border on friday"),
    ("whatsapp", "is it true the taliban close torkham border friday"),
    ("telegram", "is it true the taliban close torkham border friday"),
    ("telegram", "i heard the taliban will close torkham on friday, is it true"),
)
REAL_APART: Final = timedelta(hours=1, minutes=45)
#: The made-up words' syllables (some twice: they come up more often).
_SYLLABLES: Final = (
    "mi", "ro", "gi", "lo", "mi", "dar", "bel", "gid", "ro", "gi", "sha", "ka",
    "ve", "nu", "tas", "pel", "or", "kin", "zu", "fa", "bri", "mo", "lek", "sut",
    "hav", "ni", "dro", "pem", "qui", "yar", "tol", "bas", "nef", "gur", "wix", "lan",
)  # fmt: skip


#: The NLU reads each of these as "is this true?".
CHECK: Final = "check_claim"


def made_up_word(rng: random.Random) -> str:
    """A word nobody says: three syllables."""
    return "".join(rng.choice(_SYLLABLES) for _ in range(3))


def made_up_rumours(count: int = MADE_UP, seed: int = 2021) -> list[str]:
    """The flood's kind of nonsense: one frame, made-up words in it, a different set each."""
    rng = random.Random(seed)
    return [
        f"is it true that the {made_up_word(rng)} {made_up_word(rng)} will "
        f"{made_up_word(rng)} every {made_up_word(rng)} at {made_up_word(rng)} tomorrow"
        for _ in range(count)
    ]


async def asks_about(tracker: Tracker, at: datetime) -> None:
    """One turn through ``action_check_claim``, at ``at``."""
    await ActionCheckClaim(clock=lambda: at).run(CollectingDispatcher(), tracker, {})


async def replay(start: datetime, senders: int, rumours: list[str]) -> datetime:
    """The real rumour over seven hours before ``start``, then ``senders`` web chat senders
    sending every one of ``rumours`` in turn within :data:`FLOOD`; when the flood ended."""
    for n, (channel, text) in enumerate(REAL):
        at = start - (len(REAL) - n) * REAL_APART
        await asks_about(
            said(
                text, "en", channel, CHECK, sender=f"{channel}-real-{n}", person=f"real-person-{n}"
            ),
            at,
        )
    turns = senders * len(rumours)
    step = FLOOD / turns
    for index in range(turns):
        sender, rumour = index % senders, rumours[index // senders]
        tracker = said(
            rumour,
            "en",
            "webchat",
            CHECK,
            sender=f"webchat-flood-{sender}",
            person=f"flood-address-{sender}",
        )
        await asks_about(tracker, start + index * step)
    return start + FLOOD


@dataclass(frozen=True)
class Seen:
    """What the page showed: the real rumour's rank (None: not shown), how many made-up groups,
    how long reading it took."""

    rank: int | None
    made_up: int
    shown: int
    milliseconds: float


def real_group(session: Session) -> set[str]:
    """The group keys the real rumour's asks went to (one, if the grouping works)."""
    real = Ask.conversation_id.like("%-real-%")
    return set(session.scalars(select(distinct(Ask.group_key)).where(real)))


def stock_page(session: Session, real: set[str]) -> Seen:
    """The stock rule, as a plain query: 3 conversations or more, newest first, 50 groups."""
    started = time.perf_counter()
    conversations = func.count(distinct(Ask.conversation_id))
    keys = list(
        session.scalars(
            select(Ask.group_key)
            .where(Ask.about == AskAbout.CLAIM, Ask.claim_id.is_(None))
            .group_by(Ask.group_key)
            .having(conversations >= OLD_MIN_CONVERSATIONS)
            .order_by(desc(func.max(Ask.asked_at)), Ask.group_key)
            .limit(asked.SHOWN_GROUPS)
        )
    )
    return _seen(keys, real, started)


def console_page(session: Session, real: set[str], now: datetime) -> Seen:
    """The console's first page of "Rumours people ask about" (``asked.page``)."""
    started = time.perf_counter()
    page = asked.page(session, AskAbout.CLAIM, now, 1, asked.SHOWN_GROUPS, 1)
    return _seen([group.group_key for group in page.groups], real, started)


def _seen(keys: list[str], real: set[str], started: float) -> Seen:
    milliseconds = (time.perf_counter() - started) * 1000
    rank = next((n for n, key in enumerate(keys, 1) if key in real), None)
    return Seen(rank, sum(key not in real for key in keys), len(keys), milliseconds)


@dataclass(frozen=True)
class Outcome:
    backend: str
    senders: int
    turns: int
    groups_made: int
    real_groups: int
    stock: Seen
    console: Seen


def run_attack(url: str, backend: str, senders: int, rumours: list[str]) -> Outcome:
    """A fresh database at ``url``: migrated, the demo seeded, the attack replayed, then the
    page read both ways."""
    os.environ[db.URL_ENV] = url
    engine = db.get_engine()
    upgrade_to_head(engine)
    start = datetime.now(timezone.utc).replace(microsecond=0)
    with Session(engine) as session, session.begin():
        load(session, read_file(), start - timedelta(days=1))
    ended = asyncio.run(replay(start, senders, rumours))
    with Session(engine) as session:
        real = real_group(session)
        flood = Ask.conversation_id.like("webchat-flood-%")
        made = session.scalar(select(func.count(distinct(Ask.group_key))).where(flood)) or 0
        outcome = Outcome(
            backend,
            senders,
            senders * len(rumours),
            int(made),
            len(real),
            stock_page(session, real),
            console_page(session, real, ended + timedelta(minutes=1)),
        )
    db.dispose_engine()
    return outcome


def rank(seen: Seen) -> str:
    return f"{seen.rank} of {seen.shown}" if seen.rank is not None else f"not shown ({seen.shown})"


def report(outcomes: list[Outcome]) -> str:
    load = ", ".join(f"{figure:.2f}" for figure in os.getloadavg())
    lines = [
        '# "Rumours people ask about" under a flood of made-up rumours',
        "",
        f"- Date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; machine {platform.node()}, "
        f"{os.cpu_count()} CPUs, {cpu_model()}; load average {load}; "
        f"Python {platform.python_version()}",
        f"- Real rumour: {len(REAL)} people (telegram, whatsapp), {REAL_APART} apart; flood: "
        f"{MADE_UP} made-up rumours from each web chat sender (one address each) within "
        f"{FLOOD.seconds} s, every turn through `action_check_claim`",
        f"- Stock: {OLD_MIN_CONVERSATIONS}+ conversations, newest first, "
        f"{asked.SHOWN_GROUPS} shown. New: `asked.page` (5+ people, two channels or 6 h, "
        "most people first), its first page",
        "",
        "| backend | senders | turns | made-up groups made | real rumour's groups "
        "| stock: real rumour | stock: made-up shown | new: real rumour | new: made-up shown "
        "| stock ms | new ms |",
        "|---|---:|---:|---:|---:|---|---:|---|---:|---:|---:|",
    ]
    for o in outcomes:
        lines.append(
            f"| {o.backend} | {o.senders} | {o.turns} | {o.groups_made} | {o.real_groups} "
            f"| {rank(o.stock)} | {o.stock.made_up} | {rank(o.console)} | {o.console.made_up} "
            f"| {o.stock.milliseconds:.1f} | {o.console.milliseconds:.1f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", metavar="URL", help="also run on a schema in this database")
    parser.add_argument("--senders", default="3,5", help="flooding senders per run (3,5)")
    parser.add_argument("--rumours", type=int, default=MADE_UP, help="made-up rumours (55)")
    args = parser.parse_args(argv)
    rumours = made_up_rumours(args.rumours)
    outcomes: list[Outcome] = []
    for senders in (int(n) for n in args.senders.split(",")):
        with sqlite_database() as url:
            outcomes.append(run_attack(url, "SQLite", senders, rumours))
        if args.postgres:
            with postgres_schema(args.postgres) as url:
                outcomes.append(run_attack(url, "PostgreSQL", senders, rumours))
    print(report(outcomes))
    first = all(o.console.rank == 1 for o in outcomes)
    if not first:
        print("\nThe real rumour is NOT first under the new rule.", file=sys.stderr)
    return 0 if first else 1


if __name__ == "__main__":
    sys.exit(main())
