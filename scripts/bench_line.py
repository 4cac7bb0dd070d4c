"""What keeping `make run`'s line in SQLite costs a message, beside the line in memory alone.

    make bench-line [BENCH_LINE_MESSAGES=5000]
    .venv/bot/bin/python scripts/bench_line.py [--messages 5000]

Why: with ``INTAKE_JOURNAL`` every message a provider sends is written to a SQLite file before
its webhook is answered, and struck off after its turn (bot/channels/intake/kept_line.py). The
write sits on the webhook's path, so it must stay far below a turn (~100 ms of CPU) and below
what makes a provider wait. Both lines run in one process, one after the other, twice each
(the machine is noisy): ``--messages`` messages of ``--people`` people put, then each taken and
acknowledged by one worker, as the intake does. Reported per line: microseconds per put and per
take-and-acknowledge (median of the rounds).
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.channels.intake.kept_line import JournaledLine  # noqa: E402
from bot.channels.intake.line import Job, Line, ProcessLine  # noqa: E402
from bot.channels.settings import LineShare  # noqa: E402

PARTITIONS = 16
WORKER = "bench"


async def one_round(line: Line, messages: int, people: int) -> tuple[float, float]:
    """Microseconds per put, and per take with its acknowledgement, for ``messages``."""
    await line.open()
    jobs = [
        Job(f"delivery-{n}", f"person-{n % people}", {"text": "is abbey gate open?", "n": n})
        for n in range(messages)
    ]
    started = time.perf_counter()
    for job in jobs:
        await line.put(job)
    put = (time.perf_counter() - started) / messages * 1e6
    answered = 0
    started = time.perf_counter()
    while answered < messages:
        for partition in range(PARTITIONS):
            await line.lease(partition, WORKER, 60.0)
            while (taken := await line.take(partition, WORKER)) is not None:
                await line.ack(partition, taken)
                answered += 1
    done = (time.perf_counter() - started) / messages * 1e6
    await line.close()
    return put, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--people", type=int, default=2500)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    share = LineShare(in_line=0)  # every message in line at once: the line's own cost
    results: dict[str, list[tuple[float, float]]] = {"memory": [], "journal": []}
    with tempfile.TemporaryDirectory() as work:
        for number in range(args.rounds):
            memory = ProcessLine(PARTITIONS, share)
            results["memory"].append(asyncio.run(one_round(memory, args.messages, args.people)))
            journal = Path(work) / f"intake-{number}.db"
            kept = JournaledLine("telegram", journal, PARTITIONS, share)
            results["journal"].append(asyncio.run(one_round(kept, args.messages, args.people)))
    print(f"{platform.node()}, {platform.machine()}, Python {platform.python_version()}")
    print(f"{args.messages} messages of {args.people} people, {args.rounds} rounds, median")
    print(f"{'line':<8} {'put µs':>8} {'take+ack µs':>12}")
    for name, rounds in results.items():
        put = statistics.median(r[0] for r in rounds)
        done = statistics.median(r[1] for r in rounds)
        print(f"{name:<8} {put:>8.1f} {done:>12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
