"""Cases benchmark: how soon a person who asks for a person reaches a caseworker and a helpdesk.

    .venv/actions/bin/python scripts/bench_cases.py [--parts handoff,queue,webhook] \\
        [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test] [--samples 10] \\
        [--cases 1000] [--runs 50] [--events 20]

Why: someone separated from their family at a gate writes "I need to talk to a real person";
every second until a caseworker sees it counts, and so does the queue page that a caseworker on
a phone reloads all day.

* ``handoff`` — the real stack (``scripts/stack.py``: Rasa, the action server, the admin server
  and the notifier, SQLite): "I need to talk to a real person" over the REST channel, timed
  until the console's queue (``GET /console/cases``, signed in as a caseworker) answers with
  the new case, and until a local helpdesk receiver got its ``case.opened``.
* ``queue`` — ``GET /console/cases`` with ``--cases`` open cases (one in ten urgent), the admin
  application in-process over HTTP, on SQLite and (``--postgres``) PostgreSQL.
* ``webhook`` — a case opened (its transaction committed) until the helpdesk receiver got the
  event, through the notifier's sender (``actions/cases/webhook_sender.py``) at its default
  poll and a faster one, on SQLite and PostgreSQL.
* ``reply`` — the real stack with the Telegram channel and a fake Telegram API
  (``scripts/fake_providers.py``): a person asks for a person on Telegram, a caseworker takes
  the case and replies; timed from the console's POST of the reply until the fake provider got
  it in that chat (the notifier's courier, Rasa's ``EXTERNAL_case_reply``, the connector), at
  the notifier's default poll (``ALERT_POLL_SECONDS``, 1 s).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import platform
import re
import secrets
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402
from aiohttp.test_utils import TestClient, TestServer  # noqa: E402
from sqlalchemy import select, text, update  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from actions.admin.app import create_app  # noqa: E402
from actions.admin.console import sessions  # noqa: E402
from actions.alerts.notifier_settings import WebhookSettings  # noqa: E402
from actions.cases import store  # noqa: E402
from actions.cases.webhook_sender import CaseWebhookSender  # noqa: E402
from actions.content import db  # noqa: E402
from actions.content.migrate import upgrade_to_head  # noqa: E402
from actions.content.models import Organisation  # noqa: E402
from actions.content.seed.loader import read_file  # noqa: E402
from actions.publishing import load  # noqa: E402
from kernel import case_events  # noqa: E402
from scripts.bench_content import (  # noqa: E402
    Latency,
    cpu_model,
    latency,
    postgres_schema,
    sqlite_database,
)
from scripts.fake_providers import (  # noqa: E402
    CHANNEL_SECRETS,
    CREDENTIALS,
    FakeProviders,
    send_telegram,
)
from scripts.stack import Stack, free_port  # noqa: E402

MODEL = ROOT / "models" / "assistant.tar.gz"
CSRF = re.compile(r'name="csrf" value="([0-9a-f]{64})"')
CASE_LINK = re.compile(r'href="/console/cases/(\d+)"')
#: The queue's last page (a page past the end shows the last one): where a new case that is
#: not urgent appears, however many are open.
NEWEST = "/console/cases?page=99999"
ASK_FOR_A_PERSON = "I need to talk to a real person"
PROBLEM = "My family and I were separated at Abbey Gate"
TARGET_QUEUE_P95_MS = 100.0
#: Poll intervals of the sender timed by ``webhook``: the default, and a faster one.
WEBHOOK_POLLS = (WebhookSettings.poll_seconds, 0.2)


def spread(number: int, interval: float) -> float:
    """A pause before the ``number``-th request that spreads requests evenly (and repeatably)
    over the sender's poll ``interval``, as people's messages are: timing them in step with
    the polling would measure the interval, not the path."""
    return interval * ((number * 61) % 97) / 97 + 0.01


def case_ids(page: str) -> set[int]:
    """The case numbers the queue page links to (the only way it names a case)."""
    return {int(number) for number in CASE_LINK.findall(page)}


@dataclass
class Receiver:
    """A helpdesk's endpoint on a free local port: when each case's events arrived."""

    arrived: dict[tuple[int, str], list[float]] = field(default_factory=dict)
    _runner: web.AppRunner | None = None
    url: str = ""

    async def _hook(self, request: web.Request) -> web.Response:
        event = await request.json()
        key = (event["case"]["id"], event["type"])
        self.arrived.setdefault(key, []).append(time.perf_counter())
        return web.Response(status=204)

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/hooks/cases", self._hook)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        port = free_port()
        await web.TCPSite(self._runner, "127.0.0.1", port).start()
        self.url = f"http://127.0.0.1:{port}/hooks/cases"
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def got(
        self, case_id: int, event_type: str = case_events.OPENED, nth: int = 1, timeout: float = 30
    ) -> float:
        """When the ``nth`` event of ``event_type`` of ``case_id`` arrived (perf_counter)."""
        deadline = time.perf_counter() + timeout
        while len(self.arrived.get((case_id, event_type), ())) < nth:
            if time.perf_counter() > deadline:
                raise RuntimeError(f"case {case_id}: no {event_type} #{nth} within {timeout:.0f} s")
            await asyncio.sleep(0.005)
        return self.arrived[(case_id, event_type)][nth - 1]


def prepare(url: str) -> None:
    """Migrated, the demo content, and caseworkers answering at any hour (the clock may be
    outside the demo's 08:00-20:00 Kabul time)."""
    os.environ[db.URL_ENV] = url
    engine = db.get_engine()
    upgrade_to_head(engine)
    with Session(engine) as session, session.begin():
        load(session, read_file(), datetime.now(timezone.utc))
        session.execute(
            update(Organisation)
            .where(Organisation.slug == "kabul-aid-network")
            .values(case_hours="00:00-00:00")
        )


def invite_caseworker() -> str:
    """A caseworker of the organisation the cases go to (the one taking cases round the clock)."""
    with Session(db.get_engine()) as session, session.begin():
        staffing = session.scalars(
            select(Organisation).where(Organisation.slug == "kabul-aid-network")
        ).one()
        now = datetime.now(timezone.utc)
        return sessions.invite(session, "bench", now, "caseworker", staffing).code


class ConsoleOverHttp:
    """The admin server's console as a signed-in browser uses it, through HTTP: every page and
    every form answers 200 (redirects followed), or the benchmark stops naming the path."""

    def __init__(self, http: aiohttp.ClientSession, base_url: str) -> None:
        self.http = http
        self.base_url = base_url

    async def get(self, path: str) -> str:
        async with self.http.get(f"{self.base_url}{path}") as response:
            assert response.status == 200, f"{path}: HTTP {response.status}"
            return await response.text()

    async def post(self, path: str, data: dict[str, str]) -> str:
        async with self.http.post(f"{self.base_url}{path}", data=data) as response:
            assert response.status == 200, f"{path}: HTTP {response.status}"
            return await response.text()


async def sign_in(
    get: Callable[[str], Awaitable[str]], post: Callable[..., Awaitable[str]]
) -> None:
    form = CSRF.search(await get("/console/signin"))
    assert form is not None, "no sign-in form"
    page = await post("/console/signin", {"csrf": form.group(1), "code": invite_caseworker()})
    assert CSRF.search(page) is not None, "the caseworker's sign-in failed"


# -- (a) handoff: the real stack --------------------------------------------------------------


@dataclass(frozen=True)
class Handoff:
    answered_ms: list[float]  # the REST channel's answer ("a caseworker … will answer")
    queue_ms: list[float]  # until the console's queue lists the case
    helpdesk_ms: list[float]  # until the helpdesk receiver got case.opened
    message_ms: list[float]  # a message in the paused conversation until its case.message


async def handoffs(stack: Stack, receiver: Receiver, samples: int) -> Handoff:
    jar = aiohttp.CookieJar(unsafe=True)  # the console is on 127.0.0.1
    timeout = aiohttp.ClientTimeout(total=60)
    answered, queued, told, relayed = [], [], [], []
    async with aiohttp.ClientSession(cookie_jar=jar, timeout=timeout) as http:
        console = ConsoleOverHttp(http, stack.admin_url)

        async def say(sender: str, message: str) -> list[object]:
            url = f"{stack.rasa_url}/webhooks/rest/webhook"
            async with http.post(url, json={"sender": sender, "message": message}) as response:
                replies: list[object] = await response.json()
                return replies

        await sign_in(console.get, console.post)
        # Not timed: the first request for a person (its action, queries and templates warm up).
        await say(f"bench-warm-up-{secrets.token_hex(4)}", ASK_FOR_A_PERSON)
        for sample in range(samples):
            # People do not write in step with the sender's polling: spread over one interval.
            await asyncio.sleep(spread(sample, WebhookSettings.poll_seconds))
            before = case_ids(await console.get(NEWEST))
            sender = f"bench-cases-{sample}-{secrets.token_hex(4)}"
            started = time.perf_counter()
            replies = await say(sender, ASK_FOR_A_PERSON)
            answered.append((time.perf_counter() - started) * 1000)
            if not replies:
                raise RuntimeError("the assistant did not answer the request for a person")
            new: set[int] = set()
            while not new:
                if time.perf_counter() - started > 30:
                    raise RuntimeError("the case did not appear in the queue within 30 s")
                new = case_ids(await console.get(NEWEST)) - before
            queued.append((time.perf_counter() - started) * 1000)
            (case_id,) = new
            told.append((await receiver.got(case_id) - started) * 1000)
            # The person's problem: recorded and queued by Rasa's tracker store, no answer.
            await asyncio.sleep(spread(sample + 50, WebhookSettings.poll_seconds))
            written = time.perf_counter()
            if await say(sender, PROBLEM):
                raise RuntimeError("the assistant answered in a paused conversation")
            # The request was the case's first case.message; this one is the second.
            arrived = await receiver.got(case_id, case_events.MESSAGE, nth=2)
            relayed.append((arrived - written) * 1000)
    return Handoff(answered, queued, told, relayed)


async def measure_handoff(samples: int) -> Handoff:
    if not MODEL.exists():
        raise SystemExit(f"{MODEL} is missing: run `make train` first")
    receiver = Receiver()
    await receiver.start()
    with tempfile.TemporaryDirectory(prefix="bench-cases-") as directory:
        url = f"sqlite:///{Path(directory) / 'content.db'}"
        prepare(url)
        db.dispose_engine()
        stack = Stack(
            model=MODEL,
            content_db_url=url,
            log_dir=Path(directory) / "logs",
            rasa_port=free_port(),
            action_port=free_port(),
            admin_port=free_port(),
            with_notifier=True,
            extra_env={
                "RASA_API_TOKEN": secrets.token_urlsafe(24),
                "CONVERSATION_ID_KEY": secrets.token_urlsafe(32),
                case_events.URL_ENV: receiver.url,
                case_events.SECRET_ENV: secrets.token_hex(32),
            },
        )
        try:
            await asyncio.to_thread(stack.start)
            return await handoffs(stack, receiver, samples)
        finally:
            await asyncio.to_thread(stack.stop)
            await receiver.stop()
            db.dispose_engine()


# -- (d) reply: a caseworker's reply until the person's provider has it -------------------------


async def replies(stack: Stack, providers: FakeProviders, samples: int) -> list[float]:
    jar = aiohttp.CookieJar(unsafe=True)  # the console is on 127.0.0.1
    timings: list[float] = []
    async with aiohttp.ClientSession(cookie_jar=jar) as http:
        console = ConsoleOverHttp(http, stack.admin_url)

        async def press(path: str, data: dict[str, str]) -> str:
            """Posts a form of the page it is on, with that page's CSRF token."""
            form = CSRF.search(await console.get(path.rsplit("/", 1)[0]))
            assert form is not None, f"no form on {path}"
            return await console.post(path, {"csrf": form.group(1), **data})

        await sign_in(console.get, console.post)
        for sample in range(samples + 1):  # the first, not timed, warms the path up
            chat = 730000000 + sample * 1000 + secrets.randbelow(1000)
            before = case_ids(await console.get(NEWEST))
            await send_telegram(http, stack.rasa_url, chat, ASK_FOR_A_PERSON)
            (case_id,) = case_ids(await console.get(NEWEST)) - before
            await press(f"/console/cases/{case_id}/take", {})
            text = f"Hello, I am looking at your case now ({sample})."
            # A caseworker reads before answering: more than Telegram's one message a second to
            # a chat after the assistant's own answer (faster, the fake answers 429 as Telegram
            # does and the courier waits its backoff); and not in step with the courier's poll.
            await asyncio.sleep(1.5 + spread(sample, 1.0))
            sent = len(providers.to("telegram", str(chat)))
            started = time.perf_counter()
            await press(f"/console/cases/{case_id}/reply", {"text": text, "language": "en"})
            while not any(text in r.text for r in providers.to("telegram", str(chat))[sent:]):
                if time.perf_counter() - started > 60:
                    raise RuntimeError("the reply did not reach the provider within 60 s")
                await asyncio.sleep(0.01)
            if sample:
                timings.append((time.perf_counter() - started) * 1000)
    return timings


async def measure_reply(samples: int) -> list[float]:
    if not MODEL.exists():
        raise SystemExit(f"{MODEL} is missing: run `make train` first")
    providers = FakeProviders()
    with tempfile.TemporaryDirectory(prefix="bench-replies-") as directory:
        base = Path(directory)
        url = f"sqlite:///{base / 'content.db'}"
        prepare(url)
        db.dispose_engine()
        credentials = base / "credentials.yml"
        credentials.write_text(CREDENTIALS, encoding="utf-8")
        provider_url = await providers.start(free_port())
        key = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
        stack = Stack(
            model=MODEL,
            content_db_url=url,
            log_dir=base / "logs",
            rasa_port=free_port(),
            action_port=free_port(),
            admin_port=free_port(),
            with_notifier=True,
            extra_env={
                **CHANNEL_SECRETS,
                **FakeProviders.environment(provider_url),
                "RASA_CREDENTIALS": str(credentials),
                "RASA_API_TOKEN": secrets.token_urlsafe(24),
                "CONVERSATION_ID_KEY": secrets.token_urlsafe(32),
                "ADDRESS_ENCRYPTION_KEY": key,
            },
        )
        try:
            await asyncio.to_thread(stack.start)
            return await replies(stack, providers, samples)
        finally:
            await asyncio.to_thread(stack.stop)
            await providers.stop()
            db.dispose_engine()


# -- (b) queue: the console's queue page with many open cases ---------------------------------


def open_cases(count: int) -> None:
    now = datetime.now(timezone.utc)
    with Session(db.get_engine()) as session, session.begin():
        for number in range(count):
            store.open_case(
                session,
                conversation_id=f"telegram-{number:040x}",
                channel=("telegram", "whatsapp", "sms_gateway")[number % 3],
                language=("prs", "ps", "en")[number % 3],
                organisation=None,
                request="طفلم زخمی است" if number % 10 == 0 else f"ویزه ام رد شد {number}",
                assistant_answers=["A caseworker of Kabul Aid Network will answer you here."],
                now=now - timedelta(seconds=count - number),
            )


async def time_queue(runs: int) -> Latency:
    async with TestClient(TestServer(create_app(db.get_engine()))) as client:

        async def get(path: str) -> str:
            response = await client.get(path)
            assert response.status == 200, f"{path}: HTTP {response.status}"
            return await response.text()

        async def post(path: str, data: dict[str, str]) -> str:
            return await (await client.post(path, data=data)).text()

        await sign_in(get, post)
        timings = []
        for index in range(runs + 10):
            started = time.perf_counter()
            await get("/console/cases")
            if index >= 10:  # warm-up: connection pool, SQL compile cache, templates
                timings.append((time.perf_counter() - started) * 1000)
        return latency(timings)


def measure_queue(url: str, cases: int, runs: int) -> Latency:
    os.environ.pop(case_events.URL_ENV, None)
    try:
        prepare(url)
        open_cases(cases)
        if db.get_engine().dialect.name == "postgresql":
            with db.get_engine().begin() as connection:
                connection.execute(text("ANALYZE"))
        return asyncio.run(time_queue(runs))
    finally:
        db.dispose_engine()


# -- (c) webhook: a case event to the helpdesk ------------------------------------------------


async def time_webhook(events: int, poll: float) -> Latency:
    receiver = Receiver()
    os.environ[case_events.URL_ENV] = await receiver.start()
    settings = WebhookSettings.from_env()
    assert settings is not None
    sender = CaseWebhookSender(
        WebhookSettings(url=settings.url, secret=secrets.token_hex(32), poll_seconds=poll)
    )
    running = asyncio.create_task(sender.run())
    timings = []
    try:
        for number in range(events):
            await asyncio.sleep(spread(number, poll))
            case_id = await asyncio.to_thread(opened_now, number)
            committed = time.perf_counter()
            timings.append((await receiver.got(case_id) - committed) * 1000)
    finally:
        sender.stop()
        await running
        await receiver.stop()
        os.environ.pop(case_events.URL_ENV, None)
    return latency(timings)


def opened_now(number: int) -> int:
    with db.session_scope() as session:
        case = store.open_case(
            session,
            conversation_id=f"webchat-{secrets.token_hex(20)}",
            channel="webchat",
            language="ps",
            organisation=None,
            request=f"زما پاسپورت ورک شوی {number}",
            assistant_answers=[],
            now=datetime.now(timezone.utc),
        )
        return case.id


def measure_webhook(url: str, events: int) -> dict[str, Latency]:
    try:
        prepare(url)
        return {
            f"poll {poll:g} s": asyncio.run(time_webhook(events, poll)) for poll in WEBHOOK_POLLS
        }
    finally:
        db.dispose_engine()


# -- report -----------------------------------------------------------------------------------


def row(name: str, figures: Latency, unit: str = "ms") -> str:
    return f"| {name} | {figures.p50:.1f} | {figures.p95:.1f} | {figures.p99:.1f} | {unit} |"


HEADER = "| measure | p50 | p95 | p99 | unit |\n|---|---:|---:|---:|---|"

#: The parts, in the order they run.
PARTS = ("handoff", "queue", "webhook", "reply")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--parts", default=",".join(PARTS), help="comma-separated, of " + ", ".join(PARTS)
    )
    parser.add_argument(
        "--postgres", metavar="URL", help="also run queue and webhook on PostgreSQL"
    )
    parser.add_argument("--samples", type=int, default=10, help="requests for a person (handoff)")
    parser.add_argument("--cases", type=int, default=1000, help="open cases in the queue")
    parser.add_argument("--runs", type=int, default=50, help="timed queue requests per database")
    parser.add_argument("--events", type=int, default=20, help="timed events per poll setting")
    args = parser.parse_args(argv)
    parts = [part.strip() for part in args.parts.split(",") if part.strip()]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        parser.error(f"unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS)}")

    lines: list[str] = []
    if "handoff" in parts:
        handoff = asyncio.run(measure_handoff(args.samples))
        lines += [
            f'\n## (a) "Talk to a person" through the real stack ({args.samples} people, SQLite)\n',
            HEADER,
            row("REST answer (who answers and when)", latency(handoff.answered_ms)),
            row("until the console's queue lists the case", latency(handoff.queue_ms)),
            row("until the helpdesk got case.opened (notifier)", latency(handoff.helpdesk_ms)),
            row("a message while paused, until its case.message", latency(handoff.message_ms)),
        ]
    backends: list[tuple[str, Callable[[], AbstractContextManager[str]]]] = [
        ("SQLite", sqlite_database)
    ]
    if args.postgres:
        backends.append(("PostgreSQL", lambda: postgres_schema(args.postgres)))
    if "queue" in parts:
        lines += [f"\n## (b) The caseworkers' queue page, {args.cases} open cases\n", HEADER]
        for name, database in backends:
            with database() as url:
                lines.append(
                    row(f"{name}: GET /console/cases", measure_queue(url, args.cases, args.runs))
                )
    if "webhook" in parts:
        lines += [
            f"\n## (c) A case event to the helpdesk receiver ({args.events} events each)\n",
            HEADER,
        ]
        for name, database in backends:
            with database() as url:
                for setting, figures in measure_webhook(url, args.events).items():
                    lines.append(row(f"{name}, {setting}", figures))
    if "reply" in parts:
        lines += [
            f"\n## (d) A caseworker's reply until the person's provider has it "
            f"({args.samples} replies, Telegram, SQLite)\n",
            HEADER,
            row(
                "console POST → fake Telegram API",
                latency(asyncio.run(measure_reply(args.samples))),
            ),
        ]

    print("# Cases: from asking for a person to a caseworker and a helpdesk\n")
    load_average = ", ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(f"- Machine: {os.cpu_count()} CPUs (nproc), {cpu_model()}; {platform.platform()}")
    print(f"- Load average when done (1, 5, 15 min): {load_average}")
    finished = datetime.now(timezone.utc)
    print(f"- Python {platform.python_version()}; date {finished:%Y-%m-%d %H:%M} UTC")
    print(f"- Target for the queue page: p95 < {TARGET_QUEUE_P95_MS:.0f} ms")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
