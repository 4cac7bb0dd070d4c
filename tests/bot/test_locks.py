"""The atomic Redis lock store (bot/locks.py) against a real Redis.

Skipped with the reason when no Redis answers, except in CI (CI=true), where Redis is there
and these tests must run.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import urllib.parse
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from rasa.core.lock_store import LockError, LockStore, RedisLockStore
from rasa.core.utils import number_of_sanic_workers
from rasa.utils.endpoints import EndpointConfig

from bot.locks import RETURN_AGAIN_SECONDS, AtomicRedisLockStore
from tests.channels.redis_support import RedisServer

REDIS_URL = urllib.parse.urlsplit(
    os.environ.get("LOCKS_TEST_REDIS_URL", "redis://127.0.0.1:6379/1")
)
HOST, PORT = REDIS_URL.hostname or "127.0.0.1", REDIS_URL.port or 6379
DB = int(REDIS_URL.path.strip("/") or 1)


def _redis_problem() -> str | None:
    try:
        with socket.create_connection((HOST, PORT), timeout=3) as sock:
            sock.sendall(b"PING\r\n")
            if sock.recv(16).startswith(b"+PONG"):
                return None
    except OSError as error:
        return f"Redis unreachable at {HOST}:{PORT}: {error}"
    return f"no Redis (without a password) at {HOST}:{PORT}"


@pytest.fixture
def prefix() -> Iterator[str]:
    """A key prefix of this test's own; its keys are removed afterwards."""
    problem = _redis_problem()
    if problem:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{problem} (CI=true: Redis tests are mandatory)")
        pytest.skip(problem)
    name = f"testlocks{uuid.uuid4().hex[:12]}"
    yield name
    store = RedisLockStore(host=HOST, port=PORT, db=DB)
    for key in store.red.scan_iter(f"{name}:*"):
        store.red.delete(key)


def store(prefix: str) -> AtomicRedisLockStore:
    return AtomicRedisLockStore(host=HOST, port=PORT, db=DB, key_prefix=prefix)


def tickets_taken_at_once(stores: list[RedisLockStore], per_store: int) -> list[int]:
    """Every ticket several stores (one per thread, as in separate processes) took for one
    conversation at the same time."""
    start = threading.Barrier(len(stores))
    taken: list[list[int]] = [[] for _ in stores]

    def take(index: int) -> None:
        start.wait()
        taken[index] = [stores[index].issue_ticket("conversation") for _ in range(per_store)]

    threads = [threading.Thread(target=take, args=(i,)) for i in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [ticket for own in taken for ticket in own]


def test_processes_taking_tickets_at_once_never_share_one(prefix: str) -> None:
    tickets = tickets_taken_at_once([store(prefix) for _ in range(3)], per_store=150)
    assert len(tickets) == 450
    assert sorted(tickets) == list(range(450))


def test_rasas_own_store_shares_tickets_under_the_same_load(prefix: str) -> None:
    """The reason for bot/locks.py: Rasa's store, same load, hands out the same ticket twice.

    If a Rasa release fixes this, this test fails and the subclass can go.
    """
    stores = [RedisLockStore(host=HOST, port=PORT, db=DB, key_prefix=prefix) for _ in range(3)]
    tickets = tickets_taken_at_once(stores, per_store=150)
    assert len(set(tickets)) < len(tickets)


async def test_a_second_message_waits_for_the_first(prefix: str) -> None:
    locks = store(prefix)
    async with locks.lock("conversation", wait_time_in_seconds=0.01) as first:
        second = locks.issue_ticket("conversation")
        lock = locks.get_lock("conversation")
        assert lock is not None
        assert lock.is_locked(second)
        assert not lock.is_locked(first.now_serving or 0)
    # The first returned its ticket; the second's keeps the lock alive and is now served.
    lock = locks.get_lock("conversation")
    assert lock is not None
    assert not lock.is_locked(second)
    locks.cleanup("conversation", second)
    assert locks.get_lock("conversation") is None


def test_created_from_the_endpoints_file_like_rasa_does(prefix: str) -> None:
    """Rasa builds a custom lock store from `lock_store:` in endpoints.production.yml."""
    config = EndpointConfig(
        url=HOST,
        type="bot.locks.AtomicRedisLockStore",
        port=str(PORT),
        db=str(DB),
        password="",
        key_prefix=prefix,
    )
    created = LockStore.create(config)
    assert isinstance(created, AtomicRedisLockStore)
    assert created.key_prefix == f"{prefix}:lock:"
    assert created.issue_ticket("conversation") == 0


def test_rasa_starts_several_workers_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANIC_WORKERS", "3")
    config = EndpointConfig(url=HOST, type="bot.locks.AtomicRedisLockStore")
    assert number_of_sanic_workers(config) == 3


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of this test's own, which it can make stop answering (``pause``)."""
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


async def test_a_ticket_kept_by_a_redis_outage_is_returned_once_redis_answers(
    own_redis: RedisServer,
) -> None:
    """Redis stops answering while a turn runs (a partition): the turn ends as it ended, and
    its ticket is returned as soon as Redis answers again, not when it expires a minute later,
    so that the person's next message is not held that long."""
    locks = AtomicRedisLockStore(host=own_redis.host, port=own_redis.port, socket_timeout=0.3)
    async with locks.lock("conversation", lock_lifetime=60, wait_time_in_seconds=0.05):
        own_redis.pause()
    # No error: the turn's replies went out and its conversation was stored.
    own_redis.resume()
    lock = locks.get_lock("conversation")
    assert lock is not None and lock.is_someone_waiting()  # the ticket is still there

    async def next_message() -> None:
        async with locks.lock("conversation", lock_lifetime=60, wait_time_in_seconds=0.05):
            pass

    # Served once the ticket is returned, long before it would have expired.
    await asyncio.wait_for(next_message(), timeout=10 * RETURN_AGAIN_SECONDS)
    assert locks.get_lock("conversation") is None


async def test_a_redis_that_does_not_answer_holds_up_only_the_turns_that_need_it(
    own_redis: RedisServer,
) -> None:
    """The lock store's calls wait for Redis off the event loop: the server goes on with its
    other work (here a clock ticking every 10 ms) while a turn waits for its ticket."""
    locks = AtomicRedisLockStore(host=own_redis.host, port=own_redis.port, socket_timeout=0.5)
    locks.issue_ticket("warm")  # a connection in the pool, as in a running server
    ticks = 0

    async def clock() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticking = asyncio.create_task(clock())
    own_redis.pause()
    try:
        with pytest.raises(LockError):
            async with locks.lock("conversation"):
                pytest.fail("a ticket without Redis")
    finally:
        own_redis.resume()
        ticking.cancel()
    assert ticks >= 10  # 0.5 s of waiting: about 50 ticks; none with the loop blocked
    async with locks.lock("conversation", wait_time_in_seconds=0.05):
        pass
