"""What the web chat's mailbox costs the Rasa server: the widgets' fetches, at the rates 1 000
open pages make, against a real Rasa process (the model loaded, the web chat channel).

    .venv/actions/bin/python scripts/bench_mailbox.py [--widgets 1000] [--seconds 20]

Why: every open page asks ``/webchat/mailbox`` for messages out of turn (a caseworker's reply,
"I am back"): every 5 s right after activity, slowing to every 15 s while a caseworker has the
conversation and every 60 s otherwise, none while the page is hidden (widget.js). For each
channel memory (this process; Redis on loopback, a redis-server of its own) and each of those
rates it sends fetches of distinct senders open-loop (a fetch starts on time whether or not the
earlier ones were answered), a tenth of them acknowledging a message, and prints a Markdown
table: requests a second, latency p50/p95/max, failures, and the Rasa process's CPU time per
second (its share of one core).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.loadtest.redis_server import RedisServer  # noqa: E402
from scripts.stack import Stack, free_port  # noqa: E402

MODEL = ROOT / "models" / "assistant.tar.gz"
#: Seconds between one page's fetches in each of the widget's states (widget.js).
INTERVALS = {
    "right after activity (5 s)": 5.0,
    "caseworker has it (15 s)": 15.0,
    "idle (60 s)": 60.0,
}


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and of the Sanic workers in its group."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == os.getpgid(pid):  # fields[2] is the process group
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


async def load(url: str, rate: float, seconds: float, widgets: int) -> dict[str, float]:
    """Fetches at ``rate`` a second for ``seconds``, round-robin over ``widgets`` senders."""
    senders = [secrets.token_hex(16) for _ in range(widgets)]
    latencies: list[float] = []
    failures = 0
    timeout = aiohttp.ClientTimeout(total=10)
    connector = aiohttp.TCPConnector(limit=200)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:

        async def fetch(number: int) -> None:
            nonlocal failures
            body: dict[str, object] = {"sender": senders[number % widgets]}
            if number % 10 == 0:
                body["ack"] = [secrets.token_hex(8)]
            started = time.perf_counter()
            try:
                async with session.post(f"{url}/webchat/mailbox", json=body) as answer:
                    await answer.read()
                    if answer.status != 200:
                        failures += 1
                        return
            except (aiohttp.ClientError, asyncio.TimeoutError):
                failures += 1
                return
            latencies.append(time.perf_counter() - started)

        tasks = []
        start = time.perf_counter()
        for number in range(int(rate * seconds)):
            delay = start + number / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(fetch(number)))
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - start
    latencies.sort()
    return {
        "sent": len(tasks) / elapsed,
        "p50": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "p95": latencies[int(len(latencies) * 0.95)] * 1000 if latencies else float("nan"),
        "max": latencies[-1] * 1000 if latencies else float("nan"),
        "failures": failures,
    }


def run(memory: str, widgets: int, seconds: float, work: Path) -> list[str]:
    env = {"CONVERSATION_ID_KEY": secrets.token_hex(16)}
    redis = None
    if memory == "Redis":
        redis = RedisServer(work / "redis")
        redis.start()
        env.update(redis.env("benchmailbox"))
    stack = Stack(
        model=MODEL,
        content_db_url=f"sqlite:///{work / 'content.db'}",
        log_dir=work / f"logs-{memory}",
        rasa_port=free_port(),
        action_port=free_port(),
        with_actions=False,
        extra_env=env,
    )
    rows = []
    try:
        stack.start()
        pid = stack.processes()["rasa"].pid
        asyncio.run(load(stack.rasa_url, 20, 3, widgets))  # warm up
        for state, interval in INTERVALS.items():
            rate = widgets / interval
            before, wall = cpu_seconds(pid), time.perf_counter()
            result = asyncio.run(load(stack.rasa_url, rate, seconds, widgets))
            cpu = (cpu_seconds(pid) - before) / (time.perf_counter() - wall)
            rows.append(
                f"| {memory} | {state} | {result['sent']:.0f} | {result['p50']:.1f} | "
                f"{result['p95']:.1f} | {result['max']:.0f} | {result['failures']:.0f} | "
                f"{cpu * 100:.0f} % |"
            )
    finally:
        stack.stop()
        if redis is not None:
            redis.stop()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--widgets", type=int, default=1000, help="open pages (default 1000)")
    parser.add_argument("--seconds", type=float, default=20.0, help="per rate (default 20)")
    args = parser.parse_args()
    if not MODEL.exists():
        print(f"{MODEL} is missing: run `make train`", file=sys.stderr)
        return 1
    print(
        f"{args.widgets} open pages, {args.seconds:.0f} s per rate; "
        f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}\n"
    )
    print("| memory | pages' state | fetches/s | p50 ms | p95 ms | max ms | failed | Rasa CPU |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for memory in ("process", "Redis"):
            for row in run(memory, args.widgets, args.seconds, Path(work)):
                print(row, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
