"""Chaos test: processes killed under a steady conversation load, and what each person got.

    make chaos
    PYTHONPATH=. .venv/actions/bin/python scripts/chaos.py [--users 6] [--think-time 1] \
        [--baseline 10] [--phase 40] [--redis-down 5]

Why: at a checkpoint, silence is the worst answer. A person whose message meets a crashed
process must still get an answer, or at least "sorry, try again" in their language; the
operators need to know how long the assistant takes to come back.

The production profile on this machine: endpoints.production.yml with the tracker store in a
fresh PostgreSQL database of its own (dropped afterwards), the lock store in a Redis server of
the test's own on a free port (never the shared one), two Rasa processes and one action server
(scripts/stack.py). ``--users`` people write in the web chat (``/webchat/webhook``) in English,
Dari and Pashto, in Arabic script and romanized: each holds one conversation after another
(greeting, questions, menu numbers, goodbye; held-out NLU messages), taking ``--think-time``
seconds on average between messages, as the page and a load balancer in front of the two Rasa
processes send them (scripts/loadtest/webchat_people.py): a refused connection goes to the
other process at once, a dropped connection or a 5xx is sent again after 1, 2, 4 ... s, until
``--give-up`` seconds after the message was written.

After ``--baseline`` seconds the test ``kill -9``s the action server; ``--phase`` seconds later
one Rasa process; ``--phase`` seconds later its Redis, which it starts again after
``--redis-down`` seconds; each kill waits (briefly) for a message being answered. The action
server and Rasa are started again by the stack, as under `make run` (``Stack.restart_dead``,
with its backoff). Each message counts for the fault that first held it up, else for the phase
in which its reply came:

* answered: a reply that is not the apology;
* apologised: the reply has the assistant's "sorry, something went wrong, try again" text
  (``channels.try_again`` of the catalogue, matched in all three languages), or on Telegram
  its word that the answer was cut off (``channels.cut_off``);
* lost: no reply by ``--give-up`` seconds, a 4xx, or a reply with no message in it.

Reported per phase: messages, answered, apologised, lost (why), how many needed the page to
send them again, the slowest reply, the time from the kill to the first of at least
``CALM_MESSAGES`` normal answers in a row that close the phase, and when the killed process
answered its health check again. Afterwards every conversation is read back from PostgreSQL
(scripts/loadtest/verify.py): no answered message may be missing, none stored twice. Exit
status 1 if a message was lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import signal
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import aiohttp

from scripts.loadtest import setups
from scripts.loadtest.redis_server import RedisServer, answers_ping
from scripts.loadtest.traffic import Turn, squeeze
from scripts.loadtest.verify import Check, check_conversations, events_from_table, user_turns
from scripts.loadtest.webchat_people import (
    ANSWERED,
    APOLOGISED,
    LOST,
    Balancer,
    Message,
    People,
    apologies,
    apology_patterns,
    deliver,
)
from scripts.stack import ROOT, Stack

#: A crash in the middle of someone's turn is the hard case; a fault waits this long for one.
MAX_AIM_SECONDS = 5.0
#: How long after a request left the page its process dies: inside the turn (about 100 ms).
INTO_THE_TURN_SECONDS = 0.05
#: Normal answers in a row, to the end of a phase, that count as the assistant being back.
CALM_MESSAGES = 10


# --- the faults -----------------------------------------------------------------------------------


@dataclass
class Fault:
    """One process killed at ``at`` seconds into the load, and when it answered again."""

    name: str
    at: float
    kill: Callable[[], Awaitable[None]]
    healthy: Callable[[], Awaitable[bool]]
    #: What to wait for (at most ``MAX_AIM_SECONDS``) before killing: someone being answered.
    aim: Callable[[], bool] = lambda: True
    #: How long after its aim is met it strikes: inside the turn it waited for.
    into_the_turn: float = INTO_THE_TURN_SECONDS
    killed_at: float | None = None
    back_at: float | None = None


async def http_ok(session: aiohttp.ClientSession, url: str) -> bool:
    try:
        async with session.get(url, timeout=aiohttp.ClientTimeout(total=1)) as response:
            return response.status == 200
    except (aiohttp.ClientError, asyncio.TimeoutError):
        return False


def kill_server(stack: Stack, name: str) -> None:
    """``kill -9`` a server of the stack and its workers (its process group)."""
    process = stack.processes()[name]
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)


async def inject(faults: list[Fault], clock: Callable[[], float]) -> None:
    """Kill each in turn at its time, the moment a message is being answered."""
    for fault in faults:
        await asyncio.sleep(max(0.0, fault.at - clock()))
        aiming_until = clock() + MAX_AIM_SECONDS
        while not (aimed := fault.aim()) and clock() < aiming_until:
            await asyncio.sleep(0.005)
        await asyncio.sleep(fault.into_the_turn)
        await fault.kill()
        fault.killed_at = clock()
        missed = "" if aimed else f" (nothing to aim at in {MAX_AIM_SECONDS:g} s)"
        print(
            f"[chaos] {clock():6.1f} s  killed: {fault.name}{missed}", file=sys.stderr, flush=True
        )


async def supervise(stack: Stack, until: Callable[[], bool]) -> None:
    """What `make run` does while it serves: start again every server that died, with the
    stack's backoff (scripts/stack.py ``restart_dead``)."""
    while not until():
        for line in stack.restart_dead():
            print(f"[stack] {line}", file=sys.stderr, flush=True)
        await asyncio.sleep(0.5)


async def watch_recoveries(
    faults: list[Fault], clock: Callable[[], float], until: Callable[[], bool]
) -> None:
    """Note when each killed process answers its health check again."""
    while not until():
        for fault in faults:
            if fault.killed_at is not None and fault.back_at is None and await fault.healthy():
                fault.back_at = clock()
                print(f"[chaos] {clock():6.1f} s  back: {fault.name}", file=sys.stderr, flush=True)
        if all(f.back_at is not None for f in faults):
            return
        await asyncio.sleep(0.25)


# --- the report -----------------------------------------------------------------------------------


@dataclass
class Phase:
    name: str
    start: float
    end: float
    fault: Fault | None
    messages: list[Message]

    def count(self, outcome: str) -> int:
        return sum(1 for m in self.messages if m.outcome == outcome)

    def recovered_after(self) -> float | None:
        """Seconds from the kill to the first of the normal answers that close the phase
        without an apology, a loss or a resend in between, at least ``CALM_MESSAGES`` of them
        (a greeting answered between two failed questions is no recovery); None if there is no
        such run, or nothing was killed."""
        if self.fault is None or self.fault.killed_at is None:
            return None
        ordered = sorted(self.messages, key=lambda m: m.written)
        calm: list[Message] = []
        for message in ordered:
            if message.outcome == ANSWERED and not message.failures:
                calm.append(message)
            else:
                calm = []
        if len(calm) < CALM_MESSAGES:
            return None
        return min(m.answered_at or m.settled for m in calm) - self.fault.killed_at


def phases(messages: list[Message], faults: list[Fault], end: float) -> list[Phase]:
    """Messages grouped by what had last been killed when they first failed or, if they did
    not, when their answer came (``Message.counted_at``). ``end``: the load's."""
    bounds = [("no fault (baseline)", 0.0, None)] + [
        (f.name, f.killed_at or f.at, f) for f in faults
    ]
    result = []
    for index, (name, start, fault) in enumerate(bounds):
        last = index + 1 == len(bounds)
        stop = end if last else bounds[index + 1][1]
        own = [m for m in messages if start <= m.counted_at and (last or m.counted_at < stop)]
        result.append(Phase(name, start, stop, fault, own))
    return result


def _seconds(value: float | None, never: str) -> str:
    return f"{value:.1f}" if value is not None else never


#: What `make chaos` runs, for its report's first line.
ONE_MACHINE = "2 Rasa processes, 1 action server, PostgreSQL tracker store, own Redis lock store."


def report(
    label: str,
    all_phases: list[Phase],
    check: Check,
    users: int,
    think_time: float,
    setup: str = ONE_MACHINE,
    title: str = "Chaos run",
    where: str = "in the web chat",
) -> str:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load1, load5, _ = os.getloadavg()
    heading = " ".join(part for part in (title, label) if part)
    lines = [
        f"**{heading}:** {now}, {os.cpu_count()} cores, load average at the end "
        f"{load1:.2f} / {load5:.2f} (1 / 5 min); {users} people {where} "
        f"(en, prs, ps; Arabic script and romanized), {think_time:g} s mean think time; " + setup,
        "",
        "| phase (from the kill) | s | messages | answered | apologised | lost | sent again "
        "| slowest reply s | recovered after s | process back after s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for phase in all_phases:
        slowest = max(
            (m.answered_at - m.written for m in phase.messages if m.answered_at is not None),
            default=None,
        )
        fault = phase.fault
        back = (
            fault.back_at - fault.killed_at
            if fault and fault.back_at is not None and fault.killed_at is not None
            else None
        )
        lines.append(
            f"| {phase.name} | {phase.end - phase.start:.0f} | {len(phase.messages)} "
            f"| {phase.count(ANSWERED)} | {phase.count(APOLOGISED)} | {phase.count(LOST)} "
            f"| {sum(1 for m in phase.messages if m.retried)} | {_seconds(slowest, '–')} "
            f"| {_seconds(phase.recovered_after(), 'never' if fault else '–')} "
            f"| {_seconds(back, 'never' if fault else '–')} |"
        )
    lost: Counter[str] = Counter()
    again: Counter[str] = Counter()
    for phase in all_phases:
        for m in phase.messages:
            if m.outcome == LOST:
                lost[f"{phase.name}: {m.failures[-1] if m.failures else 'unknown'}"] += 1
            elif m.retried:
                again[f"{phase.name}: {', '.join(sorted(set(m.failures)))}"] += 1
    for title, reasons in (
        ("Lost, why (the last thing the page saw)", lost),
        ("Sent again, why (what the page saw before the answer)", again),
    ):
        if reasons:
            lines += ["", f"{title}:", ""]
            lines += [f"- {reason}: {count}" for reason, count in sorted(reasons.items())]
    lines += [
        "",
        f"Read back from the tracker store: {check.conversations} conversations, "
        f"{check.messages} messages; answered but not stored: {check.lost}; stored twice: "
        f"{check.duplicated}; stored without a bot reply: {check.unanswered}.",
    ]
    return "\n".join(lines) + "\n"


def stored_turns(messages: Iterable[Message]) -> list[Turn]:
    """The messages as the tracker-store check reads them; only normal answers count as
    answered (an apologised or lost message may or may not have reached the store)."""
    from bot.channels.identity import conversation_id

    return [
        Turn(
            conversation_id("webchat", m.sender),
            m.text,
            m.written,
            0.0,
            len(m.texts) if m.outcome == ANSWERED else None,
            None if m.outcome == ANSWERED else "not answered",
            squeeze(m.texts),
        )
        for m in messages
    ]


def details(all_phases: list[Phase], events: Mapping[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Every message and fault, and each conversation's user messages as stored: to find out
    afterwards what happened to one message (results/chaos.json)."""
    from bot.channels.identity import conversation_id

    senders = {m.sender for phase in all_phases for m in phase.messages}
    return {
        "faults": [
            {"name": f.name, "killed_at": f.killed_at, "back_at": f.back_at}
            for f in (p.fault for p in all_phases)
            if f is not None
        ],
        "messages": [{"phase": p.name, **asdict(m)} for p in all_phases for m in p.messages],
        "stored": {
            sender: [
                text for text, _ in user_turns(events.get(conversation_id("webchat", sender), []))
            ]
            for sender in sorted(senders)
        },
    }


# --- main -----------------------------------------------------------------------------------------


async def chaos(
    stack: Stack, redis: RedisServer, args: argparse.Namespace
) -> tuple[list[Message], list[Fault], float]:
    apology = apology_patterns(apologies())
    balancer = Balancer(stack.rasa_urls)
    second_rasa = stack.rasa_urls[1]
    end = args.baseline + 3 * args.phase
    #: Redis is started again by the test (no supervisor knows of it), after ``--redis-down``.
    restarts: list[asyncio.Task[None]] = []
    async with aiohttp.ClientSession() as health:

        async def kill(name: str) -> None:
            kill_server(stack, name)

        async def kill_redis() -> None:
            redis.kill()

            async def restart() -> None:
                await asyncio.sleep(args.redis_down)
                await asyncio.to_thread(redis.start)
                print("[chaos] Redis started again", file=sys.stderr, flush=True)

            restarts.append(asyncio.create_task(restart()))

        faults = [
            Fault(
                "action server",
                args.baseline,
                lambda: kill("actions"),
                lambda: http_ok(health, f"{stack.action_url}/health"),
                aim=lambda: sum(balancer.in_flight.values()) > 0,
            ),
            Fault(
                "one Rasa process",
                args.baseline + args.phase,
                lambda: kill("rasa-2"),
                lambda: http_ok(health, f"{second_rasa}/"),
                aim=lambda: balancer.in_flight[second_rasa] > 0,
            ),
            Fault(
                "Redis",
                args.baseline + 2 * args.phase,
                kill_redis,
                lambda: asyncio.to_thread(answers_ping, redis.host, redis.port),
                aim=lambda: sum(balancer.in_flight.values()) > 0,
            ),
        ]
        start = time.monotonic()
        people = People(balancer, args.users, args.think_time, args.give_up, apology, start, end)
        load = asyncio.create_task(people.run())
        await asyncio.gather(
            load,
            inject(faults, people.clock),
            watch_recoveries(faults, people.clock, load.done),
            supervise(stack, load.done),
        )
        await asyncio.gather(*restarts)
    return people.messages, faults, end


async def warm_up(urls: list[str], give_up: float = 30.0) -> None:
    """One message per Rasa process, so that no phase pays for a first-message cost."""
    apology = apology_patterns(apologies())
    async with aiohttp.ClientSession() as session:
        for url in urls:
            message = Message(f"warmup{uuid.uuid4().hex}", "en", "hello", time.monotonic())
            await deliver(session, Balancer([url]), message, apology, time.monotonic, give_up)
            if message.outcome != ANSWERED:
                raise RuntimeError(f"{url} did not answer the first message: {message.failures}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--users", type=int, default=6, help="people chatting at once")
    parser.add_argument("--think-time", type=float, default=1.0, help="mean s between messages")
    parser.add_argument("--baseline", type=float, default=10.0, help="s before the first kill")
    parser.add_argument("--phase", type=float, default=40.0, help="s between kills, and after")
    parser.add_argument("--redis-down", type=float, default=5.0, help="s Redis stays dead")
    parser.add_argument(
        "--give-up",
        type=float,
        default=90.0,
        help="s a message may wait (the page never stops; Rasa's conversation lock lasts 60 s)",
    )
    parser.add_argument("--label", default="", help="e.g. before / after, for the report")
    parser.add_argument("--model", type=Path, default=ROOT / "models" / "assistant.tar.gz")
    parser.add_argument(
        "--pg-admin-url",
        default=os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/test"),
        help="a database to run CREATE DATABASE from",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "chaos.md")
    args = parser.parse_args()
    if not args.model.exists():
        parser.error(f"{args.model} is missing: run `make train`")

    # The tracker-store check finds each conversation under the id the web chat gives it.
    os.environ["CONVERSATION_ID_KEY"] = secrets.token_urlsafe(32)
    # Ctrl-C and SIGTERM alike end the run through the clean-up below (no process, no database
    # left behind), also inside the event loop.
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda signum, _: sys.exit(128 + signum))
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="chaos-") as tmp:
        work = Path(tmp)
        model = work / "assistant.tar.gz"
        shutil.copy2(args.model, model)  # others may retrain models/ meanwhile
        redis = RedisServer(work / "logs-production")
        redis.start()
        setup: setups.Setup | None = None
        try:
            setup = setups.production(
                model, work, args.pg_admin_url, redis.url, 1, 1, rasa_processes=2
            )
            print("[chaos] starting the stack ...", file=sys.stderr, flush=True)
            setup.stack.start(timeout=300)
            try:
                asyncio.run(warm_up(setup.stack.rasa_urls))
                messages, faults, end = asyncio.run(chaos(setup.stack, redis, args))
                assert setup.tracker_db is not None
                events = events_from_table(setup.tracker_db, "webchat")
                check = check_conversations(stored_turns(messages), events)
            finally:
                setup.stack.stop()
                logs = args.out.parent / "chaos-logs"
                shutil.rmtree(logs, ignore_errors=True)
                shutil.copytree(work / "logs-production", logs)
        except BaseException:
            for log in sorted((work / "logs-production").glob("*.log")):
                print(f"--- {log.name}, last lines:", file=sys.stderr)
                print(
                    "\n".join(log.read_text(errors="replace").splitlines()[-15:]), file=sys.stderr
                )
            raise
        finally:
            redis.stop()
            if setup is not None:
                setup.cleanup()
    all_phases = phases(messages, faults, end)
    label = f"({args.label}) " if args.label else ""
    text = report(label.strip(), all_phases, check, args.users, args.think_time)
    text += f"\nWhole run: {time.monotonic() - began:.0f} s.\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    args.out.with_suffix(".json").write_text(
        json.dumps(details(all_phases, events), ensure_ascii=False, indent=1), encoding="utf-8"
    )
    print(text)
    return 1 if any(m.outcome == LOST for m in messages) else 0


if __name__ == "__main__":
    sys.exit(main())
