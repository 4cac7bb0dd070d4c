"""The line of messages waiting for their turn: what every line does, and one process's line.

``Line`` is what the workers (``worker.py``) ask of a line: ``partitions`` lines of three parts
read in order (about safety, urgent, the rest), one worker at a time on a line (its lease), a
message taken and acknowledged after its turn, each person's share (``LineShare``).
``ProcessLine`` keeps it in this process's memory; ``kept_line.JournaledLine`` keeps the same
in a SQLite file, ``redis_line.RedisLine`` in Redis Streams.
"""

from __future__ import annotations

import collections
import json
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from bot.channels.settings import LineShare
from kernel.partitions import partition_of

#: How many turns over and not yet acknowledged this process remembers at most (only while
#: Redis cannot be reached are there more than the workers).
OVER_REMEMBERED: Final = 10_000


@dataclass(frozen=True)
class Queued:
    """What a connector tells the intake of a message (``WebhookInput.to_queue``)."""

    conversation: str
    #: The message in the connector's own JSON form, made back by ``from_queue``.
    data: dict[str, Any]
    #: What the person wrote (None for a photo or voice note) and the provider's language hint.
    text: str | None = None
    hint: str | None = None


@dataclass(frozen=True)
class Job:
    """One message waiting for its turn, as it is kept in a line (JSON: it may cross
    processes)."""

    #: What identifies the message: the provider's delivery id, or one made for it.
    key: str
    conversation: str
    #: The connector's own form of the message (``QueuedInput.to_queue``).
    data: dict[str, Any]
    #: What the person wrote, for the language of a notice; None for a photo or voice note.
    text: str | None = None
    hint: str | None = None
    #: About the person's safety or data: it goes first, always (``about_safety``).
    first: bool = False
    put_at: float = field(default_factory=time.time)
    #: Urgent: it goes before the ordinary messages while its person has jumps left.
    urgent: bool = False

    def dumps(self) -> str:
        return json.dumps(self.__dict__, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def loads(cls, raw: str) -> Job:
        """The job back; fields a newer version added are left out, so that a process not
        upgraded yet still answers what a newer one put in line."""
        known = {name for name in cls.__dataclass_fields__}
        return cls(**{name: value for name, value in json.loads(raw).items() if name in known})


@dataclass(frozen=True)
class Taken:
    """A job a worker took from a line, with what the line needs to let it go (``ref``)."""

    job: Job
    ref: str


class Line(ABC):
    """The messages waiting for their turn, in ``partitions`` lines of three parts read in
    order: what is about safety, the urgent, the rest. A worker leases a line, takes its jobs
    one by one and acknowledges each after its turn; what it took and did not acknowledge
    stays with the line for the next worker. A person's messages beyond their share are parked
    beside the line and join its end as their earlier ones leave (``LineShare``)."""

    partitions: int
    share: LineShare

    async def open(self) -> None:  # noqa: B027  (nothing to prepare in this process)
        """Prepares the line when the server starts."""

    async def close(self) -> None:  # noqa: B027
        """Releases connections when the server stops."""

    @abstractmethod
    async def put(self, job: Job) -> None:
        """Puts ``job`` at the end of its conversation's line: of its first part if ``first``,
        of its urgent part if ``urgent`` and its person has jumps left, else of the rest, or
        parked while its person has their share in line already."""

    @abstractmethod
    async def lease(self, partition: int, worker: str, seconds: float) -> bool:
        """True when ``worker`` now serves ``partition`` alone, for ``seconds`` unless renewed."""

    @abstractmethod
    async def renew(self, partition: int, worker: str, seconds: float) -> bool:
        """Keeps the lease ``worker`` holds; False when it was lost."""

    @abstractmethod
    async def release(self, partition: int, worker: str) -> None:
        """Lets the line go; what ``worker`` took and did not acknowledge stays in it."""

    @abstractmethod
    async def take(self, partition: int, worker: str) -> Taken | None:
        """The next job of the line: one a stopped worker left first, then the first part,
        then the rest; None when the line is empty."""

    @abstractmethod
    async def ack(self, partition: int, taken: Taken) -> None:
        """The job's turn is over: it leaves the line, and its person's next parked message
        joins the end of it."""

    @abstractmethod
    async def depth(self) -> int:
        """How many jobs wait (parked ones too) or are being answered, in every line."""

    @abstractmethod
    async def waiting(self, since_before: float) -> list[Job]:
        """Jobs not taken yet that were put in line before ``since_before``: those in line,
        and the oldest parked one of each person (who waits too, while one of theirs is
        answered)."""

    @abstractmethod
    async def answered(self) -> int:
        """How many jobs ever left the line acknowledged, by any worker of any process."""


@dataclass
class _Partition:
    first: collections.deque[Job] = field(default_factory=collections.deque)
    urgent: collections.deque[Job] = field(default_factory=collections.deque)
    rest: collections.deque[Job] = field(default_factory=collections.deque)
    #: Taken and not acknowledged: ref → the job and the part it came from.
    taken: dict[str, tuple[Job, collections.deque[Job]]] = field(default_factory=dict)
    #: Each conversation's jobs in the parts or taken, and its parked ones.
    in_line: collections.Counter[str] = field(default_factory=collections.Counter)
    parked: dict[str, collections.deque[Job]] = field(default_factory=dict)
    holder: str | None = None
    until: float = 0.0

    def parts(self) -> tuple[collections.deque[Job], ...]:
        return self.first, self.urgent, self.rest


class ProcessLine(Line):
    """The line in this process's memory: the embedded default (one Rasa process)."""

    def __init__(
        self,
        partitions: int,
        share: LineShare | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.partitions = partitions
        self.share = share or LineShare()
        self._clock = clock
        self._lines = [_Partition() for _ in range(partitions)]
        self._answered = 0
        #: Each conversation's urgent jumps: how many, and when its window ends.
        self._jumps: dict[str, tuple[int, float]] = {}

    async def put(self, job: Job) -> None:
        self._put(job)

    def _put(self, job: Job) -> None:
        person = job.conversation
        line = self._lines[partition_of(person, self.partitions)]
        if job.first:
            part = line.first
        elif job.urgent and self._may_jump(person):
            part = line.urgent
        elif person in line.parked or _at_share(line.in_line[person], self.share):
            line.parked.setdefault(person, collections.deque()).append(job)
            return
        else:
            part = line.rest
        part.append(job)
        line.in_line[person] += 1

    def _may_jump(self, person: str) -> bool:
        if not self.share.jumps:
            return True
        now = self._clock()
        if len(self._jumps) > OVER_REMEMBERED:
            self._jumps = {key: kept for key, kept in self._jumps.items() if kept[1] > now}
        used, until = self._jumps.get(person, (0, now + self.share.jump_window_seconds))
        if until <= now:
            used, until = 0, now + self.share.jump_window_seconds
        self._jumps[person] = (used + 1, until)
        return used < self.share.jumps

    async def lease(self, partition: int, worker: str, seconds: float) -> bool:
        line, now = self._lines[partition], self._clock()
        if line.holder not in (None, worker) and line.until > now:
            return False
        if line.holder != worker:
            self._give_back(line)
        line.holder, line.until = worker, now + seconds
        return True

    async def renew(self, partition: int, worker: str, seconds: float) -> bool:
        line = self._lines[partition]
        if line.holder != worker:
            return False
        line.until = self._clock() + seconds
        return True

    async def release(self, partition: int, worker: str) -> None:
        line = self._lines[partition]
        if line.holder == worker:
            self._give_back(line)
            line.holder = None

    def _give_back(self, line: _Partition) -> None:
        """What a worker took and never acknowledged goes back to the front, in its order."""
        for job, part in reversed(list(line.taken.values())):
            part.appendleft(job)
        line.taken.clear()

    async def take(self, partition: int, worker: str) -> Taken | None:
        line = self._lines[partition]
        if line.holder != worker:
            return None
        for part in line.parts():
            if part:
                job = part.popleft()
                ref = uuid.uuid4().hex
                line.taken[ref] = (job, part)
                return Taken(job, ref)
        return None

    async def ack(self, partition: int, taken: Taken) -> None:
        self._ack(partition, taken)

    def _ack(self, partition: int, taken: Taken) -> bool:
        """Lets the job go; False when the line no longer counts it as taken (it took it back
        when the lease was lost), and then nothing changes."""
        line = self._lines[partition]
        if line.taken.pop(taken.ref, None) is None:
            return False
        self._answered += 1
        person = taken.job.conversation
        in_line = line.in_line[person] - 1
        parked = line.parked.get(person)
        while parked and not _at_share(in_line, self.share):
            line.rest.append(parked.popleft())
            in_line += 1
        if parked is not None and not parked:
            del line.parked[person]
        if in_line > 0:
            line.in_line[person] = in_line
        else:
            del line.in_line[person]
        return True

    async def answered(self) -> int:
        return self._answered

    async def depth(self) -> int:
        return sum(
            sum(len(part) for part in line.parts())
            + len(line.taken)
            + sum(len(parked) for parked in line.parked.values())
            for line in self._lines
        )

    async def waiting(self, since_before: float) -> list[Job]:
        in_line = [job for line in self._lines for part in line.parts() for job in part]
        oldest_parked = [parked[0] for line in self._lines for parked in line.parked.values()]
        return [job for job in in_line + oldest_parked if job.put_at < since_before]


def _at_share(in_line: int, share: LineShare) -> bool:
    """Whether a person with ``in_line`` messages in line has their share there already."""
    return share.in_line > 0 and in_line >= share.in_line


def job_key(delivery: str | None) -> str:
    """What a message is known by in the line: the provider's delivery id, else one made."""
    return delivery or f"job:{uuid.uuid4().hex}"
