"""The intake's line in Redis Streams: the production profile's, shared by every Rasa process.

Each of a connector's lines is two streams, ``<prefix>intake:<channel>:<n>:first`` (what jumps
the line) and ``<prefix>intake:<channel>:<n>``, read by one consumer group. A worker serves a
line while it holds the line's lease (``SET NX PX``, renewed during a long turn), reads one
entry at a time (``XREADGROUP``) and acknowledges it (``XACK``, then ``XDEL``: the stream holds
only what waits or is being answered) after the turn's replies were handed to the provider.

A worker that dies in the middle of a turn leaves its entry pending under its name, and its
lease expires after ``INTAKE_CLAIM_IDLE_SECONDS``. The next holder of the lease first takes
back (``XAUTOCLAIM``) what is pending, oldest first, before anything new: the lease already
waited out the idle time, and taking back first keeps the person's order. The turn's record of
having answered (bot/channels/intake.py) keeps a message whose replies went out from being
answered again.

**A call that timed out is not carried out later.** During a network partition a call's
request waits in the kernel, which sends it again and again, and it reaches Redis once the
network is back, long after its caller gave up. For a put that is a message in line twice: its
webhook, finding the line unreachable, answered it at once, and a worker answers it again when
the put lands (seen in `make cluster`'s Redis partition). So the line's connections are closed
with a reset (``SO_LINGER`` 0, ``LetGoConnection``), which throws away whatever Redis has not
received: a call that timed out either reached Redis before the partition or never does.
"""

from __future__ import annotations

import logging
import socket
import struct
from typing import Any, Final

from redis import asyncio as aioredis
from redis.exceptions import ResponseError

from bot.channels.intake import Job, Line, Taken, partition_of
from bot.channels.redis_memory import deployment_prefix, redis_client
from bot.channels.settings import RedisSettings

logger = logging.getLogger(__name__)

GROUP: Final = "turns"
#: Slower than the channels' memory may be: a worker waits here, not a person's webhook.
INTAKE_REDIS_TIMEOUT_SECONDS: Final = 5.0
#: How many not yet taken entries of a line the notices look at each time.
LOOK_AHEAD: Final = 200

_RENEW: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class LetGoConnection(aioredis.Connection):  # type: ignore[misc]  # untyped in redis 4
    """A connection whose close throws away what Redis has not received (the module's doc):
    the kernel resets it instead of sending its queue on once the network is back."""

    async def _connect(self) -> None:
        await super()._connect()
        assert self._writer is not None
        sock = self._writer.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


class RedisLine(Line):
    """A connector's lines in Redis Streams under ``<prefix>intake:<channel>:``."""

    def __init__(
        self, client: aioredis.Redis, channel: str, partitions: int, prefix: str = ""
    ) -> None:
        self._redis = client
        self.partitions = partitions
        self._base = f"{prefix}intake:{channel}:"
        #: Every acknowledged job of the connector's lines: the drain rate of every process.
        self._answered_key = f"{self._base}answered"

    @classmethod
    def connect(cls, channel: str, partitions: int, settings: RedisSettings) -> RedisLine:
        """The lock store's Redis, as the channels' memory, with a worker's longer timeout."""
        client = redis_client(settings, INTAKE_REDIS_TIMEOUT_SECONDS, LetGoConnection)
        return cls(client, channel, partitions, deployment_prefix(settings))

    def _streams(self, partition: int) -> tuple[str, str]:
        """The line's first part and the rest, in the order they are read."""
        return f"{self._base}{partition}:first", f"{self._base}{partition}"

    def _all_streams(self) -> list[str]:
        return [stream for n in range(self.partitions) for stream in self._streams(n)]

    async def open(self) -> None:
        for stream in self._all_streams():
            try:
                await self._redis.xgroup_create(stream, GROUP, id="0", mkstream=True)
            except ResponseError as error:
                if "BUSYGROUP" not in str(error):
                    raise

    async def close(self) -> None:
        await self._redis.close()

    async def put(self, job: Job) -> None:
        first, rest = self._streams(partition_of(job.conversation, self.partitions))
        await self._redis.xadd(first if job.first else rest, {"job": job.dumps()})

    async def lease(self, partition: int, worker: str, seconds: float) -> bool:
        key = f"{self._base}{partition}:lease"
        if await self._redis.set(key, worker, nx=True, px=_ms(seconds)):
            return True
        return await self.renew(partition, worker, seconds)

    async def renew(self, partition: int, worker: str, seconds: float) -> bool:
        key = f"{self._base}{partition}:lease"
        kept = await self._redis.eval(_RENEW, 1, key, worker, _ms(seconds))
        return bool(kept)

    async def release(self, partition: int, worker: str) -> None:
        await self._redis.eval(_RELEASE, 1, f"{self._base}{partition}:lease", worker)

    async def take(self, partition: int, worker: str) -> Taken | None:
        for stream in self._streams(partition):
            # What a worker that stopped took and never acknowledged, oldest first.
            claimed = await self._redis.xautoclaim(
                stream, GROUP, worker, min_idle_time=0, start_id="0-0", count=1
            )
            entries = claimed[1] if len(claimed) > 1 else []
            if not entries:
                read = await self._redis.xreadgroup(GROUP, worker, {stream: ">"}, count=1)
                entries = read[0][1] if read else []
            for entry_id, fields in entries:
                job = _job_of(fields)
                if job is not None:
                    return Taken(job, f"{stream} {entry_id}")
                # Deleted meanwhile, or unreadable (put by another version): never its turn.
                await self._redis.xack(stream, GROUP, entry_id)
                await self._redis.xdel(stream, entry_id)
        return None

    async def ack(self, partition: int, taken: Taken) -> None:
        stream, entry_id = taken.ref.split(" ", 1)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.xack(stream, GROUP, entry_id)
            pipe.xdel(stream, entry_id)
            pipe.incr(self._answered_key)
            await pipe.execute()

    async def answered(self) -> int:
        return int(await self._redis.get(self._answered_key) or 0)

    async def depth(self) -> int:
        async with self._redis.pipeline(transaction=False) as pipe:
            for stream in self._all_streams():
                pipe.xlen(stream)
            lengths: list[Any] = await pipe.execute()
        return sum(int(length) for length in lengths)

    async def waiting(self, since_before: float) -> list[Job]:
        streams = self._all_streams()
        async with self._redis.pipeline(transaction=False) as pipe:
            for stream in streams:
                pipe.xinfo_groups(stream)
            groups: list[Any] = await pipe.execute(raise_on_error=False)
        async with self._redis.pipeline(transaction=False) as pipe:
            for stream, found in zip(streams, groups, strict=True):
                delivered = _last_delivered(found)
                pipe.xrange(stream, min=f"({delivered}", max="+", count=LOOK_AHEAD)
            ranges: list[Any] = await pipe.execute(raise_on_error=False)
        jobs = []
        for entries in ranges:
            if isinstance(entries, Exception):
                continue
            for _, fields in entries:
                job = _job_of(fields)
                if job is not None and job.put_at < since_before:
                    jobs.append(job)
        return jobs


def _job_of(fields: Any) -> Job | None:
    """The job an entry holds; None for a deleted entry or one this version cannot read."""
    if not fields or "job" not in fields:
        return None
    try:
        return Job.loads(fields["job"])
    except (ValueError, TypeError):
        logger.error("intake: an entry in line could not be read; it is left out")
        return None


def _last_delivered(groups: Any) -> str:
    """The id up to which the group has handed entries out ("0-0" before any)."""
    if isinstance(groups, list):
        for group in groups:
            if isinstance(group, dict) and group.get("name") == GROUP:
                return str(group.get("last-delivered-id") or "0-0")
    return "0-0"


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))
