"""The web chat's limits per client when many people share one address: the old per-address
rule beside pages' tickets and work, in one run, through the real web chat channel.

    .venv/bot/bin/python scripts/bench_webchat.py [--people 300] [--flood 1000] [--redis]

Why: behind a carrier's NAT or a hotel's Wi-Fi hundreds of people have one address, and the
rule that capped a flooding script at 30 new conversations an hour per address told the 31st
person to wait for the next hour. The web chat channel (``WebchatInput``, its limits, its 429
and 401 answers) runs on a Sanic server of its own on loopback, registered as ``rasa run``
registers it; every request comes from this machine's one address. The limits read a simulated
clock (an hour passes in seconds), which the benchmark moves as people arrive and wait; the
assistant is a stand-in that answers every message at once (the limits act before the turn).

Scenarios, each with pages too old to know tickets (the old rule, unchanged for them) and with
today's pages (tickets, work when asked), in the same run:

- the user test: 40 people at once asking «پرواز بعدی چه وقت است؟», then 260 more spread over
  the hour (``--people``), each a new page asking once; a page told to wait sends again when
  the server said (429 ``retry_after``), a page asked for work does it (Python's SHA-256 here;
  the page's own JavaScript is timed by ``scripts/bench_webchat_work.py``);
- one script flooding new conversations from that address (``--flood`` over the hour, spaced so
  that the per-minute limits do not bite), without the work and with it;
- one client sending 200 messages in a minute, and 30 pages of one script each sending 60;
- the channels' memory down (a Redis nobody listens on): every message admitted.

``--redis`` also runs the people and the flood against a ``redis-server`` of its own (the
production profile's shared memory). Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import os
import platform
import random
import socket
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

os.environ.setdefault("CONVERSATION_ID_KEY", "bench-webchat-key")  # the tickets' key

from rasa.core.channels.channel import UserMessage, register  # noqa: E402
from sanic import Sanic  # noqa: E402

from bot.channels.redis_memory import RedisMemory  # noqa: E402
from bot.channels.settings import RedisSettings, WebchatSettings  # noqa: E402
from bot.channels.webchat import TICKET_HEADER, WebchatInput  # noqa: E402
from bot.channels.webchat_limits import ClientLimits  # noqa: E402
from bot.channels.webchat_tickets import Challenge, solve  # noqa: E402
from kernel.memory import ChannelMemory, ProcessMemory  # noqa: E402
from scripts.loadtest.redis_server import RedisServer  # noqa: E402
from scripts.stack import free_port  # noqa: E402

QUESTION = "پرواز بعدی چه وقت است؟"
HOUR = 3600.0
#: An hour's start (the limits count in fixed windows): the worst case, all in one window.
START = 3600.0 * 500_000
#: People who are still not answered this long after they first wrote count as not answered.
GIVE_UP_SECONDS = 2 * HOUR


@dataclass
class Clock:
    """The limits' wall clock, moved by the benchmark."""

    now: float = START

    def __call__(self) -> float:
        return self.now


class Assistant:
    """Stands in for Rasa's agent: one answer to every message, at once."""

    def __init__(self) -> None:
        self.messages = 0

    async def handle_message(self, message: UserMessage) -> None:
        self.messages += 1
        await message.output_channel.send_response(message.sender_id, {"text": "RCH871 14:30"})


@asynccontextmanager
async def webchat_server(
    settings: WebchatSettings, memory: ChannelMemory, clock: Clock
) -> AsyncIterator[tuple[str, Assistant]]:
    """The web chat channel on a server of its own, its limits on ``clock``; its webhook's URL
    and the stand-in assistant."""
    channel = WebchatInput(settings=settings)
    channel.limits = ClientLimits(memory, settings, clock=clock)
    assistant = Assistant()
    app = Sanic(f"bench_webchat_{uuid.uuid4().hex[:8]}", configure_logging=False)
    app.ctx.agent = assistant
    register([channel], app, route="/webhooks/")
    Sanic.test_mode = True  # several apps in one process (one per scenario)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    # Sanic's server object is not annotated: its start and stop steps are called as Sanic's own
    # test client calls them.
    server: Any = await app.create_server(sock=sock, return_asyncio_server=True, access_log=False)
    assert server is not None
    await server.startup()
    await server.before_start()
    await server.after_start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/webchat/webhook", assistant
    finally:
        await server.before_stop()
        closing = server.close()
        if closing is not None:
            await closing
        await server.wait_closed()
        await server.after_stop()
        sock.close()


@dataclass
class Person:
    """One page: what it sent, what it was told, what work it did."""

    arrived: float
    old_page: bool
    sender: str = field(default_factory=lambda: uuid.uuid4().hex)
    ticket: str = ""
    work: dict[str, str] | None = None
    answered_at: float | None = None
    waits: list[int] = field(default_factory=list)
    work_rounds: int = 0
    hashes: int = 0
    requests: int = 0


@dataclass
class Client:
    """Posts as a page does and keeps what the server answers; times each request."""

    session: aiohttp.ClientSession
    url: str
    latencies: list[float] = field(default_factory=list)

    async def post(self, person: Person) -> tuple[int, Any]:
        body: dict[str, Any] = {"sender": person.sender, "message": QUESTION}
        if not person.old_page:
            body["ticket"] = person.ticket
        if person.work:
            body["work"] = person.work
        started = time.perf_counter()
        async with self.session.post(self.url, json=body) as answer:
            data = await answer.json(content_type=None)
            given = answer.headers.get(TICKET_HEADER)
        self.latencies.append((time.perf_counter() - started) * 1000)
        person.requests += 1
        if given:
            person.ticket = given
        return answer.status, data


async def step(client: Client, person: Person, now: float) -> float | None:
    """One message of ``person`` at ``now``, with the work it is asked for; None once answered,
    else when it sends again (told to wait)."""
    while True:
        status, data = await client.post(person)
        if status == 200:
            person.answered_at, person.work = now, None
            return None
        if status == 401:
            asked = Challenge(data["work"]["challenge"], data["work"]["bits"])
            nonce = solve(asked)
            person.work = {"challenge": asked.text, "nonce": nonce}
            person.work_rounds += 1
            person.hashes += int(nonce, 36) + 1
            continue
        if status == 429:
            person.waits.append(int(data["retry_after"]))
            return now + int(data["retry_after"])
        raise RuntimeError(f"unexpected answer {status}: {data}")


async def walk(client: Client, clock: Clock, people: list[Person]) -> None:
    """Everyone in order of time: those who write at the same moment at once; a person told
    to wait writes again when the server said."""
    queue = [(person.arrived, n) for n, person in enumerate(people)]
    heapq.heapify(queue)
    while queue:
        now = queue[0][0]
        due = []
        while queue and queue[0][0] == now:
            due.append(heapq.heappop(queue)[1])
        clock.now = now
        later = await asyncio.gather(*(step(client, people[n], now) for n in due))
        for n, again in zip(due, later, strict=True):
            if again is not None and again - people[n].arrived < GIVE_UP_SECONDS:
                heapq.heappush(queue, (again, n))


def arrivals(people: int, seed: int) -> list[float]:
    """40 at the hour's start (the user test), the rest spread at random over the hour."""
    spread = random.Random(seed)
    at_once = min(40, people)
    later = sorted(START + spread.uniform(1, HOUR - 1) for _ in range(people - at_once))
    return [START] * at_once + later


def quantile(values: list[int] | list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0


def people_row(label: str, people: list[Person], client: Client, seconds: float) -> str:
    answered = [p for p in people if p.answered_at is not None]
    at_once = [p for p in answered if not p.waits]
    waited = [p for p in people if p.waits]
    in_hour = [p for p in answered if p.answered_at is not None and p.answered_at < START + HOUR]
    worked = [p for p in people if p.work_rounds]
    hashes = [p.hashes for p in worked]
    waits = [p.waits[0] for p in waited]
    wait_text = f"{statistics.median(waits) / 60:.0f} / {max(waits) / 60:.0f} min" if waits else "–"
    work_text = (
        f"{statistics.median(hashes):,.0f} / {quantile(hashes, 0.95):,.0f} / {max(hashes):,}"
        if hashes
        else "–"
    )
    return (
        f"| {label} | {len(answered)} of {len(people)} | {len(in_hour)} | {len(at_once)} "
        f"| {len(waited)} | {wait_text} | {len(worked)} | {work_text} "
        f"| {statistics.median(client.latencies):.1f} | {seconds:.1f} |"
    )


async def people_behind_one_address(
    settings: WebchatSettings, memory: Callable[[], ChannelMemory], count: int, label: str
) -> list[str]:
    rows = []
    for old_page, rule in ((True, "old rule: the address"), (False, "tickets + work")):
        clock = Clock()
        people = [Person(at, old_page) for at in arrivals(count, seed=7)]
        started = time.perf_counter()
        server = webchat_server(settings, memory(), clock)
        async with server as (url, _), aiohttp.ClientSession() as session:
            client = Client(session, url)
            await walk(client, clock, people)
        row = people_row(f"{rule} ({label})", people, client, time.perf_counter() - started)
        rows.append(row)
    return rows


@dataclass(frozen=True)
class FloodResult:
    label: str
    attempts: int
    opened: int
    refused_429: int
    asked_work: int
    hashes: int
    solve_seconds: float
    first_wait: int | None


async def flood(
    settings: WebchatSettings,
    memory: Callable[[], ChannelMemory],
    attempts: int,
    old_page: bool,
    does_work: bool,
    label: str,
) -> FloodResult:
    """One script, one address: a new sender id for every message, spaced over the hour so
    that only the hourly limit counts."""
    clock = Clock()
    opened = refused = asked = hashes = 0
    first_wait: int | None = None
    solving = 0.0
    server = webchat_server(settings, memory(), clock)
    async with server as (url, assistant), aiohttp.ClientSession() as session:
        client = Client(session, url)
        for n in range(attempts):
            clock.now = START + n * (HOUR - 1) / attempts
            person = Person(clock.now, old_page)
            status, data = await client.post(person)
            if status == 401:
                asked += 1
                if does_work:
                    started = time.perf_counter()
                    nonce = solve(Challenge(data["work"]["challenge"], data["work"]["bits"]))
                    solving += time.perf_counter() - started
                    hashes += int(nonce, 36) + 1
                    person.work = {"challenge": data["work"]["challenge"], "nonce": nonce}
                    status, data = await client.post(person)
            if status == 429:
                refused += 1
                first_wait = first_wait if first_wait is not None else int(data["retry_after"])
            opened += status == 200
        assert assistant.messages == opened
    return FloodResult(label, attempts, opened, refused, asked, hashes, solving, first_wait)


async def messages_a_minute(settings: WebchatSettings) -> list[str]:
    """One client sending 200 messages in a minute (an old page, a page with its ticket); and a
    script's 30 pages, each with its ticket, sending 60 each in that minute."""
    rows = []
    for old_page, label in ((True, "old page (its address)"), (False, "page with its ticket")):
        clock = Clock()
        server = webchat_server(settings, ProcessMemory(), clock)
        async with server as (url, _), aiohttp.ClientSession() as session:
            client = Client(session, url)
            person = Person(START, old_page)
            statuses = []
            for n in range(200):
                clock.now = START + n * 0.25
                statuses.append((await client.post(person))[0])
        rows.append(
            f"| one client, 200 in a minute | {label} | {statuses.count(200)} "
            f"| {statuses.count(429)} |"
        )
    clock = Clock()
    server = webchat_server(settings, ProcessMemory(), clock)
    async with server as (url, _), aiohttp.ClientSession() as session:
        client = Client(session, url)
        pages = [Person(START, False) for _ in range(30)]
        statuses = []
        for n in range(60):
            clock.now = START + n
            for page in pages:
                statuses.append((await client.post(page))[0])
    rows.append(
        f"| one script's 30 pages, 60 each in a minute | pages with tickets "
        f"| {statuses.count(200)} | {statuses.count(429)} |"
    )
    return rows


async def memory_down(settings: WebchatSettings, count: int) -> str:
    """Every page's message with a Redis that is not there: admitted, no tickets."""
    nobody = RedisSettings(host="127.0.0.1", port=free_port())
    answered = tickets = 0
    server = webchat_server(settings, RedisMemory.connect(nobody), Clock())
    async with server as (url, _), aiohttp.ClientSession() as session:
        client = Client(session, url)
        for _ in range(count):
            person = Person(START, False)
            status, _ = await client.post(person)
            answered += status == 200
            tickets += bool(person.ticket)
    return f"| Redis down: {count} new pages at once | {answered} answered | {tickets} tickets |"


def flood_row(result: FloodResult) -> str:
    wait = f"{result.first_wait / 60:.0f} min" if result.first_wait else "–"
    work = f"{result.hashes:,} ({result.solve_seconds:.2f} s)" if result.hashes else "–"
    return (
        f"| {result.label} | {result.attempts} | **{result.opened}** | {result.refused_429} "
        f"| {result.asked_work} | {work} | {wait} |"
    )


async def run(people: int, attempts: int, with_redis: bool) -> None:
    settings = WebchatSettings()  # the defaults: 60 a minute, 30 an hour free, 400 with work
    memories: dict[str, Callable[[], ChannelMemory]] = {"process": ProcessMemory}
    redis: RedisServer | None = None
    directory = tempfile.TemporaryDirectory()
    if with_redis:
        redis = RedisServer(Path(directory.name))
        redis.start()
        env = redis.env("bench")

        def shared() -> ChannelMemory:
            loaded = RedisSettings.load({**env, "REDIS_KEY_PREFIX": uuid.uuid4().hex[:12]})
            assert loaded is not None
            return RedisMemory.connect(loaded)

        memories["Redis"] = shared
    try:
        print(
            f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {platform.node()}, {os.cpu_count()} cores, "
            f"load average {os.getloadavg()[0]:.1f}, Python {platform.python_version()}; "
            f"limits: {settings.messages_per_minute} a minute per client, "
            f"{settings.conversations_per_hour} new conversations an hour per address free, "
            f"{settings.conversations_ceiling} with work, "
            f"{settings.network_ceiling} messages a minute per address\n"
        )
        print(f"### {people} people behind one address within an hour\n")
        print(
            "| rule (memory) | answered | within the hour | at once | told to wait "
            "| wait told (median / max) | asked to work | hashes per page (median / p95 / max) "
            "| ms per request (p50) | run, s |"
        )
        print("|---|---:|---:|---:|---:|---|---:|---|---:|---:|")
        for kind, memory in memories.items():
            for row in await people_behind_one_address(settings, memory, people, kind):
                print(row, flush=True)

        print(
            f"\n### One script flooding new conversations from that address "
            f"({attempts} in the hour)\n"
        )
        print(
            "| script (memory) | new senders | conversations opened | 429 | 401 (work asked) "
            "| hashes done (Python) | wait told at the first 429 |"
        )
        print("|---|---:|---:|---:|---:|---|---|")
        for kind, memory in memories.items():
            for old_page, does_work, what in (
                (True, False, "old rule: no ticket"),
                (False, False, "tickets, work not done"),
                (False, True, "tickets, work done"),
            ):
                result = await flood(
                    settings, memory, attempts, old_page, does_work, f"{what} ({kind})"
                )
                print(flood_row(result), flush=True)

        print("\n### Messages a minute\n")
        print("| who | client | answered | 429 |")
        print("|---|---|---:|---:|")
        for row in await messages_a_minute(settings):
            print(row, flush=True)

        print("\n### The memory down\n")
        print(await memory_down(settings, 100))
    finally:
        if redis is not None:
            redis.stop()
        directory.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=300)
    parser.add_argument("--flood", type=int, default=1000)
    parser.add_argument("--redis", action="store_true", help="also with a redis-server of its own")
    args = parser.parse_args()
    asyncio.run(run(args.people, args.flood, args.redis))


if __name__ == "__main__":
    main()
