"""A turn that reads only the rows stored since the last one answers as Rasa's full read does.

The production tracker store keeps each conversation's session events in the worker
(``bot/session_snapshots.py``). Here the same conversations go to two agents of the real model
and a real action server, turn by turn at the same moment: one reads conversations with Rasa's
own ``SQLTrackerStore``, the other with the project's store, both on real PostgreSQL. Each
turn's answers and the slots after it must be the same; so must the tracker each store reads.
The conversations cross sessions (an hour and more without a message, slots carried over from
the earlier session), a conversation is handed over and paused, and one is deleted.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
import urllib.request
import uuid
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from rasa.core.agent import Agent
from rasa.core.tracker_store import SQLTrackerStore, TrackerStore
from rasa.shared.core.events import ConversationPaused, Event, SessionStarted
from rasa.utils.endpoints import EndpointConfig

from bot import patches
from bot.stores import ForgetfulSQLTrackerStore
from scripts.stack import ACTIONS_BIN, ROOT, action_server_command, free_port

pytestmark = [pytest.mark.integration, pytest.mark.postgres]

MODEL = ROOT / "models" / "assistant.tar.gz"

PG_ADMIN = os.environ.get("SHARED_STORES_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
SECRET = "snapshots-test-secret"
HOUR = 3600.0

#: (seconds the person stays away before it, message) per conversation: three languages,
#: two sessions each (an hour and a half away: the session expires after 60 minutes).
CONVERSATIONS: dict[str, list[tuple[float, str]]] = {
    "en": [
        (0, "hello"),
        (0, "pashto"),
        (0, "when is the next flight?"),
        (5, "is abbey gate open?"),
        (1.5 * HOUR, "hi"),
        (0, "what documents do I need?"),
        (0, "3"),
    ],
    "prs": [
        (0, "سلام"),
        (0, "پرواز بعدی چی وقت است"),
        (0, "میدان هوایی باز است؟"),
        (2 * HOUR, "تشکر"),
        (0, "۴"),
    ],
    "ps": [
        (0, "سلام"),
        (0, "الوتکه کله ده"),
        (0, "۲"),
        (1.5 * HOUR, "د کابل هوايي ډګر خلاص دی؟"),
        (0, "مننه"),
    ],
}


def _postgres_problem() -> str | None:
    try:
        sa.create_engine(PG_ADMIN).connect().close()
        return None
    except sa.exc.OperationalError as error:
        return f"PostgreSQL unreachable at {PG_ADMIN}: {str(error).splitlines()[0]}"


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    if problem := _postgres_problem():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{problem} (CI=true: mandatory)")
        pytest.skip(problem)
    name = f"test_snapshots_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    yield name
    with admin.connect() as connection:
        connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="module")
def action_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real action server on a seeded content database."""
    content = f"sqlite:///{tmp_path_factory.mktemp('content') / 'content.db'}"
    env = dict(
        os.environ, CONTENT_DB_URL=content, PYTHONPATH=str(ROOT), ACTION_SERVER_SECRET=SECRET
    )
    for step in ("migrate", "seed"):
        subprocess.run(
            [str(ACTIONS_BIN / "python"), "-m", "actions.content", step],
            env=env,
            check=True,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
        )
    port = free_port()
    log = (tmp_path_factory.mktemp("logs") / "actions.log").open("wb")
    server = subprocess.Popen(
        action_server_command(port),
        env={**env, "SANIC_HOST": "127.0.0.1"},
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(f"{url}/health", timeout=2).close()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail(f"the action server did not start: see {log.name}")
            time.sleep(0.5)
    # Rasa's side of the question log and the case inbox write to the same content database.
    before = os.environ.get("CONTENT_DB_URL")
    os.environ["CONTENT_DB_URL"] = content
    yield f"{url}/webhook"
    if before is None:
        os.environ.pop("CONTENT_DB_URL", None)
    else:
        os.environ["CONTENT_DB_URL"] = before
    server.terminate()
    server.wait(10)
    log.close()


class Clock:
    """``time.time`` moved forward by hand: an hour away without waiting an hour."""

    def __init__(self) -> None:
        self.offset = 0.0
        self._real = time.time

    def __call__(self) -> float:
        return self._real() + self.offset


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    moved = Clock()
    monkeypatch.setattr(time, "time", moved)
    return moved


def _store(kind: type[SQLTrackerStore], database: str) -> TrackerStore:
    return kind(
        None, dialect="postgresql", host="127.0.0.1", port=5432, db=database, username="postgres"
    )


@pytest.fixture(scope="module")
def agents(database: str, action_server: str) -> Iterator[tuple[Agent, Agent]]:
    """Rasa's own read and the project's, the same model and action server."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train`")
    patches.install()  # the paused conversation's processor and the speed-ups, as bot.server
    endpoint = EndpointConfig(
        action_server, headers={"X-Action-Server-Secret": SECRET}, enable_selective_domain=True
    )
    loaded = []
    for kind in (SQLTrackerStore, ForgetfulSQLTrackerStore):
        agent = Agent.load(
            str(MODEL), tracker_store=_store(kind, database), action_endpoint=endpoint
        )
        loaded.append(agent)
    yield loaded[0], loaded[1]
    for agent in loaded:
        inner(agent).engine.dispose()


def inner(agent: Agent) -> Any:
    """The SQL store inside Rasa's fail-safe wrapper."""
    return getattr(agent.tracker_store, "_tracker_store", agent.tracker_store)


async def _answers(agent: Agent, sender: str, text: str) -> list[tuple[Any, ...]]:
    replies = await agent.handle_text(text, sender_id=sender) or []
    return [
        (reply.get("text"), tuple(str(b) for b in reply.get("buttons") or ()), reply.get("custom"))
        for reply in replies
    ]


async def _state(agent: Agent, sender: str) -> tuple[Any, ...]:
    """What the next turn starts from: slots, pause, the session's events, as read back."""
    tracker = await agent.tracker_store.retrieve(sender)
    assert tracker is not None
    return (tracker.current_slot_values(), tracker.is_paused(), _comparable(tracker.events))


#: What differs between two runs of the same turn whatever the store: when, and its message id.
UNEVEN = ("timestamp", "message_id", "metadata")


def _comparable(events: Iterable[Event]) -> list[dict[str, Any]]:
    found = []
    for event in events:
        data = {k: v for k, v in event.as_dict().items() if k not in UNEVEN}
        if "parse_data" in data:
            data["parse_data"] = {k: v for k, v in data["parse_data"].items() if k not in UNEVEN}
        found.append(data)
    return found


def _rows(database: str, sender: str) -> int:
    engine = sa.create_engine(PG_ADMIN.rsplit("/", 1)[0] + f"/{database}")
    try:
        with engine.connect() as connection:
            found = connection.execute(
                sa.text("SELECT count(*) FROM events WHERE sender_id = :s"), {"s": sender}
            )
            return int(found.scalar_one())
    finally:
        engine.dispose()


def _first_difference(a: tuple[Any, ...], b: tuple[Any, ...]) -> str:
    if a[:2] != b[:2]:
        return f"slots/pause {a[:2]} / {b[:2]}"
    if len(a[2]) != len(b[2]):
        return f"{len(a[2])} / {len(b[2])} events"
    for x, y in zip(a[2], b[2], strict=True):
        if x != y:
            keys = sorted(k for k in {*x, *y} if x.get(k) != y.get(k))
            return f"{x.get('event')}: " + "; ".join(f"{k}: {x.get(k)} / {y.get(k)}" for k in keys)
    return "sender only"


def _same_apart_from_sender(stock: Any, ours: Any, sender_stock: str, sender_ours: str) -> bool:
    return str(stock).replace(sender_stock, "X") == str(ours).replace(sender_ours, "X")


async def _turn_both(
    stock: Agent, ours: Agent, name: str, text: str
) -> tuple[list[Any], list[Any]]:
    a = await _answers(stock, f"stock-{name}", text)
    b = await _answers(ours, f"ours-{name}", text)
    return a, b


async def test_the_same_conversations_get_the_same_answers_and_slots(
    agents: tuple[Agent, Agent], database: str, clock: Clock
) -> None:
    stock, ours = agents
    differences: list[str] = []
    sessions = {name: 0 for name in CONVERSATIONS}
    longest = max(len(turns) for turns in CONVERSATIONS.values())
    for step in range(longest):
        for name, turns in CONVERSATIONS.items():
            if step >= len(turns):
                continue
            away, text = turns[step]
            clock.offset += away
            a, b = await _turn_both(stock, ours, name, text)
            if a != b:
                differences.append(f"{name} «{text}»: Rasa's read {a} / ours {b}")
            state_a = await _state(stock, f"stock-{name}")
            state_b = await _state(ours, f"ours-{name}")
            if not _same_apart_from_sender(state_a, state_b, f"stock-{name}", f"ours-{name}"):
                differences.append(f"{name} after «{text}»: {_first_difference(state_a, state_b)}")
            tracker = await ours.tracker_store.retrieve(f"ours-{name}")
            assert tracker is not None
            sessions[name] = sum(isinstance(e, SessionStarted) for e in tracker.events)
            assert a, f"{name} «{text}» got no answer"
    assert differences == [], "\n".join(differences)
    # Both wrote every turn to PostgreSQL (Rasa's fail-safe store would hide a failed save).
    for name in CONVERSATIONS:
        assert 0 < _rows(database, f"stock-{name}") == _rows(database, f"ours-{name}")
    # Each conversation read back holds its latest session only, as Rasa's own read does.
    assert set(sessions.values()) == {1}
    # The earlier session's language carried over: the English speaker chose Pashto first.
    english = await ours.tracker_store.retrieve("ours-en")
    assert english is not None and english.get_slot("language") == "ps"


async def test_a_paused_conversation_and_a_deleted_one_read_the_same(
    agents: tuple[Agent, Agent], clock: Clock
) -> None:
    stock, ours = agents
    for agent, sender in ((stock, "stock-held"), (ours, "ours-held")):
        await _answers(agent, sender, "salam")
        await _answers(agent, sender, "parwaz chi waqt ast")
        # A caseworker took the conversation: what the console's hand-over appends.
        tracker = await agent.tracker_store.retrieve(sender)
        assert tracker is not None
        tracker.update(ConversationPaused())
        await agent.tracker_store.save(tracker)
    for text in ("kay mi rasad?", "STOP"):
        a, b = await _turn_both(stock, ours, "held", text)
        assert a == b, f"«{text}»: Rasa's read {a} / ours {b}"
        state_a, state_b = await _state(stock, "stock-held"), await _state(ours, "ours-held")
        assert _same_apart_from_sender(state_a, state_b, "stock-held", "ours-held")
    held = await ours.tracker_store.retrieve("ours-held")
    assert held is not None and held.is_paused()

    # Deleted by another process (the retention run): the kept events must not come back.
    await _answers(ours, "ours-gone", "hello")
    store = inner(ours)
    assert isinstance(store, ForgetfulSQLTrackerStore)
    await asyncio.to_thread(store._delete, ["ours-gone"])
    assert await store.retrieve("ours-gone") is None
    # A new conversation under the same id starts empty, not from the kept events.
    fresh = await _answers(ours, "ours-gone", "salam")
    assert fresh
    again = await store.retrieve("ours-gone")
    assert again is not None
    assert [e.text for e in again.events if getattr(e, "text", None) and e.type_name == "user"] == [
        "salam"
    ]
