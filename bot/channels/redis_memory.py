"""The channels' memory in Redis: the production profile's, shared by every Rasa process.

The interface and the in-process memory are in ``memory.py``; this module needs the ``redis``
package, which only the bot runtime has.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from redis import asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from bot.channels.settings import RedisSettings
from kernel.memory import ChannelMemory, MemoryUnavailable

logger = logging.getLogger(__name__)

#: What the channels' keys start with after the deployment's ``REDIS_KEY_PREFIX``.
KEY_PREFIX: Final = "channels:"
#: A Redis that answers slower than this is treated as down: a person is waiting.
REDIS_TIMEOUT_SECONDS: Final = 0.5
#: After a failure, how long operations fail at once instead of each waiting for the timeout.
RETRY_REDIS_AFTER_SECONDS: Final = 2.0
#: ``push``: count, append and expire in one atomic step, so that two processes storing at once
#: can never take a list past its limit (a script: MULTI cannot branch on the count).
_PUSH_BELOW_LIMIT: Final = """
if redis.call('LLEN', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


def redis_client(
    settings: RedisSettings,
    timeout: float = REDIS_TIMEOUT_SECONDS,
    connection: type[aioredis.Connection] = aioredis.Connection,
) -> aioredis.Redis:
    """A client of ``settings``' Redis, connected when first used; operations slower than
    ``timeout`` fail."""
    client = aioredis.Redis(
        host=settings.host,
        port=settings.port,
        db=settings.db,
        password=settings.password,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        # A pooled connection that Redis closed (it restarted) is reopened once at once.
        retry=Retry(NoBackoff(), 1),
        retry_on_error=[RedisConnectionError],
        decode_responses=True,
    )
    client.connection_pool.connection_class = connection
    return client


def deployment_prefix(settings: RedisSettings) -> str:
    """``<REDIS_KEY_PREFIX>:``, as Rasa's lock store takes it (letters and digits), else empty."""
    return f"{settings.key_prefix}:" if settings.key_prefix else ""


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
    def connect(cls, settings: RedisSettings) -> RedisMemory:
        """A client of ``settings``' Redis (connected when first used); keys under
        ``<REDIS_KEY_PREFIX>:channels:``."""
        return cls(redis_client(settings), f"{deployment_prefix(settings)}{KEY_PREFIX}")

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

    async def push(self, key: str, item: str, limit: int, ttl: float) -> bool:
        key = self._prefix + key
        [pushed] = await self._run(
            lambda pipe: pipe.eval(_PUSH_BELOW_LIMIT, 1, key, item, limit, self._ttl(ttl))
        )
        return bool(pushed)

    async def items(self, key: str) -> list[str]:
        [values] = await self._run(lambda pipe: pipe.lrange(self._prefix + key, 0, -1))
        if not isinstance(values, list):
            return []
        return [value for value in values if isinstance(value, str)]

    async def remove(self, key: str, items: Sequence[str]) -> None:
        def commands(pipe: aioredis.client.Pipeline) -> None:
            for item in items:
                pipe.lrem(self._prefix + key, 1, item)

        if items:
            await self._run(commands, transaction=len(items) > 1)

    async def close(self) -> None:
        await self._redis.close()
