"""The intake's line in Redis Streams: the production profile's, shared by every Rasa process.

Each of a connector's lines is three streams read in order, ``<prefix>intake:<channel>:<n>:first``
(what is about safety), ``…:<n>:urgent`` and ``…:<n>``, read by one consumer group. A worker
serves a line while it holds the line's lease (``SET NX PX``, renewed during a long turn), reads
one entry at a time (``XREADGROUP``) and acknowledges it (``XACK``, then ``XDEL``: the stream
holds only what waits or is being answered) after the turn's replies were handed to the provider.

**Each person their share** (``LineShare``). The line's hash ``…:<n>:people`` counts each
conversation's entries in its streams; a message beyond the person's share waits in the list
``…:<n>:parked:<conversation>`` and joins the end of the line when one of theirs is
acknowledged. The count and the move are one script each (``_PUT``, ``_ACK``), so that no
message slips between a put and an acknowledgement that run at once. A count left behind by
an entry that was never acknowledged (one that could not be read back) would park its person
for good: a line found empty has its counts checked, at most every ``HEAL_SECONDS``
(``_HEAL``). Each urgent jump counts under ``…:jumps:<conversation>`` for ten minutes.

A worker that dies in the middle of a turn leaves its entry pending under its name, and its
lease expires after ``INTAKE_CLAIM_IDLE_SECONDS``. The next holder of the lease first takes
back (``XAUTOCLAIM``) what is pending, oldest first, before anything new: the lease already
waited out the idle time, and taking back first keeps the person's order. The turn's record of
having answered (bot/channels/intake/ledger.py) keeps a message whose replies went out from being
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
import time
from typing import Any, Final

from redis import asyncio as aioredis
from redis.exceptions import ResponseError

from bot.channels.intake.line import Job, Line, Taken
from bot.channels.redis_memory import deployment_prefix, redis_client
from bot.channels.settings import LineShare, RedisSettings
from bot.patches import LET_GO_CONNECTION, check
from kernel.partitions import partition_of

logger = logging.getLogger(__name__)

GROUP: Final = "turns"
#: Slower than the channels' memory may be: a worker waits here, not a person's webhook.
INTAKE_REDIS_TIMEOUT_SECONDS: Final = 5.0
#: How many not yet taken entries of a line the notices look at each time.
LOOK_AHEAD: Final = 200

#: How often an empty line's counts of people are checked (the module's doc).
HEAL_SECONDS: Final = 30.0

#: Keeps a person's oldest parked message, by when it was put in line, in the sorted set of
#: the oldest parked messages (what ``waiting`` reads: a person whose message is being answered
#: while more wait is waiting too).
_NEW_HEAD: Final = """
local function new_head(parked, heads, person)
  local head = redis.call('LINDEX', parked, 0)
  if head then redis.call('ZADD', heads, cjson.decode(head)['put_at'], person)
  else redis.call('ZREM', heads, person) end
end
"""
# KEYS: the first, urgent and rest streams, the people, the person's parked list, the person's
# jumps, the count of parked messages, the oldest parked messages. ARGV: the job, the person,
# its part (first, urgent or rest), the share in line (0: no limit), the jumps (0: no limit),
# their window in ms, when it was put in line.
_PUT: Final = """
local part = ARGV[3]
if part == 'urgent' and tonumber(ARGV[5]) > 0 then
  local used = redis.call('INCR', KEYS[6])
  if used == 1 then redis.call('PEXPIRE', KEYS[6], ARGV[6]) end
  if used > tonumber(ARGV[5]) then part = 'rest' end
end
local stream = KEYS[3]
if part == 'first' then
  stream = KEYS[1]
elseif part == 'urgent' then
  stream = KEYS[2]
else
  local share = tonumber(ARGV[4])
  local in_line = tonumber(redis.call('HGET', KEYS[4], ARGV[2]) or '0')
  if share > 0 and (in_line >= share or redis.call('EXISTS', KEYS[5]) == 1) then
    if redis.call('RPUSH', KEYS[5], ARGV[1]) == 1 then
      redis.call('ZADD', KEYS[8], ARGV[7], ARGV[2])
    end
    redis.call('INCR', KEYS[7])
    return 'parked'
  end
end
redis.call('XADD', stream, '*', 'job', ARGV[1])
redis.call('HINCRBY', KEYS[4], ARGV[2], 1)
return part
"""
# KEYS: the entry's stream, the rest stream, the people, the person's parked list, the count
# of parked messages, the count of answered, the oldest parked messages. ARGV: the entry, the
# group, the person, the share.
_ACK: Final = (
    _NEW_HEAD
    + """
local acked = redis.call('XACK', KEYS[1], ARGV[2], ARGV[1])
redis.call('XDEL', KEYS[1], ARGV[1])
redis.call('INCR', KEYS[6])
if acked == 0 then return 0 end
local share = tonumber(ARGV[4])
-- An entry put before people were counted has no count: none goes below zero.
local in_line = math.max(0, redis.call('HINCRBY', KEYS[3], ARGV[3], -1))
local moved = 0
while share == 0 or in_line < share do
  local job = redis.call('LPOP', KEYS[4])
  if not job then break end
  redis.call('XADD', KEYS[2], '*', 'job', job)
  redis.call('DECR', KEYS[5])
  in_line = in_line + 1
  moved = moved + 1
end
if moved > 0 then new_head(KEYS[4], KEYS[7], ARGV[3]) end
if in_line <= 0 then redis.call('HDEL', KEYS[3], ARGV[3]) end
return 1
"""
)
# KEYS: the first, urgent and rest streams, the people, the count of parked messages, the
# oldest parked messages. ARGV: the share, the parked lists' prefix. A line with no entry has
# nobody in it: each count is made again from the person's parked messages, which join it.
_HEAL: Final = (
    _NEW_HEAD
    + """
if redis.call('XLEN', KEYS[1]) + redis.call('XLEN', KEYS[2]) + redis.call('XLEN', KEYS[3]) > 0
then return 0 end
local share = tonumber(ARGV[1])
local moved = 0
for _, person in ipairs(redis.call('HKEYS', KEYS[4])) do
  local parked = ARGV[2] .. person
  local in_line = 0
  while share == 0 or in_line < share do
    local job = redis.call('LPOP', parked)
    if not job then break end
    redis.call('XADD', KEYS[3], '*', 'job', job)
    redis.call('DECR', KEYS[5])
    in_line = in_line + 1
  end
  new_head(parked, KEYS[6], person)
  if in_line > 0 then redis.call('HSET', KEYS[4], person, in_line)
  else redis.call('HDEL', KEYS[4], person) end
  moved = moved + in_line
end
return moved
"""
)
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
    the kernel resets it instead of sending its queue on once the network is back. It
    overrides redis-py's private ``_connect`` and reads its ``_writer``: made only for the
    version it was written against (``bot/patches.py``, ``RedisLine.connect``)."""

    async def _connect(self) -> None:
        await super()._connect()
        assert self._writer is not None
        sock = self._writer.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


class RedisLine(Line):
    """A connector's lines in Redis Streams under ``<prefix>intake:<channel>:``."""

    def __init__(
        self,
        client: aioredis.Redis,
        channel: str,
        partitions: int,
        prefix: str = "",
        share: LineShare | None = None,
    ) -> None:
        self._redis = client
        self.partitions = partitions
        self.share = share or LineShare()
        self._base = f"{prefix}intake:{channel}:"
        #: Every acknowledged job of the connector's lines: the drain rate of every process.
        self._answered_key = f"{self._base}answered"
        self._parked_key = f"{self._base}parked"
        #: Each person with parked messages, by when their oldest one was put in line.
        self._heads_key = f"{self._base}parked:oldest"
        self._healed_at = [0.0] * partitions

    @classmethod
    def connect(
        cls,
        channel: str,
        partitions: int,
        settings: RedisSettings,
        share: LineShare | None = None,
    ) -> RedisLine:
        """The lock store's Redis, as the channels' memory, with a worker's longer timeout;
        refused (``RuntimeError``) on a redis-py that ``LetGoConnection`` was not written for."""
        check(LET_GO_CONNECTION)
        client = redis_client(settings, INTAKE_REDIS_TIMEOUT_SECONDS, LetGoConnection)
        return cls(client, channel, partitions, deployment_prefix(settings), share)

    def _streams(self, partition: int) -> tuple[str, str, str]:
        """The line's parts (safety, urgent, the rest), in the order they are read."""
        line = f"{self._base}{partition}"
        return f"{line}:first", f"{line}:urgent", line

    def _people(self, partition: int) -> str:
        return f"{self._base}{partition}:people"

    def _parked(self, partition: int, person: str = "") -> str:
        return f"{self._base}{partition}:parked:{person}"

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
        partition, person = partition_of(job.conversation, self.partitions), job.conversation
        part = "first" if job.first else "urgent" if job.urgent else "rest"
        keys = (
            *self._streams(partition),
            self._people(partition),
            self._parked(partition, person),
            f"{self._base}jumps:{person}",
            self._parked_key,
            self._heads_key,
        )
        await self._redis.eval(
            _PUT,
            len(keys),
            *keys,
            job.dumps(),
            person,
            part,
            self.share.in_line,
            self.share.jumps,
            _ms(self.share.jump_window_seconds),
            repr(job.put_at),
        )

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
        await self._heal(partition)
        return None

    async def _heal(self, partition: int) -> None:
        """Counts of people in an empty line made again (the module's doc), now and then."""
        now = time.monotonic()
        if now - self._healed_at[partition] < HEAL_SECONDS:
            return
        self._healed_at[partition] = now
        keys = (
            *self._streams(partition),
            self._people(partition),
            self._parked_key,
            self._heads_key,
        )
        moved = await self._redis.eval(
            _HEAL, len(keys), *keys, self.share.in_line, self._parked(partition)
        )
        if moved:
            logger.warning("intake: %s parked messages found with nothing in line", moved)

    async def ack(self, partition: int, taken: Taken) -> None:
        stream, entry_id = taken.ref.split(" ", 1)
        person = taken.job.conversation
        keys = (
            stream,
            self._streams(partition)[-1],
            self._people(partition),
            self._parked(partition, person),
            self._parked_key,
            self._answered_key,
            self._heads_key,
        )
        await self._redis.eval(_ACK, len(keys), *keys, entry_id, GROUP, person, self.share.in_line)

    async def answered(self) -> int:
        return int(await self._redis.get(self._answered_key) or 0)

    async def depth(self) -> int:
        async with self._redis.pipeline(transaction=False) as pipe:
            for stream in self._all_streams():
                pipe.xlen(stream)
            pipe.get(self._parked_key)
            counts: list[Any] = await pipe.execute()
        return sum(int(count or 0) for count in counts)

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
        return jobs + await self._oldest_parked(since_before)

    async def _oldest_parked(self, since_before: float) -> list[Job]:
        """The oldest parked message of each person whose one was put before ``since_before``
        (at most ``LOOK_AHEAD``, the longest waiting first)."""
        people = await self._redis.zrangebyscore(
            self._heads_key, "-inf", f"({since_before!r}", start=0, num=LOOK_AHEAD
        )
        if not people:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for person in people:
                pipe.lindex(self._parked(partition_of(person, self.partitions), person), 0)
            heads: list[Any] = await pipe.execute()
        return [job for head in heads if head and (job := _job_of({"job": head})) is not None]


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
