"""Two Rasa servers sharing one PostgreSQL tracker store and one Redis lock store.

The production setup (endpoints.production.yml, docs/OPERATIONS.md) lets any Rasa process
answer any message of any conversation. That only works if the processes never lose or
double a turn: each message must be stored exactly once, followed by the replies its sender
got, before the next message of the same conversation is handled. These tests send
conversations to two real Rasa processes, alternating between them, one after the other and at
the same moment, and then read every conversation back from the ``events`` table.

Needs PostgreSQL and Redis (as CI has them); without them the tests are skipped with the
reason, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import psycopg
import pytest

from scripts.stack import ROOT, Stack, free_port, fresh_keys, production_store_env
from tests.integration.conftest import MODEL

pytestmark = [pytest.mark.integration, pytest.mark.postgres]

PG_ADMIN = os.environ.get("SHARED_STORES_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("SHARED_STORES_REDIS_URL", "redis://127.0.0.1:6379/1")

#: Five turns per language slice: greeting, questions, a menu number, thanks.
CONVERSATIONS = {
    "en": ["hello", "when is the next flight?", "is abbey gate open?", "3", "thank you"],
    "prs_arab": ["سلام", "پرواز بعدی چی وقت است", "میدان هوایی باز است؟", "۴", "تشکر"],
    "prs_latn": ["salam", "parwaz chi waqt ast", "airport baz ast?", "3", "tashakor"],
    "ps_arab": ["سلام", "الوتکه کله ده", "د کابل هوايي ډګر خلاص دی؟", "۲", "مننه"],
    "ps_latn": ["salam", "alwatka kala da", "airport khlas dai", "4", "manana"],
}


def _postgres_problem() -> str | None:
    try:
        with psycopg.connect(PG_ADMIN, connect_timeout=3):
            return None
    except psycopg.Error as error:
        return f"PostgreSQL unreachable at {PG_ADMIN}: {str(error).splitlines()[0]}"


def _redis_problem() -> str | None:
    url = urllib.parse.urlsplit(REDIS_URL)
    try:
        with socket.create_connection((url.hostname, url.port or 6379), timeout=3) as sock:
            sock.sendall(b"PING\r\n")
            reply = sock.recv(64)
    except OSError as error:
        return f"Redis unreachable at {REDIS_URL}: {error}"
    if not reply.startswith((b"+PONG", b"-NOAUTH")):
        return f"no Redis at {REDIS_URL}: {reply[:40]!r}"
    return None


@pytest.fixture(scope="module")
def services() -> None:
    """Skip (visibly) without PostgreSQL or Redis; in CI (CI=true) their absence fails."""
    problem = _postgres_problem() or _redis_problem()
    if problem is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{problem} (CI=true: the shared-store tests are mandatory)")
    pytest.skip(problem)


@dataclass
class SharedStack:
    stack: Stack
    #: psycopg connection string of the fresh database holding the tracker store (and content).
    database: str


def _content_cli(db_url: str, *args: str) -> None:
    env = dict(os.environ, CONTENT_DB_URL=db_url, PYTHONPATH=str(ROOT))
    subprocess.run(
        [sys.executable, "-m", "actions.content", *args],
        env=env,
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )


@pytest.fixture(scope="module")
def shared(services: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedStack]:
    """Two Rasa processes and one action server on a fresh database, dropped afterwards."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    suffix = uuid.uuid4().hex[:12]
    name = f"test_shared_stores_{suffix}"
    pg = urllib.parse.urlsplit(PG_ADMIN)
    with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    database = pg._replace(path=f"/{name}").geturl()
    stack: Stack | None = None
    try:
        content_url = f"postgresql+psycopg://{pg.netloc}/{name}"
        _content_cli(content_url, "migrate")
        _content_cli(content_url, "seed")
        stack = Stack(
            model=MODEL,
            content_db_url=content_url,
            log_dir=tmp_path_factory.mktemp("shared-logs"),
            rasa_port=free_port(),
            more_rasa_ports=(free_port(),),
            action_port=free_port(),
            endpoints=ROOT / "endpoints.production.yml",
            # Other test runs may share this Redis: locks of their own.
            extra_env={
                **production_store_env(database, REDIS_URL, f"test{suffix}"),
                **fresh_keys(),
            },
        )
        stack.start()
        yield SharedStack(stack, database)
    finally:
        if stack is not None:
            stack.stop()
        with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- talking to the servers ------------------------------------------------------------------


@dataclass
class Sent:
    sender: str
    text: str
    #: The REST reply's texts joined without white space (the channel splits at blank lines).
    reply: str


def squeeze(texts: list[str]) -> str:
    return "".join("".join(texts).split())


async def say(session: aiohttp.ClientSession, url: str, sender: str, text: str) -> Sent:
    async with session.post(
        f"{url}/webhooks/rest/webhook", json={"sender": sender, "message": text}
    ) as response:
        assert response.status == 200, f"{url} answered {response.status} to {text!r}"
        body = await response.json()
    assert body, f"{url} sent no reply to {text!r}"
    return Sent(sender, text, squeeze([str(message.get("text") or "") for message in body]))


def client() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))


# --- reading the store back --------------------------------------------------------------------


def stored_events(database: str, sender: str) -> list[dict[str, Any]]:
    """A conversation's events in the order Rasa stored them."""
    with psycopg.connect(database) as connection:
        rows = connection.execute(
            "SELECT data FROM events WHERE sender_id = %s ORDER BY id", (sender,)
        ).fetchall()
    return [json.loads(data) for (data,) in rows]


def turns(events: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Each user message with the events that followed it, up to the next user message."""
    result: list[tuple[str, list[dict[str, Any]]]] = []
    for event in events:
        if event["event"] == "user":
            result.append((event["text"], []))
        elif result:
            result[-1][1].append(event)
    return result


def assert_complete(database: str, sender: str, sent: list[Sent], ordered: bool = True) -> None:
    """Each message stored once, answered with what its sender got, the turn closed.

    ``ordered``: the messages were sent one after the other, so the store must keep their
    order; messages sent at the same moment may be stored in either order.
    """
    stored = turns(stored_events(database, sender))
    texts = [text for text, _ in stored]
    expected = [s.text for s in sent]
    assert (texts if ordered else sorted(texts)) == (expected if ordered else sorted(expected)), (
        f"{sender}: stored user messages {texts}, sent {expected}"
    )
    replies = {s.text: s.reply for s in sent}
    for text, after in stored:
        bots = [str(e.get("text") or "") for e in after if e["event"] == "bot"]
        assert bots, f"{sender}: {text!r} has no bot reply in the store"
        assert squeeze(bots) == replies[text], (
            f"{sender}: the store's reply to {text!r} is not the one its sender received"
        )
        closing = [e for e in after if e["event"] == "action"][-1]
        assert closing["name"] == "action_listen", (
            f"{sender}: the turn of {text!r} ends with {closing['name']}, not action_listen"
        )


# --- tests -------------------------------------------------------------------------------------


async def test_alternating_servers_keep_every_turn(shared: SharedStack) -> None:
    """Ten conversations at once, each sending every other message to the other server."""
    servers = shared.stack.rasa_urls
    assert len(servers) == 2

    async def converse(session: aiohttp.ClientSession, sender: str, texts: list[str]) -> list[Sent]:
        return [
            await say(session, servers[number % 2], sender, text)
            for number, text in enumerate(texts)
        ]

    run = uuid.uuid4().hex[:8]
    plan = {
        f"alt-{run}-{language}-{copy}": texts
        for language, texts in CONVERSATIONS.items()
        for copy in range(2)
    }
    async with client() as session:
        results = await asyncio.gather(
            *(converse(session, sender, texts) for sender, texts in plan.items())
        )
    for sender, sent in zip(plan, results, strict=True):
        assert_complete(shared.database, sender, sent)


async def test_both_servers_see_the_same_history(shared: SharedStack) -> None:
    """What one server stored, the other serves: the HTTP API gives both the same events."""
    sender = f"same-{uuid.uuid4().hex[:8]}"
    first, second = shared.stack.rasa_urls
    async with client() as session:
        await say(session, first, sender, "salam")
        await say(session, second, sender, "parwaz chi waqt ast")
        trackers = []
        for url in (first, second):
            async with session.get(f"{url}/conversations/{sender}/tracker") as response:
                assert response.status == 200
                trackers.append((await response.json())["events"])
    assert trackers[0] == trackers[1]
    assert [e["text"] for e in trackers[0] if e["event"] == "user"] == [
        "salam",
        "parwaz chi waqt ast",
    ]


async def test_simultaneous_messages_to_both_servers_are_serialised(shared: SharedStack) -> None:
    """Two messages of one conversation arriving at the same moment, one at each server.

    Without the shared lock both servers would load the same history, add their turn and
    save, and one turn would be lost or interleaved with the other. With it, the second waits
    for the first (Rasa polls the lock once a second) and both are kept whole.
    """
    first, second = shared.stack.rasa_urls
    run = uuid.uuid4().hex[:8]
    senders = [f"sim-{run}-{number}" for number in range(6)]
    rounds = [
        ("hello", "when is the next flight?"),
        ("is abbey gate open?", "announcements"),
        ("documents", "thank you"),
    ]

    async def converse(session: aiohttp.ClientSession, sender: str) -> list[Sent]:
        sent: list[Sent] = []
        for one, other in rounds:
            sent += await asyncio.gather(
                say(session, first, sender, one), say(session, second, sender, other)
            )
        return sent

    async with client() as session:
        results = await asyncio.gather(*(converse(session, sender) for sender in senders))
    for sender, sent in zip(senders, results, strict=True):
        stored = [text for text, _ in turns(stored_events(shared.database, sender))]
        for number, (one, other) in enumerate(rounds):
            assert sorted(stored[2 * number : 2 * number + 2]) == sorted([one, other]), (
                f"{sender}: round {number + 1} stored as {stored}"
            )
        assert_complete(shared.database, sender, sent, ordered=False)
