"""Fair lines benchmark: one person's flood cannot hold up the others of their line.

    make bench-fairness
    PYTHONPATH=. .venv/actions/bin/python scripts/bench_fairness.py [--flood 600] [--urgent 300] \
        [--paced 40]

Why: anyone with a Telegram account can send hundreds of messages in two seconds, and the
urgent words are public. With the intake's lines as they were, one chat's 600 questions held
up the sixteenth of everyone who shares its line for minutes, and 300 fake "my child is
bleeding" put themselves before other people's real urgent message, their STOP and their
"delete my data".

Two variants, each on its own fresh production stack (endpoints.production.yml: Redis Streams
intake, PostgreSQL tracker store and content database, 2 Rasa workers), the Telegram channel
and a fake Bot API on loopback:

- **every message in line**: ``INTAKE_IN_LINE_PER_PERSON=0``, ``INTAKE_JUMPS_PER_PERSON=0``,
  the line as it was (each message joins the end; every urgent one jumps), except that STOP and
  "delete my data" go before the urgent messages in both (the line as it was read them in one
  part with the urgent ones: 51 s behind 300 of them in the security probe);
- **each person their share**: the defaults (one message of a person in line at once, three
  urgent jumps per person in ten minutes).

Scenarios, one after the other, each once the line is empty:

1. **Baseline**: 12 people (6 in the flooder's line, 6 in others) ask one question each.
2. **Burst**: one chat sends ``--flood`` questions as fast as 40 connections take them; then
   the 12 people ask. Their answer times beside the baseline; when the notice of the wait
   reached those who waited longer than 10 s; the flood all answered, in the order sent.
3. **Urgent burst**: one chat sends ``--urgent`` "my child is bleeding help us N"; then three
   people of its line send an urgent message, STOP and "delete my data": their answer times.
4. **The provider's pace**: the fake Bot API now takes one message a second per chat, as
   Telegram does (429 ``retry_after`` 1); one chat sends ``--paced`` questions, then 6 people of
   its line ask: their answer times.

Exit 1 when the fair variant misses a target of docs/BENCHMARKS.md ("Fair lines").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import aiohttp

from kernel.partitions import partition_of
from scripts.fake_providers import CHANNEL_SECRETS, Window
from scripts.loadtest import setups
from scripts.loadtest.figures import cpu_model, percentile
from scripts.loadtest.redis_server import line_depth
from scripts.loadtest.telegram_people import (
    TELEGRAM_CONNECTIONS,
    Message,
    RecordingTelegram,
    conversation_ids,
    post,
    session,
    stored_turns,
)
from scripts.stack import ROOT, free_port, print_log_tails

CREDENTIALS = "bot.channels.telegram.TelegramInput:\n"
PARTITIONS = 16
#: Requests Telegram has open at once to a webhook (its default ``max_connections``).
CONNECTIONS = TELEGRAM_CONNECTIONS
FLOODER, URGENT_FLOODER, PACED_FLOODER = 500_001, 600_001, 700_001
QUESTION = "is abbey gate open?"
#: The targets: within this of the baseline's p95; the notice at 10 s ± 2 s.
WITHIN_SECONDS = 2.0
NOTICE_SECONDS, NOTICE_SLACK = 10.0, 2.0
#: Longest a scenario's line may take to empty before the next one starts.
DRAIN_SECONDS = 600.0
VARIANTS = {
    "every message in line": {"INTAKE_IN_LINE_PER_PERSON": "0", "INTAKE_JUMPS_PER_PERSON": "0"},
    "each person their share": {},
}


@dataclass
class Asked:
    """What one person sent in a scenario and when its answer (and a notice) reached them."""

    chat: int
    text: str
    sent: float = 0.0
    answer: float | None = None
    notice: float | None = None

    @property
    def seconds(self) -> float | None:
        return None if self.answer is None else self.answer - self.sent


@dataclass
class Variant:
    name: str
    baseline: list[Asked] = field(default_factory=list)
    burst: list[Asked] = field(default_factory=list)
    flood_answered: int = 0
    flood_in_order: bool = False
    flood_seconds: float = 0.0
    urgent: list[Asked] = field(default_factory=list)
    paced: list[Asked] = field(default_factory=list)


class Bench:
    def __init__(self, variant: str, setup: setups.Setup, key: str) -> None:
        self.variant = Variant(variant)
        self.setup = setup
        self.key = key
        self.telegram = RecordingTelegram()

    def line_of(self, chat: int) -> int:
        (sender,) = conversation_ids([chat], self.key.encode())
        return partition_of(sender, PARTITIONS)

    def people(self, beside: int, count: int, first: int, same_line: bool = True) -> list[int]:
        """``count`` chats from ``first`` on in ``beside``'s line (or not in it)."""
        line, chat = self.line_of(beside), first
        found: list[int] = []
        while len(found) < count:
            if (self.line_of(chat) == line) == same_line:
                found.append(chat)
            chat += 1
        return found

    async def send(self, chat: int, text: str) -> Message:
        async with session() as http:
            return await post(http, self.setup.stack.rasa_url, Message(chat, text, 0.0), "en")

    async def flood(self, chat: int, texts: list[str]) -> float:
        """``texts`` from ``chat`` by ``CONNECTIONS`` senders at once, each posting its share
        (every ``CONNECTIONS``-th text) one after the other: within a sender, the order sent
        is the order the webhook took them (``in_order``). Seconds it took."""
        started = time.monotonic()
        url = self.setup.stack.rasa_url

        async def sender(share: list[str], http: aiohttp.ClientSession) -> None:
            for text in share:
                message = await post(http, url, Message(chat, text, started), "en")
                if not message.accepted:
                    raise RuntimeError(f"a webhook of the flood answered {message.status}")

        async with session() as http:
            await asyncio.gather(*(sender(texts[n::CONNECTIONS], http) for n in range(CONNECTIONS)))
        return time.monotonic() - started

    async def ask(self, people: list[tuple[int, str]]) -> list[Asked]:
        """Each person sends one message at once; waits for every answer (at most 10 min)."""
        asked = [Asked(chat, text) for chat, text in people]
        waiters = []
        for one in asked:
            waiters.append(self.telegram.waiter(one.chat))
            one.sent = time.monotonic()
            message = await self.send(one.chat, one.text)
            if not message.accepted:
                raise RuntimeError(f"the webhook answered {message.status}")
        done, _ = await asyncio.wait(waiters, timeout=DRAIN_SECONDS)
        for one, waiter in zip(asked, waiters, strict=True):
            if waiter in done:
                one.answer = waiter.result().at
            notices = [
                r.at
                for r in self.telegram.received
                if r.to == str(one.chat) and self.telegram.is_notice(r.text)
            ]
            one.notice = next((at for at in notices if at >= one.sent), None)
        return asked

    async def emptied(self) -> float:
        """Seconds until the channel's line is empty, nothing parked (or ``DRAIN_SECONDS``)."""
        started = time.monotonic()
        env = self.setup.stack.extra_env
        port, db = int(env["REDIS_PORT"]), int(env["REDIS_DB"])
        while time.monotonic() - started < DRAIN_SECONDS:
            depth = await asyncio.to_thread(
                line_depth, port, env["REDIS_KEY_PREFIX"], "telegram", PARTITIONS, db
            )
            if not depth:
                break
            await asyncio.sleep(0.5)
        return time.monotonic() - started

    async def run(self, args: argparse.Namespace) -> Variant:
        v = self.variant
        same = self.people(FLOODER, 6, 900_000)
        other = self.people(FLOODER, 6, 910_000, same_line=False)
        print(f"[{v.name}] baseline", file=sys.stderr, flush=True)
        v.baseline = await self.ask([(chat, QUESTION) for chat in same + other])

        print(f"[{v.name}] burst of {args.flood}", file=sys.stderr, flush=True)
        texts = [f"when is the next flight to doha {n}" for n in range(1, args.flood + 1)]
        started = time.monotonic()
        await self.flood(FLOODER, texts)
        v.burst = await self.ask(
            [(chat, QUESTION) for chat in self.people(FLOODER, 6, 920_000)]
            + [(chat, QUESTION) for chat in self.people(FLOODER, 6, 930_000, same_line=False)]
        )
        await self.emptied()
        v.flood_seconds = time.monotonic() - started
        senders = conversation_ids([FLOODER], self.key.encode())
        assert self.setup.tracker_db is not None
        turns = stored_turns(self.setup.tracker_db, senders).get(FLOODER, [])
        numbers = [int(text.rsplit(" ", 1)[1]) for text, _, _ in turns if text in texts]
        v.flood_answered = len(set(numbers))
        v.flood_in_order = in_order(numbers)

        print(f"[{v.name}] urgent burst of {args.urgent}", file=sys.stderr, flush=True)
        urgent = [f"my child is bleeding help us {n}" for n in range(1, args.urgent + 1)]
        await self.flood(URGENT_FLOODER, urgent)
        victims = self.people(URGENT_FLOODER, 3, 940_000)
        v.urgent = await self.ask(
            list(zip(victims, ("my brother is injured at the gate, urgent", "STOP",
                               "delete my data"), strict=True))
        )  # fmt: skip
        await self.emptied()

        print(f"[{v.name}] {args.paced} at the provider's pace", file=sys.stderr, flush=True)
        self.telegram._windows["telegram"] = Window(None, per_recipient=1)
        await self.flood(PACED_FLOODER, [f"where is the office {n}" for n in range(args.paced)])
        v.paced = await self.ask(
            [(chat, QUESTION) for chat in self.people(PACED_FLOODER, 6, 950_000)]
        )
        await self.emptied()
        return v


async def run_variant(name: str, args: argparse.Namespace, model: Path, work: Path) -> Variant:
    setup = setups.production(model, work, args.pg_admin_url, args.redis_url, 2, 1)
    key = os.urandom(24).hex()
    bench = Bench(name, setup, key)
    provider_url = await bench.telegram.start(free_port())
    credentials = work / "credentials.yml"
    credentials.write_text(CREDENTIALS, encoding="utf-8")
    stack = setup.stack
    stack.credentials = credentials
    stack.extra_env.update(
        {
            **{k: v for k, v in CHANNEL_SECRETS.items() if k.startswith("TELEGRAM")},
            **RecordingTelegram.environment(provider_url),
            "CHANNEL_INTAKE": "queue",
            "INTAKE_PARTITIONS": str(PARTITIONS),
            "CONVERSATION_ID_KEY": key,
            **VARIANTS[name],
        }
    )
    try:
        print(f"[{name}] starting ...", file=sys.stderr, flush=True)
        await asyncio.to_thread(stack.start, 300)
        result = await bench.run(args)
        stack.check_alive()
        return result
    except BaseException:
        print_log_tails(stack.log_dir)
        raise
    finally:
        await asyncio.to_thread(stack.stop)
        await bench.telegram.stop()
        setup.cleanup()


def in_order(numbers: list[int]) -> bool:
    """Whether each sender's share of the flood (text ``n`` went by sender ``(n - 1) %
    CONNECTIONS``) was taken in the order that sender sent it."""
    by_sender: dict[int, list[int]] = {}
    for number in numbers:
        by_sender.setdefault((number - 1) % CONNECTIONS, []).append(number)
    return all(taken == sorted(taken) for taken in by_sender.values())


# --- report ---------------------------------------------------------------------------------


def seconds(asked: list[Asked]) -> list[float]:
    return [one.seconds if one.seconds is not None else float("inf") for one in asked]


def figures(asked: list[Asked]) -> str:
    times = seconds(asked)
    return f"{percentile(times, 0.5):.1f} / {percentile(times, 0.95):.1f} / {max(times):.1f}"


def late_notices(asked: list[Asked]) -> tuple[int, int]:
    """Of those who waited longer than the notice's time: how many, and how many were told
    outside 10 s ± 2 s (or not at all)."""
    waited = [one for one in asked if (one.seconds or float("inf")) > NOTICE_SECONDS + NOTICE_SLACK]
    off = [
        one
        for one in waited
        if one.notice is None or abs(one.notice - one.sent - NOTICE_SECONDS) > NOTICE_SLACK
    ]
    return len(waited), len(off)


def misses(v: Variant) -> list[str]:
    found = []
    baseline = percentile(seconds(v.baseline), 0.95)
    if percentile(seconds(v.burst), 0.95) > baseline + WITHIN_SECONDS:
        found.append("burst: others' p95 more than 2 s over the baseline")
    if late_notices(v.burst)[1]:
        found.append("burst: a notice not at 10 s ± 2 s")
    if not v.flood_in_order or v.flood_answered == 0:
        found.append("burst: the flood not all answered in order")
    if max(seconds(v.urgent)) > WITHIN_SECONDS + baseline:
        found.append("urgent burst: an urgent message, STOP or delete later than 2 s")
    if percentile(seconds(v.paced), 0.95) > baseline + WITHIN_SECONDS:
        found.append("provider's pace: others' p95 more than 2 s over the baseline")
    return found


def report(variants: list[Variant], args: argparse.Namespace) -> str:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "## Fair lines (`make bench-fairness`)",
        "",
        f"{now}, {platform.node()}, {cpu_model()}, {os.cpu_count()} cores. Production profile "
        f"(Redis Streams intake, {PARTITIONS} lines, 2 Rasa workers), Telegram, fake Bot API. "
        "Answer times in seconds, p50 / p95 / max, from the webhook's 200 to the answer's "
        "arrival at the Bot API.",
        "",
        f"| | baseline (12 people) | after {args.flood} from one chat: others (12) | "
        "same line / other lines max | waited > 12 s: told off time | flood answered, in order | "
        f"after {args.urgent} urgent: urgent, STOP, delete | "
        f"after {args.paced} at 1/s per chat: same line (6) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for v in variants:
        same, others = v.burst[:6], v.burst[6:]
        waited, off = late_notices(v.burst)
        urgent = ", ".join(f"{s:.1f}" for s in seconds(v.urgent))
        lines.append(
            f"| {v.name} | {figures(v.baseline)} | {figures(v.burst)} | "
            f"{max(seconds(same)):.1f} / {max(seconds(others)):.1f} | {waited}: {off} | "
            f"{v.flood_answered} of {args.flood} in {v.flood_seconds:.0f} s, "
            f"{'in order' if v.flood_in_order else 'OUT OF ORDER'} | {urgent} | "
            f"{figures(v.paced)} |"
        )
    lines.append("")
    for v in variants:
        missed = misses(v)
        lines.append(f"- {v.name}: " + ("every target met" if not missed else "; ".join(missed)))
    return "\n".join(lines) + "\n"


async def run_all(args: argparse.Namespace, model: Path, work: Path) -> list[Variant]:
    return [await run_variant(name, args, model, work) for name in VARIANTS]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--flood", type=int, default=600)
    parser.add_argument("--urgent", type=int, default=300)
    parser.add_argument("--paced", type=int, default=40)
    parser.add_argument("--model", type=Path, default=ROOT / "models" / "assistant.tar.gz")
    parser.add_argument(
        "--pg-admin-url",
        default=os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/test"),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/1")
    )
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench-fairness.md")
    args = parser.parse_args()
    if not args.model.exists():
        parser.error(f"{args.model} is missing: run `make train`")
    with tempfile.TemporaryDirectory(prefix="bench-fairness-") as tmp:
        work = Path(tmp)
        model = work / "assistant.tar.gz"
        shutil.copy2(args.model, model)
        variants = asyncio.run(run_all(args, model, work))
    text = report(variants, args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 1 if misses(variants[-1]) else 0


if __name__ == "__main__":
    sys.exit(main())
