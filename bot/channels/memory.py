"""Short-lived memory of the channels: in this process (``make run``) or in Redis (production).

The connectors remember a little between messages: which provider message ids they have already
answered (a retry must not be answered twice), what a Telegram reply-keyboard button stands for,
and which numbered options and MORE pages an SMS reply left behind. With one Rasa process that
can live in its memory. With several (the production profile: several workers, several servers)
a retry or a MORE can reach another process, or arrive after a restart; then the memory must be
one for all of them: the Redis server of the lock store, under keys of its own.

``channel_memory()`` chooses once, from the environment: ``REDIS_HOST`` set (the production
profile's variable, docs/OPERATIONS.md) → Redis, else this process. Every operation is one
Redis round trip and atomic on its own; every key it writes expires. When Redis cannot be
reached an operation raises ``MemoryUnavailable``, logged once per outage; the callers then
answer as if nothing was remembered, so a Redis that is down never silences anyone.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from redis import asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

#: What the channels' keys start with after the deployment's ``REDIS_KEY_PREFIX``.
KEY_PREFIX: Final = "channels:"
#: A Redis that answers slower than this is treated as down: a person is waiting.
REDIS_TIMEOUT_SECONDS: Final = 0.5
#: After a failure, how long operations fail at once instead of each waiting for the timeout.
RETRY_REDIS_AFTER_SECONDS: Final = 2.0


class MemoryUnavailable(Exception):
    """The shared memory cannot be reached; the caller goes on without it."""


class ChannelMemory(ABC):
    """Strings and lists of strings under keys, each forgotten after its ``ttl`` seconds."""

    @abstractmethod
    async def add(self, key: str, ttl: float) -> bool:
        """True if ``key`` was not there (and now is); False if it already was."""

    @abstractmethod
    async def get(self, key: str) -> str | None:
        """The string under ``key``, or None."""

    @abstractmethod
    async def put(
        self,
        values: Mapping[str, str],
        ttl: float,
        append: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        """Stores every key's string, and appends to every list of ``append``, in one step;
        each of them then expires ``ttl`` from now."""

    @abstractmethod
    async def take(self, key: str, *also_forget: str) -> str | None:
        """The string under ``key``, deleted with ``also_forget`` in the same step."""

    @abstractmethod
    async def pop(self, key: str, ttl: float) -> str | None:
        """Removes and returns the first string of the list under ``key`` (or None); the rest
        of the list now expires ``ttl`` from now."""

    @abstractmethod
    async def delete(self, *keys: str) -> None:
        """Forgets ``keys``."""

    async def close(self) -> None:  # noqa: B027  (nothing to release in this process)
        """Releases connections (the server stops)."""


@dataclass
class _Entry:
    expires: float
    value: str | list[str]


class ProcessMemory(ChannelMemory):
    """This process's memory, bounded in count (least recently written go first) and in age.

    The embedded default: one Rasa process, so nothing needs sharing; a restart forgets.
    """

    def __init__(self, capacity: int = 50_000, clock: Callable[[], float] = time.monotonic) -> None:
        self._capacity = capacity
        self._clock = clock
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def _live(self, key: str, now: float) -> _Entry | None:
        while self._entries and next(iter(self._entries.values())).expires <= now:
            self._entries.popitem(last=False)
        entry = self._entries.get(key)
        if entry is not None and entry.expires <= now:
            del self._entries[key]
            return None
        return entry

    def _store(self, key: str, value: str | list[str], ttl: float, now: float) -> None:
        self._entries[key] = _Entry(now + ttl, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._capacity:
            self._entries.popitem(last=False)

    async def add(self, key: str, ttl: float) -> bool:
        now = self._clock()
        with self._lock:
            if self._live(key, now) is not None:
                return False
            self._store(key, "1", ttl, now)
            return True

    async def get(self, key: str) -> str | None:
        with self._lock:
            entry = self._live(key, self._clock())
            return entry.value if entry is not None and isinstance(entry.value, str) else None

    async def put(
        self,
        values: Mapping[str, str],
        ttl: float,
        append: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        now = self._clock()
        with self._lock:
            for key, value in values.items():
                self._store(key, value, ttl, now)
            for key, items in (append or {}).items():
                if items:
                    entry = self._live(key, now)
                    old = entry.value if entry is not None and isinstance(entry.value, list) else []
                    self._store(key, [*old, *items], ttl, now)

    async def take(self, key: str, *also_forget: str) -> str | None:
        with self._lock:
            entry = self._live(key, self._clock())
            for gone in (key, *also_forget):
                self._entries.pop(gone, None)
            return entry.value if entry is not None and isinstance(entry.value, str) else None

    async def pop(self, key: str, ttl: float) -> str | None:
        now = self._clock()
        with self._lock:
            entry = self._live(key, now)
            if entry is None or not isinstance(entry.value, list) or not entry.value:
                return None
            first, *rest = entry.value
            if rest:
                self._store(key, rest, ttl, now)
            else:
                del self._entries[key]
            return first

    async def delete(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._entries.pop(key, None)


class RedisMemory(ChannelMemory):
    """The memory of every Rasa process of a deployment, in Redis (``redis.asyncio``).

    Each method is one round trip; where it writes several keys, one MULTI/EXEC transaction.
    Errors and timeouts become ``MemoryUnavailable``: the first is logged at WARNING (the
    error's kind only, never a key: keys carry conversation ids), and for
    ``RETRY_REDIS_AFTER_SECONDS`` afterwards operations fail at once, so that a Redis that is
    down costs a person no waiting either.
    """

    def __init__(self, client: aioredis.Redis, prefix: str = KEY_PREFIX) -> None:
        self._redis = client
        self._prefix = prefix
        self._down_until = 0.0
        self._down = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> RedisMemory:
        """The lock store's Redis (``REDIS_HOST``, ``REDIS_PORT``, ``REDIS_DB``,
        ``REDIS_PASSWORD``); keys under ``<REDIS_KEY_PREFIX>:channels:``."""
        port, db = environ.get("REDIS_PORT", "").strip(), environ.get("REDIS_DB", "").strip()
        if not port.isdigit() or not (db or "0").isdigit():
            raise ValueError("REDIS_PORT and REDIS_DB must be numbers (docs/OPERATIONS.md)")
        client = aioredis.Redis(
            host=environ["REDIS_HOST"].strip(),
            port=int(port),
            db=int(db or 0),
            password=environ.get("REDIS_PASSWORD") or None,
            socket_timeout=REDIS_TIMEOUT_SECONDS,
            socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
            # A pooled connection that Redis closed (it restarted) is reopened once at once.
            retry=Retry(NoBackoff(), 1),
            retry_on_error=[RedisConnectionError],
            decode_responses=True,
        )
        # As Rasa's lock store: a prefix of letters and digits, else none.
        deployment = environ.get("REDIS_KEY_PREFIX", "").strip()
        prefix = f"{deployment}:{KEY_PREFIX}" if deployment.isalnum() else KEY_PREFIX
        return cls(client, prefix)

    def _check_up(self) -> None:
        if time.monotonic() < self._down_until:
            raise MemoryUnavailable("Redis was unreachable a moment ago")

    def _failed(self, error: Exception) -> MemoryUnavailable:
        self._down_until = time.monotonic() + RETRY_REDIS_AFTER_SECONDS
        if not self._down:
            self._down = True
            logger.warning(
                "channel memory: Redis unreachable (%s); answering without it until it is back",
                type(error).__name__,
            )
        return MemoryUnavailable(type(error).__name__)

    def _succeeded(self) -> None:
        if self._down:
            self._down = False
            logger.info("channel memory: Redis reachable again")

    def _ttl(self, ttl: float) -> int:
        return max(1, round(ttl))

    async def _run(
        self, commands: Callable[[aioredis.client.Pipeline], None], transaction: bool = False
    ) -> list[object]:
        """One round trip: ``commands`` pipelined (in MULTI/EXEC if ``transaction``)."""
        self._check_up()
        try:
            async with self._redis.pipeline(transaction=transaction) as pipe:
                commands(pipe)
                results: list[object] = await pipe.execute()
        except (RedisError, OSError, TimeoutError) as error:
            raise self._failed(error) from error
        self._succeeded()
        return results

    async def add(self, key: str, ttl: float) -> bool:
        [added] = await self._run(
            lambda pipe: pipe.set(self._prefix + key, "1", nx=True, ex=self._ttl(ttl))
        )
        return bool(added)

    async def get(self, key: str) -> str | None:
        [value] = await self._run(lambda pipe: pipe.get(self._prefix + key))
        return value if isinstance(value, str) else None

    async def put(
        self,
        values: Mapping[str, str],
        ttl: float,
        append: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        lists = {key: items for key, items in (append or {}).items() if items}

        def commands(pipe: aioredis.client.Pipeline) -> None:
            for key, value in values.items():
                pipe.set(self._prefix + key, value, ex=self._ttl(ttl))
            for key, items in lists.items():
                pipe.rpush(self._prefix + key, *items)
                pipe.expire(self._prefix + key, self._ttl(ttl))

        if values or lists:
            await self._run(commands, transaction=len(values) + 2 * len(lists) > 1)

    async def take(self, key: str, *also_forget: str) -> str | None:
        def commands(pipe: aioredis.client.Pipeline) -> None:
            pipe.getdel(self._prefix + key)
            if also_forget:
                pipe.delete(*(self._prefix + gone for gone in also_forget))

        value = (await self._run(commands, transaction=bool(also_forget)))[0]
        return value if isinstance(value, str) else None

    async def pop(self, key: str, ttl: float) -> str | None:
        def commands(pipe: aioredis.client.Pipeline) -> None:
            pipe.lpop(self._prefix + key)
            pipe.expire(self._prefix + key, self._ttl(ttl))  # no-op once the list is empty

        value = (await self._run(commands, transaction=True))[0]
        return value if isinstance(value, str) else None

    async def delete(self, *keys: str) -> None:
        if keys:
            await self._run(lambda pipe: pipe.delete(*(self._prefix + key for key in keys)))

    async def close(self) -> None:
        await self._redis.close()


def channel_memory(environ: Mapping[str, str] = os.environ) -> ChannelMemory:
    """Redis when the production profile's ``REDIS_HOST`` is set, else this process's memory."""
    if environ.get("REDIS_HOST", "").strip():
        logger.info("channel memory: Redis (shared by every Rasa process)")
        return RedisMemory.from_env(environ)
    return ProcessMemory()
