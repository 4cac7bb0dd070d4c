"""What the channels' memory costs per turn: this process's memory against Redis on loopback.

    .venv/bot/bin/python scripts/bench_channel_memory.py [--turns 2000] [--concurrency 20]

Why: in the production profile every message now asks Redis whether it was seen before, and the
SMS, Telegram and WhatsApp channels read and write what their replies left behind there. Each
turn runs the real channel code (``SeenMessages``, ``ReplyKeyboards``, ``TypedNumbers``,
``ReplyRenderer``) the way a turn of that channel does (and, beside it, the same turn without
the typed-number memory, to show what that costs), against a ``redis-server`` of its own on a
free port (never a shared one), counts the round trips and prints a Markdown table: per-turn
latency sequentially, and turns a second with ``--concurrency`` turns at once. Also: what a
turn costs while Redis is down.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.channels.dedup import SeenMessages  # noqa: E402
from bot.channels.redis_memory import RedisMemory  # noqa: E402
from bot.channels.settings import RedisSettings  # noqa: E402
from bot.channels.telegram import ReplyKeyboards  # noqa: E402
from bot.channels.typed_numbers import TypedNumbers  # noqa: E402
from kernel.memory import ChannelMemory, ProcessMemory  # noqa: E402
from kernel.sms_render import ReplyMemory, ReplyRenderer  # noqa: E402
from scripts.loadtest.redis_server import RedisServer  # noqa: E402

MENU = "What do you need? Reply with a number:\n1 Next flights\n2 Airport and gates"
BUTTONS = [
    {"title": "1 Next flights", "payload": "/ask_flights"},
    {"title": "2 Airport and gates", "payload": "/ask_airport_status"},
]
LONG_PS = "\n".join(f"د {n} الوتنه: کابل نه دوحې ته، د ختیځې دروازې له لارې." for n in range(12))


class CountingRedis(RedisMemory):
    """Redis memory that counts its round trips (each ``_run`` is one)."""

    round_trips = 0

    async def _run(self, *args: Any, **kwargs: Any) -> list[object]:
        CountingRedis.round_trips += 1
        return await super()._run(*args, **kwargs)


Turn = Callable[[int], Awaitable[None]]


def counting_redis(env: dict[str, str]) -> RedisMemory:
    """A counting client of the Redis that ``env`` describes, as a channel reads it."""
    settings = RedisSettings.load(env)
    assert settings is not None
    return CountingRedis.connect(settings)


def scenarios(memory: ChannelMemory) -> dict[str, Turn]:
    """One turn of each channel, as its connector drives the memory."""
    seen = SeenMessages(memory)
    keyboards = ReplyKeyboards(memory)
    numbers = TypedNumbers(memory)
    sms = ReplyRenderer(ReplyMemory(memory))

    async def whatsapp_without_numbers(n: int) -> None:
        await seen.first_time(f"whatsapp:wamid.{n}")

    async def whatsapp(n: int) -> None:  # a question answered without buttons
        if await seen.first_time(f"whatsapp:wamid.n{n}"):
            await numbers.payload_for(f"whatsapp-c{n % 500}", "is the airport open")

    async def telegram_without_numbers(n: int) -> None:
        if await seen.first_time(f"telegram:{n}"):
            await keyboards.payload_for(f"telegram-c{n % 500}", "2 Airport and gates")
            await keyboards.remember(
                f"telegram-c{n % 500}", {b["title"]: b["payload"] for b in BUTTONS}
            )

    async def telegram(n: int) -> None:  # a keyboard press answered with a menu
        conversation = f"telegram-n{n % 500}"
        if await seen.first_time(f"telegram:n{n}"):
            text = "2 Airport and gates"
            await numbers.payload_for(conversation, text) or await keyboards.payload_for(
                conversation, text
            )
            await keyboards.remember(conversation, {b["title"]: b["payload"] for b in BUTTONS})
            await numbers.offered(conversation, BUTTONS)

    async def sms_menu(n: int) -> None:  # "2" answered with a short menu
        if await seen.first_time(f"SM{n}"):
            await sms.incoming(f"sms-c{n % 500}", "2")
            await sms.outgoing(f"sms-c{n % 500}", MENU, BUTTONS)

    async def sms_long_then_more(n: int) -> None:  # a long answer, then MORE
        conversation = f"sms-l{n % 500}"
        if await seen.first_time(f"SMl{n}"):
            await sms.incoming(conversation, "flights")
            await sms.outgoing(conversation, LONG_PS)
        if await seen.first_time(f"SMm{n}"):
            await sms.incoming(conversation, "نور")

    return {
        "WhatsApp message, without typed numbers": whatsapp_without_numbers,
        "WhatsApp message": whatsapp,
        "Telegram keyboard press + menu, without typed numbers": telegram_without_numbers,
        "Telegram keyboard press + menu": telegram,
        "SMS number + menu": sms_menu,
        "SMS long answer, then MORE (2 messages)": sms_long_then_more,
    }


async def measure(
    turn: Turn, turns: int, concurrency: int, offset: int
) -> tuple[float, float, float]:
    """(median ms, p99 ms) sequentially, and turns a second ``concurrency`` at a time."""
    latencies = []
    for n in range(turns):
        started = time.perf_counter()
        await turn(offset + n)
        latencies.append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    base = offset + turns
    for start in range(0, turns, concurrency):
        await asyncio.gather(
            *(turn(base + n) for n in range(start, min(turns, start + concurrency)))
        )
    rate = turns / (time.perf_counter() - started)
    quantiles = statistics.quantiles(latencies, n=100)
    return statistics.median(latencies), quantiles[98], rate


async def run(turns: int, concurrency: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        redis = RedisServer(Path(directory))
        redis.start()
        try:
            memories: dict[str, ChannelMemory] = {
                "process": ProcessMemory(),
                "Redis": counting_redis(redis.env("bench")),
            }
            load = os.getloadavg()[0]
            print(
                f"{platform.node()}, {os.cpu_count()} cores, load average {load:.1f}, "
                f"Python {platform.python_version()}, {turns} turns each\n"
            )
            print(
                "| turn | memory | round trips | median ms | p99 ms | turns/s at", concurrency, "|"
            )
            print("|---|---|---:|---:|---:|---:|")
            for name in scenarios(memories["process"]):
                for kind, memory in memories.items():
                    before = CountingRedis.round_trips
                    median, p99, rate = await measure(
                        scenarios(memory)[name], turns, concurrency, 0
                    )
                    trips = (CountingRedis.round_trips - before) / (2 * turns)
                    print(
                        f"| {name} | {kind} | {trips:.1f} | {median:.3f} | {p99:.3f} "
                        f"| {rate:,.0f} |"
                    )
            await memories["Redis"].close()
        finally:
            redis.stop()
        down = counting_redis(redis.env("bench"))  # nothing listens there any more
        median, p99, rate = await measure(
            scenarios(down)["SMS number + menu"], turns, concurrency, 0
        )
        print(f"| SMS number + menu | Redis down | - | {median:.3f} | {p99:.3f} | {rate:,.0f} |")
        await down.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(run(args.turns, args.concurrency))


if __name__ == "__main__":
    main()
