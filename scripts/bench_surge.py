"""Surge benchmark: the production profile on Telegram, pushed past what it can answer.

    make bench-surge [BENCH_SURGE_SECONDS=60] [BENCH_SURGE_FACTOR=3]
        [BENCH_SURGE_CAPACITY_SECONDS=30] [BENCH_SURGE_MODES=direct,queue]
    PYTHONPATH=. .venv/actions/bin/python scripts/bench_surge.py [--seconds 60] [--factor 3] \
        [--capacity-seconds 30] [--modes direct,queue] [--rasa-workers 2]

Why: on the day the airport closes, a helpline goes from hundreds to tens of thousands of
messages an hour in minutes. What matters then is that nobody's message is lost or answered
twice, that Telegram's webhook is answered before it gives up and sends again, and that people
who must wait are told so, in their language.

Each mode (``CHANNEL_INTAKE=direct``: the turn before the webhook's answer; ``queue``: the
answer at once, the turn from Redis Streams, bot/channels/intake/) runs on its own fresh
production stack (endpoints.production.yml: PostgreSQL tracker store, Redis lock store and
intake, ``--rasa-workers`` Rasa workers, one action server, PostgreSQL content database) with
the Telegram channel and a fake Bot API on loopback that records every ``sendMessage`` with its
time (scripts/loadtest/telegram_people.py):

1. **Closed loop** for ``--capacity-seconds`` after a 10-s warm-up: 40 people (Telegram's
   default ``max_connections``), each writing the next message once the last one was answered,
   a new person after five messages, in five slices (English, Dari and Pashto in Arabic script
   and romanized): the questions answered per second are the capacity.
2. **Surge**, open loop: messages arrive at ``--factor`` × the capacity of the first mode (the
   same load for every mode) for ``--seconds``, from distinct people, some of whom write two to
   four times a few seconds apart; every update signed with the webhook's secret header, at
   most 40 requests open at once, 60 s before one counts as failed (as Telegram does).
3. **Drain**: until every accepted message is stored with its answers, or no answer came for
   60 s.

Then every person's messages are matched with their turns in the tracker store. Reported per
mode: webhook latency (from the moment the message was due, waiting for one of the 40
connections included) and non-2xx answers; messages lost (never answered) and answered twice;
of the people who waited more than 10 s for their answer, and of those whose message waited
more than 10 s before a worker took it (what the notice is promised for), how many were told
of the wait before their answer;
for each notice, the wait it promised beside the wait that followed it (to the person's next
answer): how many named minutes within a factor of two of it, how many said "in a moment" and
were answered within three minutes;
the drain rate (answers per second once the arrivals stopped) against the closed-loop rate;
the peak RSS of every process, CPU per answered message. Exit 1 when a message was lost or
answered twice in the queue mode.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import aiohttp

from bot.channels.waits import SOON_SECONDS
from scripts.fake_providers import CHANNEL_SECRETS
from scripts.loadtest import profiling, setups
from scripts.loadtest.figures import cpu_model, percentile
from scripts.loadtest.processes import Sampler
from scripts.loadtest.telegram_people import (
    TELEGRAM_CONNECTIONS,
    Message,
    Person,
    RecordingTelegram,
    Tally,
    account,
    conversation_ids,
    distinct_texts,
    post,
    session,
    stored_messages,
    stored_turns,
    surge_people,
)
from scripts.loadtest.traffic import SLICES, read_messages
from scripts.stack import ROOT, free_port, print_log_tails

MODES = ("direct", "queue")
CREDENTIALS = "bot.channels.telegram.TelegramInput:\n"
WARMUP_SECONDS = 10.0
#: Messages of one closed-loop person before the next person takes their place.
CLOSED_LOOP_MESSAGES = 5
#: The backlog is taken as answered when every accepted message is stored and no answer came for
#: 3 s, or when no answer came for this long (a stalled stack: its messages count as lost).
QUIET_SECONDS = 60.0


@dataclass
class Phase:
    """One phase's people, from when to when it sent, and what the store holds of them."""

    people: list[Person]
    started: float
    ended: float
    tally: Tally = field(default_factory=Tally)

    @property
    def messages(self) -> list[Message]:
        return [m for p in self.people for m in p.messages]

    def answered_in(self, start: float, end: float) -> int:
        return sum(
            1 for m in self.messages if m.answered_at is not None and start <= m.answered_at < end
        )


@dataclass
class ModeResult:
    mode: str
    capacity: float
    closed: Phase
    surge: Phase
    rate: float
    drain_seconds: float
    cpu: dict[str, float]
    sampler: Sampler
    description: str
    #: py-spy samples of Rasa's processes per stage during the arrivals (``--profile``).
    profile: Counter[str] | None = None

    @property
    def last_answer(self) -> float:
        times = [m.answered_at for m in self.surge.messages if m.answered_at is not None]
        return max(times, default=self.surge.ended)

    @property
    def drain_rate(self) -> float:
        """Answers per second from the end of the arrivals to the last answer."""
        span = self.last_answer - self.surge.ended
        if span <= 1.0:
            return float("nan")
        return self.surge.answered_in(self.surge.ended, self.last_answer + 1e-6) / span


class Run:
    """One mode on its own stack; the fake Bot API lives in this process's event loop."""

    def __init__(self, mode: str, setup: setups.Setup, args: argparse.Namespace) -> None:
        self.mode = mode
        self.setup = setup
        self.args = args
        self.telegram = RecordingTelegram()
        self.messages = read_messages()
        self.key = os.urandom(24).hex()
        self._memory_task: asyncio.Task[None] | None = None

    def configure(self, provider_url: str, work: Path) -> None:
        credentials = work / f"credentials-{self.mode}.yml"
        credentials.write_text(CREDENTIALS, encoding="utf-8")
        stack = self.setup.stack
        stack.credentials = credentials
        stack.extra_env.update(
            {
                **{k: v for k, v in CHANNEL_SECRETS.items() if k.startswith("TELEGRAM")},
                **RecordingTelegram.environment(provider_url),
                "CHANNEL_INTAKE": self.mode,
                "CONVERSATION_ID_KEY": self.key,
            }
        )

    async def closed_loop(self, first_chat: int) -> tuple[Phase, float]:
        """``TELEGRAM_CONNECTIONS`` people writing one message after another; questions/s."""
        people: list[Person] = []
        url = self.setup.stack.rasa_url
        start = time.monotonic()
        window = (start + WARMUP_SECONDS, start + WARMUP_SECONDS + self.args.capacity_seconds)

        async def person_after_person(index: int, http: aiohttp.ClientSession) -> None:
            rng = random.Random(1000 + index)
            number = 0
            while time.monotonic() < window[1]:
                chat = first_chat + index * 1000 + number
                number += 1
                slice_name = SLICES[(index + number) % len(SLICES)]
                person = Person(chat, slice_name)
                people.append(person)
                texts = distinct_texts(rng, slice_name, self.messages[slice_name], 5)
                for text in texts[:CLOSED_LOOP_MESSAGES]:
                    if time.monotonic() >= window[1]:
                        return
                    message = Message(chat, text, time.monotonic())
                    person.messages.append(message)
                    answered = self.telegram.waiter(chat)
                    await post(http, url, message, slice_name)
                    if message.accepted:
                        with contextlib.suppress(asyncio.TimeoutError):
                            await asyncio.wait_for(answered, 60)

        async with session() as http:
            await asyncio.gather(
                *(person_after_person(i, http) for i in range(TELEGRAM_CONNECTIONS))
            )
        phase = Phase(people, start, time.monotonic())
        await self._settle(phase)
        self.tally(phase)
        answered = phase.answered_in(*window)
        return phase, answered / self.args.capacity_seconds

    async def surge(self, rate: float, first_chat: int) -> tuple[Phase, float]:
        """Arrivals at ``rate`` per second for ``--seconds``; then the drain."""
        start = time.monotonic() + 1.0
        people = surge_people(
            random.Random(7), self.messages, rate, self.args.seconds, first_chat, start
        )
        due = sorted(
            ((m, p.slice_name) for p in people for m in p.messages), key=lambda x: x[0].due
        )
        url = self.setup.stack.rasa_url
        async with session() as http:
            calls = []
            for message, slice_name in due:
                await asyncio.sleep(max(0.0, message.due - time.monotonic()))
                calls.append(asyncio.create_task(post(http, url, message, slice_name)))
            ended = time.monotonic()
            await asyncio.gather(*calls)
        phase = Phase(people, start, ended)
        drained = await self._settle(phase)
        return phase, drained

    async def _settle(self, phase: Phase) -> float:
        """Waits until every accepted message of the phase has its turn stored and its answers
        stopped coming, or nothing came for ``QUIET_SECONDS``; seconds after the arrivals."""
        chats = {p.chat for p in phase.people}
        senders = conversation_ids(chats, self.key.encode())
        accepted = sum(m.accepted for m in phase.messages)
        assert self.setup.tracker_db is not None
        deadline = time.monotonic() + self.args.drain_limit
        last_count, last_change = -1, time.monotonic()
        while time.monotonic() < deadline:
            answers = sum(
                1
                for r in self.telegram.received
                if r.to.lstrip("-").isdigit()
                and int(r.to) in chats
                and not self.telegram.is_notice(r.text)
            )
            if answers != last_count:
                last_count, last_change = answers, time.monotonic()
            quiet = time.monotonic() - last_change
            if quiet > QUIET_SECONDS:
                break
            if quiet > 3.0:
                stored = await asyncio.to_thread(
                    stored_messages, self.setup.tracker_db, list(senders)
                )
                if stored >= accepted:
                    break
            await asyncio.sleep(1.0)
        return time.monotonic() - phase.ended

    def tally(self, phase: Phase) -> None:
        senders = conversation_ids((p.chat for p in phase.people), self.key.encode())
        assert self.setup.tracker_db is not None
        turns = stored_turns(self.setup.tracker_db, senders)
        phase.tally = account(phase.people, self.telegram, turns)

    async def watch_memory(self, sampler: Sampler) -> None:
        while True:
            sampler.sample()
            await asyncio.sleep(1.0)


async def run_mode(
    mode: str, args: argparse.Namespace, model: Path, work: Path, rate: float | None
) -> ModeResult:
    setup = setups.production(
        model, work, args.pg_admin_url, args.redis_url, args.rasa_workers, args.action_workers
    )
    run = Run(mode, setup, args)
    port = free_port()
    provider_url = await run.telegram.start(port)
    run.configure(provider_url, work)
    stack = setup.stack
    try:
        print(f"[{mode}] starting ...", file=sys.stderr, flush=True)
        await asyncio.to_thread(stack.start, 300)
        sampler = Sampler({name: p.pid for name, p in stack.processes().items()})
        memory = asyncio.create_task(run.watch_memory(sampler))
        closed, capacity = await run.closed_loop(first_chat=1_000_000)
        print(f"[{mode}] closed loop: {capacity:.1f} questions/s", file=sys.stderr, flush=True)
        offered = rate if rate is not None else args.factor * capacity
        sampler.start_window()
        spies = start_profiles(mode, sampler, args)
        surge, drained = await run.surge(offered, first_chat=50_000_000)
        sampler.end_window()
        for spy in spies.values():
            await asyncio.to_thread(spy.wait)
        memory.cancel()
        print(f"[{mode}] surge sent; drained {drained:.0f} s after", file=sys.stderr, flush=True)
        stack.check_alive()
        run.tally(surge)
    except BaseException:
        print_log_tails(stack.log_dir)
        raise
    finally:
        await asyncio.to_thread(stack.stop)
        await run.telegram.stop()
        setup.cleanup()
    profile = profiling.stages(list(spies), "rasa") if spies else None
    return ModeResult(
        mode,
        capacity,
        closed,
        surge,
        offered,
        drained,
        sampler.cpu_seconds(),
        sampler,
        setup.description,
        profile,
    )


def start_profiles(
    mode: str, sampler: Sampler, args: argparse.Namespace
) -> dict[Path, subprocess.Popen[bytes]]:
    """py-spy on every Rasa process for the surge's arrivals (``--profile``)."""
    if args.profile is None:
        return {}
    args.profile.mkdir(parents=True, exist_ok=True)
    spies = {}
    for label, pid in sampler.processes():
        if label.startswith("rasa"):
            path = args.profile / f"surge-{mode}-{label.replace(' ', '-')}.txt"
            path.unlink(missing_ok=True)
            spies[path] = profiling.record(pid, max(1, int(args.seconds) - 1), path)
    return spies


# --- report ---------------------------------------------------------------------------------


def report(results: list[ModeResult], args: argparse.Namespace) -> str:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load1, load5, load15 = os.getloadavg()
    lines = [
        f"**Run:** {now}, {os.cpu_count()} cores ({cpu_model()}), Python "
        f"{platform.python_version()}; load average at the end {load1:.2f} / {load5:.2f} / "
        f"{load15:.2f} (1 / 5 / 15 min).",
        f"**Setup:** {results[0].description if results else ''}; Telegram channel, fake Bot "
        "API on loopback (no rate limit).",
        f"**Load:** closed loop {args.capacity_seconds:.0f} s ({TELEGRAM_CONNECTIONS} people), "
        f"then {args.factor:g} × the first mode's capacity for {args.seconds:.0f} s, open loop.",
        "",
        "| mode | closed loop q/s | offered /s | messages | webhook p50 ms | p95 ms | p99 ms "
        "| non-2xx | lost | answered twice | waited > 10 s | told first "
        "| waited > 10 s in line | told first | drain /s | "
        "drain ÷ closed loop | answer p50 s | answer p95 s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        messages = r.surge.messages
        hooks = [1000 * m.webhook_seconds for m in messages if m.webhook_seconds is not None]
        waits = [m.answered_at - m.due for m in messages if m.answered_at is not None]
        t = r.surge.tally
        ratio = r.drain_rate / r.capacity if r.capacity else float("nan")
        lines.append(
            f"| {r.mode} | {r.capacity:.1f} | {r.rate:.1f} | {t.messages} "
            f"| {percentile(hooks, 0.5):.0f} | {percentile(hooks, 0.95):.0f} "
            f"| {percentile(hooks, 0.99):.0f} | {t.refused} | {t.lost} | {t.twice} "
            f"| {t.waited_long} | {t.waited_long_noticed} | {t.waited_long_in_line} "
            f"| {t.waited_long_in_line_noticed} | {r.drain_rate:.1f} | {ratio:.2f} "
            f"| {percentile(waits, 0.5):.1f} | {percentile(waits, 0.95):.1f} |"
        )
    for r in results:
        t = r.surge.tally
        within, named, soon, moments = t.promises_kept()
        if named or moments:
            ratios = t.promised_over_waited
            spread = (
                f"; promised ÷ waited p5 {percentile(ratios, 0.05):.2f}, p50 "
                f"{percentile(ratios, 0.5):.2f}, p95 {percentile(ratios, 0.95):.2f}"
                if ratios
                else ""
            )
            lines.append(
                f"\n{r.mode}: of the {named} notices that named minutes, {within} were within a "
                f"factor of two of the wait that followed{spread}; of the {moments} that said "
                f'"in a moment", {soon} were answered within {2 * SOON_SECONDS:.0f} s.'
            )
        if t.untold_answered:
            lines.append(
                f"\n{r.mode}: the {len(t.untold_answered)} who waited > 10 s and were not told "
                f"first were taken after p50 {percentile(t.untold_in_line, 0.5):.1f} s (max "
                f"{max(t.untold_in_line):.1f}) in line and answered after p50 "
                f"{percentile(t.untold_answered, 0.5):.1f} s (max {max(t.untold_answered):.1f})."
            )
    lines += [
        "",
        "| mode | phase | people | messages | not 2xx, never answered | notices sent "
        "| people whose sends and turns do not line up | drained after the arrivals s |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        for name, phase in (("closed loop", r.closed), ("surge", r.surge)):
            t = phase.tally
            drain = f"{r.drain_seconds:.0f}" if phase is r.surge else ""
            lines.append(
                f"| {r.mode} | {name} | {len(phase.people)} | {t.messages} "
                f"| {t.refused_unanswered} | {t.notices} | {t.unmatched_people} | {drain} |"
            )
    lines += _cpu_and_memory(results)
    for r in results:
        lines += _profile(r)
    return "\n".join(lines) + "\n"


def _profile(r: ModeResult) -> list[str]:
    """Each stage's share of Rasa's py-spy samples during the arrivals."""
    if not r.profile:
        return []
    total = sum(r.profile.values())
    answered = max(1, sum(1 for m in r.surge.messages if m.answered_at is not None))
    cpu_ms = 1000 * r.cpu.get("rasa", 0.0) / answered
    lines = [
        "",
        f"Where Rasa's time goes during the arrivals ({r.mode}; py-spy, {total} samples; "
        f"{cpu_ms:.1f} ms of CPU per answered message):",
        "",
        "| stage | share of the samples | ≈ CPU ms per message |",
        "|---|---:|---:|",
    ]
    for stage, count in r.profile.most_common():
        share = count / total
        lines.append(f"| {stage} | {100 * share:.0f} % | {share * cpu_ms:.1f} |")
    return lines


def _cpu_and_memory(results: list[ModeResult]) -> list[str]:
    lines = [
        "",
        "CPU per answered surge message, ms, and peak memory per process, MB:",
        "",
        "| mode | Rasa CPU | action server CPU | PostgreSQL + Redis CPU | load client + fake API "
        "| process | peak RSS | peak PSS |",
        "|---|---:|---:|---:|---:|---|---:|---:|",
    ]
    for r in results:
        answered = max(1, sum(1 for m in r.surge.messages if m.answered_at is not None))
        cpu = [
            1000 * r.cpu.get(name, 0.0) / answered
            for name in ("rasa", "actions", "PostgreSQL + Redis", "load client")
        ]
        first = True
        for label, rss in r.sampler.peak_rss.items():
            head = " | ".join(f"{c:.1f}" for c in cpu) if first else " | | |"
            lines.append(
                f"| {r.mode if first else ''} | {head} | {label} | {rss:.0f} "
                f"| {r.sampler.peak_pss.get(label, 0.0):.0f} |"
            )
            first = False
    return lines


def verdict(results: list[ModeResult]) -> int:
    """1 when the queue lost or doubled a message."""
    queued = [r for r in results if r.mode == "queue"]
    return 1 if any(r.surge.tally.lost or r.surge.tally.twice for r in queued) else 0


async def run_all(args: argparse.Namespace, model: Path, work: Path) -> list[ModeResult]:
    results: list[ModeResult] = []
    rate: float | None = args.rate
    for mode in args.modes:
        result = await run_mode(mode, args, model, work, rate)
        rate = result.rate  # every mode gets the first one's load
        results.append(result)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--modes", default=",".join(MODES), help="CHANNEL_INTAKE values, in order")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of the surge")
    parser.add_argument("--factor", type=float, default=3.0, help="surge rate ÷ capacity")
    parser.add_argument("--rate", type=float, help="messages per second (instead of --factor)")
    parser.add_argument("--capacity-seconds", type=float, default=30.0, help="closed loop, s")
    parser.add_argument("--drain-limit", type=float, default=600.0, help="longest drain, s")
    parser.add_argument("--rasa-workers", type=int, default=2, help="SANIC_WORKERS")
    parser.add_argument("--action-workers", type=int, default=1)
    parser.add_argument("--model", type=Path, default=ROOT / "models" / "assistant.tar.gz")
    parser.add_argument(
        "--pg-admin-url",
        default=os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/test"),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/1")
    )
    parser.add_argument("--profile", type=Path, help="py-spy Rasa's processes; raw files here")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench-surge.md")
    args = parser.parse_args()
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if unknown := set(args.modes) - set(MODES):
        parser.error(f"unknown modes: {', '.join(sorted(unknown))} (known: {', '.join(MODES)})")
    if not args.model.exists():
        parser.error(f"{args.model} is missing: run `make train`")
    if args.profile and profiling.py_spy() is None:
        parser.error("--profile needs py-spy: run `make setup` (requirements/actions.lock)")
    with tempfile.TemporaryDirectory(prefix="bench-surge-") as tmp:
        work = Path(tmp)
        model = work / "assistant.tar.gz"
        shutil.copy2(args.model, model)
        results = asyncio.run(run_all(args, model, work))
    text = report(results, args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return verdict(results)


if __name__ == "__main__":
    sys.exit(main())
