"""What a conversation's lock costs per turn, its Redis calls in the event loop (as Rasa makes
them) against the lock store's own threads (``bot.locks``), and what each does when Redis stops
answering.

    .venv/bot/bin/python scripts/bench_lock_store.py [--turns 2000] [--rounds 5]

Why: every turn of the production profile takes its conversation's lock and gives it back, 3
to 4 Redis transactions. ``AtomicRedisLockStore`` runs them in threads of its own, so that a
Redis that does not answer holds up only the turns that need it, not the whole process for the
socket timeout; a thread hop per call costs something on every turn. Both ways here use the
same store and the same transactions, against a ``redis-server`` of the benchmark's own on a
free port: per turn (lock taken, given back) one at a time and eight at once, alternating
rounds, medians; then, with Redis paused (SIGSTOP, what a partition looks like to a client),
how long a clock ticking every 10 ms in the same event loop stood still while one turn waited.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rasa.core.lock import TicketLock  # noqa: E402
from rasa.core.lock_store import LockError, LockStore  # noqa: E402

from bot.locks import AtomicRedisLockStore  # noqa: E402
from scripts.loadtest.redis_server import RedisServer  # noqa: E402

#: A socket timeout short enough for the paused-Redis part, the same for both.
PAUSED_TIMEOUT_SECONDS = 1.0


class InTheLoop(AtomicRedisLockStore):
    """The same store, its lock taken and given back as Rasa's ``LockStore`` does: every Redis
    call in the event loop."""

    lock = LockStore.lock
    _acquire_lock = LockStore._acquire_lock


Take = Callable[[str], AbstractAsyncContextManager[TicketLock]]


async def per_turn(take: Take, turns: int, at_once: int) -> float:
    """Microseconds per turn (lock taken and given back), ``at_once`` turns at a time."""

    async def turn() -> None:
        async with take(f"bench-{uuid.uuid4().hex[:12]}"):
            await asyncio.sleep(0)

    started = time.perf_counter()
    for _ in range(turns // at_once):
        await asyncio.gather(*(turn() for _ in range(at_once)))
    return (time.perf_counter() - started) / turns * 1e6


async def loop_stood_still(take: Take, redis: RedisServer) -> float:
    """Seconds the event loop did nothing else while one turn waited for a paused Redis."""
    gaps: list[float] = []

    async def clock() -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            gaps.append(now - last - 0.01)
            last = now

    ticking = asyncio.create_task(clock())
    await asyncio.sleep(0.05)
    redis.pause()
    try:
        async with take("bench-paused"):
            pass
    except LockError:
        pass  # no ticket without Redis: the turn fails, as it should
    finally:
        redis.resume()
        await asyncio.sleep(0.05)  # the clock notes the gap once it runs again
        ticking.cancel()
    return max(gaps, default=0.0)


def stores(redis: RedisServer, **kwargs: Any) -> dict[str, AtomicRedisLockStore]:
    common = {"host": redis.host, "port": redis.port, "db": 0, "key_prefix": "bench", **kwargs}
    return {
        "in the event loop (Rasa's way)": InTheLoop(**common),
        "in the store's threads (ours)": AtomicRedisLockStore(**common),
    }


def taker(store: AtomicRedisLockStore) -> Take:
    def take(conversation: str) -> AbstractAsyncContextManager[TicketLock]:
        return store.lock(conversation, wait_time_in_seconds=0.01)

    return take


async def measure(redis: RedisServer, turns: int, rounds: int) -> list[str]:
    lines = [
        "| Redis calls | µs per turn, one at a time | µs per turn, 8 at once "
        "| event loop stood still while Redis did not answer, s |",
        "|---|---:|---:|---:|",
    ]
    timed = {name: taker(store) for name, store in stores(redis).items()}
    results: dict[str, dict[int, list[float]]] = {name: {1: [], 8: []} for name in timed}
    for take in timed.values():  # connections made, code warm
        await per_turn(take, 200, 8)
    for _ in range(rounds):
        for at_once in (1, 8):
            for name, take in timed.items():  # alternating: the machine's noise falls on both
                results[name][at_once].append(await per_turn(take, turns, at_once))
    paused = stores(redis, socket_timeout=PAUSED_TIMEOUT_SECONDS)
    for name, store in paused.items():
        store.issue_ticket("bench-warm")  # a connection in the pool, as in a running server
        stood = await loop_stood_still(taker(store), redis)
        one, eight = (statistics.median(results[name][n]) for n in (1, 8))
        lines.append(f"| {name} | {one:.0f} | {eight:.0f} | {stood:.2f} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=2000, help="turns per round and way")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each way alternating")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-locks-") as tmp:
        redis = RedisServer(Path(tmp))
        redis.start()
        try:
            lines = asyncio.run(measure(redis, args.turns, args.rounds))
        finally:
            redis.stop()
    print(
        f"Lock store per turn: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{platform.machine()}, Python {platform.python_version()}; redis-server of its own on "
        f"loopback; {args.rounds} rounds of {args.turns} turns each way, medians; socket "
        f"timeout {PAUSED_TIMEOUT_SECONDS:g} s for the paused Redis.\n"
    )
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
