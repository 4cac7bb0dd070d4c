"""Load benchmark: many users holding conversations over the REST channel, full stack.

    make bench-load [BENCH_DURATION=60] [BENCH_CONCURRENCY=50] [BENCH_PROFILE=1]
    PYTHONPATH=. .venv/actions/bin/python scripts/bench_load.py [--duration 60] \
        [--concurrency 50] [--think-time 0] [--setups embedded,production,stock] \
        [--rasa-workers 2] [--action-workers 1] [--profile results/profile]

Why: in a surge one helpline goes from zero to millions of users in days; operators need to
know what one machine serves, what the production setup (PostgreSQL + Redis + several
workers, docs/OPERATIONS.md) costs and adds, and whether anything is lost on the way.

The setups run one after the other in the same run, on the same machine, with the same load:

* ``embedded`` — `make run`'s default: one Rasa process, in-memory tracker and lock stores,
  one action server, the SQLite content database;
* ``production`` — endpoints.production.yml: PostgreSQL tracker store and Redis lock store,
  ``--rasa-workers`` Rasa workers, ``--action-workers`` action-server workers, the content
  database on PostgreSQL (fresh databases, dropped afterwards);
* ``stock`` — stock Rasa on this project: ``rasa train`` with Rasa's whole default config
  (scripts/configs/rasa_stock.yml: DIET, TED, RulePolicy, ...) on our data and domain, trained
  when missing or older than them and kept under ``var/bench-load/stock-ours``, served by
  Rasa's own ``rasa run`` with in-memory stores and our action server.

``--concurrency`` simulated users each hold one conversation after another (5 to 8 turns:
greeting, questions about flights, the airport, announcements, documents, help, menu numbers,
thanks, goodbye), each in one of five language slices (English; Dari and Pashto in Arabic
script and romanized) with messages from the held-out NLU data, and send the next message as
soon as the reply arrives (or after ``--think-time`` seconds on average). The first
``--warmup`` seconds are not measured. Reported: turns per second, latency percentiles, errors
(HTTP errors, timeouts, empty replies), CPU per turn and peak memory of every process,
start-up to the first answer and model load time. Afterwards
every conversation is read back from the tracker store and checked (scripts/loadtest/verify.py);
the exit status is 1 if any turn was lost, applied twice or left unanswered.

With ``--profile DIR`` py-spy samples every process during the measured window and the report
adds where a turn's time goes (scripts/loadtest/profiling.py).
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
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import aiohttp

from scripts.loadtest import profiling, setups
from scripts.loadtest.figures import cpu_model, percentile
from scripts.loadtest.processes import Sampler
from scripts.loadtest.traffic import Load, Turn, read_messages, send
from scripts.loadtest.verify import Check, check_conversations, events_from_api, events_from_table
from scripts.stack import ROOT, print_log_tails

SETUPS = ("embedded", "production", "stock", "production-full-read")


@dataclass
class Result:
    setup: setups.Setup
    startup_seconds: float
    model_load_seconds: float
    turns: list[Turn]
    window: tuple[float, float]
    cpu: dict[str, float]
    sampler: Sampler
    check: Check
    #: Samples per stage and role ("rasa", "actions") when profiled.
    profile: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def measured(self) -> list[Turn]:
        """Turns sent in the measured window."""
        start, end = self.window
        return [t for t in self.turns if start <= t.started < end]

    @property
    def completed(self) -> int:
        """Turns answered in the measured window: what the throughput counts."""
        start, end = self.window
        return sum(
            1 for t in self.turns if t.error is None and start <= t.started + t.latency < end
        )

    @property
    def throughput(self) -> float:
        start, end = self.window
        return self.completed / (end - start)


async def first_answer(url: str) -> None:
    async with aiohttp.ClientSession() as session:
        turn = await send(session, url, f"startup-{uuid.uuid4().hex[:8]}", "hello")
    if turn.error:
        raise RuntimeError(f"the first message failed: {turn.error}")


async def run_setup(setup: setups.Setup, args: argparse.Namespace, load_seconds: float) -> Result:
    """Start the setup, load it, read every conversation back, stop it."""
    stack = setup.stack
    print(f"[{setup.name}] starting ...", file=sys.stderr, flush=True)
    started = time.monotonic()
    stack.start(timeout=300)
    try:
        await first_answer(stack.rasa_url)
        startup = time.monotonic() - started
        print(f"[{setup.name}] first answer after {startup:.1f} s", file=sys.stderr, flush=True)
        sampler = Sampler({name: p.pid for name, p in stack.processes().items()})
        prefix = f"bench{uuid.uuid4().hex[:8]}"
        load = Load(
            stack.rasa_urls,
            args.concurrency,
            args.warmup + args.duration,
            read_messages(),
            prefix,
            think_time=args.think_time,
        )
        window = (time.monotonic() + args.warmup, time.monotonic() + args.warmup + args.duration)
        spies: dict[str, list[Path]] = {}

        async def watch() -> None:
            await asyncio.sleep(max(0.0, window[0] - time.monotonic()))
            sampler.start_window()
            if args.profile:
                spies.update(start_profiles(setup, sampler, args))
            while time.monotonic() < window[1]:
                sampler.sample()
                await asyncio.sleep(min(1.0, max(0.0, window[1] - time.monotonic())))
            sampler.end_window()

        await asyncio.gather(load.run(), watch())
        stack.check_alive()
        print(f"[{setup.name}] {len(load.turns)} turns sent; reading the store", file=sys.stderr)
        if setup.tracker_db:
            events = events_from_table(setup.tracker_db, prefix)
        else:
            events = await events_from_api(stack.rasa_url, sorted({t.sender for t in load.turns}))
        check = check_conversations(load.turns, events)
    finally:
        stack.stop()
        setup.cleanup()
    profile = {
        role: dict(profiling.stages(files, "rasa" if role.startswith("rasa") else "actions"))
        for role, files in spies.items()
    }
    return Result(
        setup,
        startup,
        load_seconds,
        load.turns,
        window,
        sampler.cpu_seconds(),
        sampler,
        check,
        profile,
    )


def profiled_seconds(args: argparse.Namespace) -> int:
    """py-spy's whole seconds, ending before the window does."""
    return max(1, int(args.duration) - 1)


def start_profiles(
    setup: setups.Setup, sampler: Sampler, args: argparse.Namespace
) -> dict[str, list[Path]]:
    """py-spy on every process of the stack for the measured window; files per server."""
    files: dict[str, list[Path]] = {}
    args.profile.mkdir(parents=True, exist_ok=True)
    for label, pid in sampler.processes():
        path = args.profile / f"{setup.name}-{label.replace(' ', '-')}.txt"
        path.unlink(missing_ok=True)
        profiling.record(pid, profiled_seconds(args), path)
        files.setdefault(label.split(" worker")[0], []).append(path)
    return files


# --- report ---------------------------------------------------------------------------------


def report(results: list[Result], args: argparse.Namespace) -> str:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load1, load5, _ = os.getloadavg()
    lines = [
        f"**Run:** {now}, {os.cpu_count()} cores ({cpu_model()}), Python "
        f"{platform.python_version()}; load average at the end {load1:.2f} / {load5:.2f} "
        "(1 / 5 min).",
        f"**Load:** {args.concurrency} concurrent conversations, {args.duration:.0f} s measured "
        f"after {args.warmup:.0f} s warm-up, "
        + (f"{args.think_time:g} s mean think time" if args.think_time else "no think time")
        + "; held-out messages in en, prs and ps (Arabic script and romanized).",
        "",
        "| setup | turns/s | p50 ms | p95 ms | p99 ms | max ms | turns | errors "
        "| start-up to 1st answer s | model load s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        latencies = [t.latency * 1000 for t in r.measured if t.error is None]
        errors = sum(1 for t in r.measured if t.error)
        lines.append(
            f"| {r.setup.name} | {r.throughput:.1f} | {percentile(latencies, 0.5):.0f} "
            f"| {percentile(latencies, 0.95):.0f} | {percentile(latencies, 0.99):.0f} "
            f"| {max(latencies, default=float('nan')):.0f} | {len(r.measured)} | {errors} "
            f"| {r.startup_seconds:.1f} | {r.model_load_seconds:.1f} |"
        )
    lines += ["", "Setups:"]
    lines += [f"- **{r.setup.name}** — {r.setup.description}" for r in results]
    lines += [
        f"- the stock model was trained in this run: {r.setup.training_seconds:.0f} s"
        for r in results
        if r.setup.training_seconds is not None
    ]
    lines += _cpu_table(results) + _memory_table(results) + _check_table(results)
    for r in results:
        lines += _profile_table(r)
    return "\n".join(lines) + "\n"


def _cpu_table(results: list[Result]) -> list[str]:
    columns: list[str] = []
    for r in results:
        columns += [name for name in r.cpu if name not in columns]
    lines = [
        "",
        "CPU time per answered turn in the measured window, ms (2 cores = 2 000 ms per second; "
        "'other processes' is everything else on the machine, e.g. other developers' jobs):",
        "",
        "| setup | " + " | ".join(columns) + " | ours in total |",
        "|---|" + "---:|" * (len(columns) + 1),
    ]
    for r in results:
        done = max(1, r.completed)
        cells = [f"{1000 * r.cpu.get(c, 0.0) / done:.1f}" for c in columns]
        ours = sum(v for k, v in r.cpu.items() if k != "other processes")
        lines.append(f"| {r.setup.name} | " + " | ".join(cells) + f" | {1000 * ours / done:.1f} |")
    return lines


def _memory_table(results: list[Result]) -> list[str]:
    lines = [
        "",
        "Peak memory per process, MB (RSS counts pages that forked workers share with their "
        "parent once per process; PSS divides them among the sharers):",
        "",
        "| setup | process | RSS | PSS |",
        "|---|---|---:|---:|",
    ]
    for r in results:
        rss, pss = r.sampler.peak_rss, r.sampler.peak_pss
        for label in rss:
            lines.append(f"| {r.setup.name} | {label} | {rss[label]:.0f} | {pss[label]:.0f} |")
        lines.append(
            f"| {r.setup.name} | all | {sum(rss.values()):.0f} | **{sum(pss.values()):.0f}** |"
        )
    return lines


def _check_table(results: list[Result]) -> list[str]:
    lines = [
        "",
        "Nothing lost: every conversation read back from the tracker store after the run "
        "(production: the PostgreSQL `events` table; in-memory stores: "
        "`GET /conversations/<id>/tracker`). Each message sent must be stored exactly once, "
        "followed by the bot messages the REST reply carried.",
        "",
        "| setup | conversations | messages | lost | applied twice | unanswered "
        "| reply ≠ REST reply | verdict |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        c = r.check
        lines.append(
            f"| {r.setup.name} | {c.conversations} | {c.messages} | {c.lost} | {c.duplicated} "
            f"| {c.unanswered} | {c.reply_mismatch} | {'ok' if c.ok else '**FAILED**'} |"
        )
    return lines


def _profile_table(r: Result) -> list[str]:
    """Each stage's share of the samples, and that share of the CPU time measured in /proc.

    py-spy samples a thread while it holds the GIL (profiling.record): Python code, and time it
    waits for the CPU or (production) for PostgreSQL and Redis, so the samples measure shares,
    not CPU; the absolute figures come from /proc. Kernel time (a TCP connection per request
    and per action call) and C code that releases the GIL are spread over the stages.
    """
    lines: list[str] = []
    for role, counts in r.profile.items():
        total = sum(counts.values())
        if not total:
            continue
        cpu_ms = 1000 * r.cpu.get(role, 0.0) / max(1, r.completed)
        lines += [
            "",
            f"Where {role}'s time goes ({r.setup.name}; py-spy, {total} samples; "
            f"{cpu_ms:.1f} ms of CPU per turn measured):",
            "",
            "| stage | share of the samples | ≈ CPU ms per turn |",
            "|---|---:|---:|",
        ]
        for stage, count in sorted(counts.items(), key=lambda item: -item[1]):
            share = count / total
            lines.append(f"| {stage} | {100 * share:.0f} % | {share * cpu_ms:.1f} |")
    return lines


# --- main -----------------------------------------------------------------------------------


def build(name: str, model: Path, work: Path, args: argparse.Namespace) -> setups.Setup:
    if name == "embedded":
        return setups.embedded(model, work)
    if name.startswith("production"):
        setup = setups.production(
            model, work, args.pg_admin_url, args.redis_url, args.rasa_workers, args.action_workers
        )
        if name == "production-full-read":
            # One kept session per worker: under this load nearly every read is Rasa's own.
            setup.stack.extra_env["TRACKER_SNAPSHOTS"] = "1"
            setup.name = name
            setup.description += "; each turn reads its whole session (`TRACKER_SNAPSHOTS=1`)"
        return setup
    return setups.stock(args.stock_dir, work)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--setups", default=",".join(SETUPS[:3]), help=f"comma-separated, in order: {SETUPS}"
    )
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0, help="unmeasured seconds first")
    parser.add_argument("--concurrency", type=int, default=50, help="simultaneous conversations")
    parser.add_argument(
        "--think-time",
        type=float,
        default=0.0,
        help="mean seconds a user takes before the next message (default 0: the most load)",
    )
    parser.add_argument("--rasa-workers", type=int, default=2, help="production: SANIC_WORKERS")
    parser.add_argument(
        "--action-workers", type=int, default=1, help="production: ACTION_SERVER_SANIC_WORKERS"
    )
    parser.add_argument("--model", type=Path, default=ROOT / "models" / "assistant.tar.gz")
    parser.add_argument(
        "--pg-admin-url",
        default=os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/test"),
        help="production: a database to run CREATE DATABASE from",
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/1")
    )
    parser.add_argument(
        "--stock-dir", type=Path, default=ROOT / "var" / "bench-load" / "stock-ours"
    )
    parser.add_argument("--profile", type=Path, help="py-spy every process; raw files here")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench-load.md")
    args = parser.parse_args()

    names = [name.strip() for name in args.setups.split(",") if name.strip()]
    if unknown := set(names) - set(SETUPS):
        parser.error(f"unknown setups: {', '.join(sorted(unknown))} (known: {', '.join(SETUPS)})")
    if not args.model.exists():
        parser.error(f"{args.model} is missing: run `make train`")
    if args.profile and profiling.py_spy() is None:
        parser.error("--profile needs py-spy: run `make setup` (requirements/actions.lock)")
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        work = Path(tmp)
        # Others may retrain models/ during the run: every setup serves this one copy.
        model = work / "assistant.tar.gz"
        shutil.copy2(args.model, model)
        for name in names:
            setup = build(name, model, work, args)
            try:
                load_seconds = setups.model_load_seconds(setup.stack.model)
                results.append(asyncio.run(run_setup(setup, args, load_seconds)))
            except BaseException:
                setup.cleanup()
                print_log_tails(setup.stack.log_dir)
                raise
    text = report(results, args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0 if all(r.check.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
