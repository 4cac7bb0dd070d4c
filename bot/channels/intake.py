"""Webhooks answered at once, turns taken from a line: a surge costs people waiting, never lost
messages or a provider's retries.

Under a surge a webhook that waits for its turn waits too long for the provider: Twilio gives
up after 15 seconds, WhatsApp and Telegram send the message again and again. For the channels
whose replies go out through the provider's API (Telegram, WhatsApp, Twilio, SMS gateways, Kannel)
``WebhookInput.receive`` therefore authenticates, reads, parses and de-duplicates as before,
then puts each message in line (``Intake.put``) and answers 200 at once; workers (asyncio tasks
of the Rasa process, started with the server) take the turns from the line.

**Each person in order: partitions, not locks.** A conversation id always falls in the same
one of ``partitions`` lines (a hash of the id), and one worker at a time serves a line (it
holds the line's lease while it takes its messages), so a person's messages are answered one
after the other in the order they arrived, in this process and across processes. Locks per
conversation would need a fair lock across processes, which Redis has not: two workers holding
a person's first and second message race for it, and the second may win. The price of
partitions is that a slow turn delays the people behind it in its line; more lines than workers
(16 and 2 by default) keep that small, and a worker with nothing to do takes the next free line.

**Each person their share.** A person has at most ``INTAKE_IN_LINE_PER_PERSON`` messages (1)
in line at once; their later ones are parked and join the end of the line one by one, as
each earlier one is answered. A person who sends 600 messages in two seconds therefore holds
up the others of their line by one turn at a time, not by 600: everyone else's first message
goes before their second (a round robin of people, not of messages). Their own messages keep
their order.

**What jumps the line, and how often.** STOP, a withdrawal, "delete my data" and "safety"
(``about_safety``) go to the line's first part, read before anything else, always. Urgent
words and danger (``sounds_urgent``) go to its second part, read next, for a person's first
``INTAKE_JUMPS_PER_PERSON`` such messages (3) in ten minutes; later ones wait their turn like
any other. The urgent words are public: without that limit a flood of "my child is bleeding"
would put itself before every real one, and before other people's STOP (``LineShare``).

**The wait is said.** A message waiting longer than ``QUEUE_NOTICE_SECONDS`` gets one short
notice in the person's language (one language: ``notice_language``), at most once per ten
minutes per person, with about how many minutes are left, or "in a moment": the messages in
line before it over the pace every process answered at while there was work (``waits.py``,
sampled from the line's own count). In a surge most of those waiting are told, so the notices
stay cheap: the language is that of the person's last answer, kept with the turn's record (no
tracker read), and each check asks the memory only about people it has not seen told. A check
(once a second) looks ahead to the end of the next one: a notice goes when its message has
waited that long, not up to a second later, when its answer may already have gone out; a
notice whose answer went out first is not sent.

**Nothing lost, nothing answered twice.** A message leaves the line (``Line.ack``) only after
its turn's replies, or its apology, were handed to the provider; a worker that stops in the
middle leaves it with the line, and the next worker on that line takes it back first. The
turn's own record (``answered:`` in the channel memory, kept as soon as the provider took the
first reply) makes a message taken back after its answer went out only acknowledged, not
answered again; one taken back after its first reply only, from a turn that never ended (a
killed process), is not run again either (its actions would do their work twice), and its
person is told the answer may be incomplete; the process remembers its own turns' records too,
until their message left the line, for a Redis that cannot be reached between a reply and its
``XACK``; a message its webhook answered at once because its put timed out is recorded the same
way, in case the put reached the line after all; the providers' ids (``SeenMessages``) keep a
retry out of the line. A message whose turn raises (rather than ending in an answer or an
apology) is tried again, and on its third failure leaves the line with the apology, so that it
cannot hold the people behind it in silence. Replies the provider could not take for now (down,
overloaded) are kept with the message and handed over when it is back, before the message
leaves its line (``held_replies``): a provider's outage delays answers, it does not lose them.

Three lines: ``ProcessLine`` here (one process's memory: a restart loses what waits, so it is
what tests use), ``intake_sqlite.JournaledLine`` (`make run`'s: the same line, kept in a SQLite
file so that it outlives a restart) and ``intake_redis.RedisLine`` (the production profile's:
Redis Streams, shared by every process).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from rasa.core.channels.channel import UserMessage

from bot.channels.counts import APOLOGIES, NO_LANGUAGE
from bot.channels.held_replies import HeldReplies
from bot.channels.settings import IntakeSettings, LineShare, RedisSettings
from bot.channels.turns import (
    Assistant,
    OnNewMessage,
    Outcome,
    ReplyHooks,
    TurnReplies,
    conversation_language,
)
from bot.channels.waits import ServicePace, Wait
from bot.nlu.stop_keywords import is_opt_out, is_withdrawal
from kernel.case_urgency import is_urgent
from kernel.danger import dangers
from kernel.lang import stop_words
from kernel.lang.choice import choose_language, language_of_letters
from kernel.lang.codes import every_word, is_language
from kernel.lang.normalise import normalise
from kernel.memory import ChannelMemory, MemoryUnavailable, ProcessMemory
from kernel.notices import cut_off, in_line, try_again
from kernel.partitions import partition_of

logger = logging.getLogger(__name__)

#: Messages that are about the person's safety or data, besides STOP and urgent words:
#: the buttons' payloads and the words people type for them, normalised (every language's:
#: kernel/lang/stop_words.py ``JUMPING_WORDS``, beside STOP's).
JUMPING_PAYLOADS: Final = ("/delete_my_data", "/unsubscribe_alerts", "/withdraw_case")
JUMPING_WORDS: Final = every_word(stop_words.JUMPING_WORDS)
#: How often a person is told at most that their message waits.
NOTICE_EVERY_SECONDS: Final = 600.0
#: Notices of the wait handed to the provider at the same time.
NOTICES_AT_ONCE: Final = 16
#: How long a turn's record of having answered is kept: longer than a message ever waits.
ANSWERED_SECONDS: Final = 24 * 3600.0
#: How long the notice's language may take to read from the person's first message.
PARSE_SECONDS: Final = 2.0
#: A worker with nothing to do looks again after this long.
IDLE_SECONDS: Final = 0.05
#: Messages a worker answers from one line before it lets the line go to look at the others.
BATCH: Final = 20
#: How often a message's turn may raise before the message leaves its line with an apology,
#: and how long those failures are remembered.
TURN_FAILURES: Final = 3
FAILURES_SECONDS: Final = 3600.0
#: How long a server that stops lets the turns under way end (replies out, conversation
#: stored, message acknowledged) before it cuts them off: a restart in a surge then leaves
#: nobody half answered, nor waiting ``INTAKE_CLAIM_IDLE_SECONDS`` for another process.
#: Inside the 10 s that Docker, and ``make run``'s stack, give a process after SIGTERM.
STOP_GRACE_SECONDS: Final = 8.0
#: How many turns over and not yet acknowledged this process remembers at most (only while
#: Redis cannot be reached are there more than the workers).
OVER_REMEMBERED: Final = 10_000
#: A turn's record while it runs, from its first reply: taken back with this record, its
#: turn was cut off in the middle (``Intake._say_cut_off``).
UNDER_WAY: Final = "under way"


def jumps_the_line(text: str | None) -> bool:
    """Whether a message may go before the others of its line: about the person's safety or
    data (``about_safety``), or urgent (``sounds_urgent``)."""
    return about_safety(text) or sounds_urgent(text)


def about_safety(text: str | None) -> bool:
    """STOP and a withdrawal, "delete my data" and "safety" (the lists of ``stop_keywords``
    and ``JUMPING_WORDS``): what always goes first, however many the person sent."""
    if not text:
        return False
    stripped = text.strip()
    if stripped.startswith(JUMPING_PAYLOADS):
        return True
    if is_opt_out(stripped) or is_withdrawal(stripped):
        return True
    return normalise(stripped).strip(" .!?؟") in JUMPING_WORDS


def sounds_urgent(text: str | None) -> bool:
    """Urgent words and danger (``case_urgency``, ``kernel/danger.py``): what goes first while
    its person has jumps left (``LineShare.jumps``)."""
    if not text:
        return False
    stripped = text.strip()
    return is_urgent(stripped) or bool(dangers(stripped))


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
        line = self._lines[partition]
        if line.taken.pop(taken.ref, None) is None:
            return
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


class Queueable(Protocol):
    """What a connector gives the intake: its messages as JSON and back, their turn, a
    short notice to their sender, and a reply of the turn handed over later. Connectors give it
    by deriving from ``webhook.QueuedInput``, where each is abstract. The message is ``Any``:
    each connector has its own, and the intake only hands ``from_queue``'s to the others."""

    @classmethod
    def name(cls) -> str: ...

    def from_queue(self, data: dict[str, Any]) -> Any: ...

    async def take(
        self, message: Any, on_new_message: OnNewMessage, agent: Assistant, hooks: ReplyHooks
    ) -> Outcome: ...

    async def say(self, message: Any, text: str) -> None: ...

    async def reply(self, message: Any, response: dict[str, Any]) -> None: ...


class Intake:
    """The line of one connector and the workers that take its turns."""

    def __init__(
        self,
        line: Line,
        settings: IntakeSettings,
        memory: ChannelMemory | None = None,
        *,
        notice_check_seconds: float = 1.0,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.line = line
        self.settings = settings
        self.memory = memory if memory is not None else ProcessMemory()
        #: When a message was put in line and how long it has waited: wall time, since other
        #: processes read a job's ``put_at``. The notices read it and wait on ``sleep``, so
        #: that a test moves time on instead of waiting for it to pass.
        self.clock = clock
        self._sleep = sleep
        #: Sampled from the line's count at each check: every process's answers, not this
        #: one's share (several Rasa processes serve one Redis line).
        self.pace = ServicePace()
        self._notice_check = notice_check_seconds
        self._held: dict[str, HeldReplies] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._busy = 0
        self._stopping = False
        self._lease_seconds = max(settings.claim_idle_seconds, 1.0)
        #: Conversations this process knows were told of the wait (by it or by another
        #: process), until when (``clock``): the checks ask the memory only about
        #: the people newly waiting, not again about the thousands already told.
        self._told_until: dict[str, float] = {}
        #: The records of the turns over in this process whose message has not left its line:
        #: job key → what ``_turn`` keeps. When Redis cannot be reached between a turn's reply
        #: and its ``XACK`` (a partition), neither the record nor the acknowledgement is kept;
        #: the worker takes its own message back once Redis answers, and this is what tells it
        #: that the person has the answer already, so that the turn is not run again.
        self._over: collections.OrderedDict[str, dict[str, str]] = collections.OrderedDict()

    @property
    def workers(self) -> list[asyncio.Task[None]]:
        """The worker tasks (a test stops one in the middle of a turn)."""
        return [task for task in self._tasks if task.get_name().startswith("intake-worker")]

    async def put(
        self,
        conversation: str,
        data: dict[str, Any],
        *,
        key: str | None = None,
        text: str | None = None,
        hint: str | None = None,
    ) -> None:
        """Puts a message in line: ``key`` is its delivery id when the provider gave one,
        ``text`` what the person wrote (what decides whether it jumps the line)."""
        job = Job(
            job_key(key),
            conversation,
            data,
            text=text,
            hint=hint,
            first=about_safety(text),
            put_at=self.clock(),
            urgent=sounds_urgent(text),
        )
        await self.line.put(job)

    async def start(self, connector: Queueable, agent: Any, on_new_message: OnNewMessage) -> None:
        """Starts the workers and the notices (the server started)."""
        await self.line.open()
        self._stopping = False
        for number in range(self.settings.workers):
            worker = f"{connector.name()}-{uuid.uuid4().hex[:8]}-{number}"
            task = asyncio.create_task(
                self._work(worker, number, connector, agent, on_new_message),
                name=f"intake-worker-{worker}",
            )
            self._tasks.append(task)
        notices = asyncio.create_task(self._tell_the_wait(connector, agent), name="intake-notices")
        self._tasks.append(notices)

    async def stop(self, grace: float = STOP_GRACE_SECONDS) -> None:
        """Stops the workers: each ends the turn it is in, for up to ``grace`` seconds, and
        takes no other; what they had not answered stays in the line. (A process killed
        outright ends none: a test of that stops with ``grace=0``.)"""
        workers, tasks, self._tasks = self.workers, self._tasks, []
        # The flag ends the workers' loops after their turn; it also ends them when a client
        # library turns the cancellation below into its own error.
        self._stopping = True
        if grace > 0 and workers:
            await asyncio.wait(workers, timeout=grace)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.line.close()

    async def drained(self, timeout: float = 10.0) -> None:
        """Waits until every message in line was answered (tests, a graceful stop)."""
        deadline = time.monotonic() + timeout
        while await self.line.depth() or self._busy:
            if time.monotonic() > deadline:
                raise TimeoutError("the intake did not drain")
            await asyncio.sleep(0.02)

    async def _work(
        self,
        worker: str,
        number: int,
        connector: Queueable,
        agent: Any,
        on_new_message: OnNewMessage,
    ) -> None:
        partitions = self.line.partitions
        while not self._stopping:
            answered = 0
            try:
                for step in range(partitions):
                    partition = (number + step) % partitions
                    answered += await self._serve_line(
                        partition, worker, connector, agent, on_new_message
                    )
            except asyncio.CancelledError:
                raise
            except Exception:
                if self._stopping:
                    return
                logger.exception("intake: a worker failed; it goes on")
                await asyncio.sleep(1.0)
            if not answered:
                await asyncio.sleep(IDLE_SECONDS)

    async def _serve_line(
        self,
        partition: int,
        worker: str,
        connector: Queueable,
        agent: Any,
        on_new_message: OnNewMessage,
    ) -> int:
        if not await self.line.lease(partition, worker, self._lease_seconds):
            return 0
        answered = 0
        try:
            while answered < BATCH and not self._stopping:
                # The lease is renewed during a turn, and here before each one: many short
                # turns in a row would outlast it, and a worker that leased the line then would
                # take back the message under way, whose turn has not yet replied.
                if answered and not await self.line.renew(partition, worker, self._lease_seconds):
                    logger.warning("intake: a worker lost its line between turns")
                    break
                taken = await self.line.take(partition, worker)
                if taken is None:
                    break
                self._busy += 1
                try:
                    keeping = asyncio.create_task(self._keep_lease(partition, worker))
                    try:
                        await self._turn(taken.job, connector, agent, on_new_message)
                    except Exception:
                        if not await self._gives_up(taken.job, connector, agent):
                            raise  # it stays first in its line: the worker tries it again
                    finally:
                        keeping.cancel()
                    await self.line.ack(partition, taken)
                    self._over.pop(taken.job.key, None)
                finally:
                    self._busy -= 1
                answered += 1
        finally:
            await asyncio.shield(self.line.release(partition, worker))
        return answered

    async def _keep_lease(self, partition: int, worker: str) -> None:
        while True:
            await asyncio.sleep(self._lease_seconds / 3)
            if not await self.line.renew(partition, worker, self._lease_seconds):
                logger.warning("intake: a worker lost its line during a long turn")
                return

    async def _turn(
        self, job: Job, connector: Queueable, agent: Any, on_new_message: OnNewMessage
    ) -> None:
        """The turn of ``job``, once: tried again after ``retry_seconds`` while nothing reached
        the person, and recorded as answered before it leaves the line."""
        held = self.held_replies(connector.name())
        recorded = await self._record_of(job)
        if recorded is not None:
            kept_here = self._over.get(job.key)
            if kept_here is not None:
                # Over in this process when Redis could not keep its record: for the others.
                await self._keep_record(job.key, kept_here)
            # Held replies are kept with the record, so only a message answered already can
            # have some: a turn that runs pays one read of the memory, not two.
            still_held = await held.kept(job.key)
            if still_held:
                logger.info("%s: a message taken back has replies held", connector.name())
                await self._hand_over(held, job, connector, still_held)
            elif recorded == UNDER_WAY:
                await self._say_cut_off(job, connector, agent)
            else:
                logger.info("%s: a message taken back was answered already", connector.name())
            return
        pauses = iter(self.settings.retry_seconds)
        outputs: list[TurnReplies] = []

        async def replied() -> None:
            # Kept as soon as the person has the first reply, not only once the turn is over
            # and stored: a worker killed in between would otherwise let the turn run again.
            await self._keep_record(job.key, turn_record(job, UNDER_WAY, outputs))

        async def observed(message: UserMessage) -> Any:
            if isinstance(message.output_channel, TurnReplies):
                outputs.append(message.output_channel)
            return await on_new_message(message)

        hooks = ReplyHooks(on_first_delivery=replied, hold=True)
        while True:
            message = connector.from_queue(job.data)
            outcome = await connector.take(message, observed, agent, hooks)
            if outcome is not Outcome.UNANSWERED or (outputs and outputs[-1].held):
                break
            pause = next(pauses, None)
            if pause is None:
                logger.error("%s: nothing reached %s; given up", connector.name(), job.conversation)
                break
            await asyncio.sleep(pause)
        kept = turn_record(job, outcome.value, outputs)
        if any(output.forgotten for output in outputs):
            await self._forget(job.conversation)
        if outputs and outputs[-1].held:
            self._remember_over(job.key, kept)
            await held.keep(job.key, outputs[-1].held, kept)  # the record goes with them
            await self._hand_over(held, job, connector, outputs[-1].held)
            return
        await self._keep_record(job.key, kept)

    async def answering_at_once(self, key: str) -> None:
        """A message that could not be put in line is answered by its webhook now. A put that
        timed out may still have reached the line (Redis took it, its answer was lost): the
        worker that takes it finds this record and lets it go, as a message answered already,
        instead of answering it a second time, even while this turn still runs."""
        await self._keep_record(key, {answered_key(key): Outcome.ANSWERED.value})

    async def answered_at_once(self, key: str, outcome: Outcome) -> None:
        """The webhook's turn is over; when it reached nobody, the provider sends the message
        again, and a copy that reached the line after all may be answered."""
        if outcome is not Outcome.UNANSWERED:
            return
        self._over.pop(key, None)
        try:
            await self.memory.delete(answered_key(key))
        except MemoryUnavailable:
            logger.debug("channel memory unavailable: a copy in line is let go unanswered")

    def _remember_over(self, job_key: str, kept: dict[str, str]) -> None:
        self._over[job_key] = kept
        self._over.move_to_end(job_key)
        while len(self._over) > OVER_REMEMBERED:
            self._over.popitem(last=False)

    async def _keep_record(self, job_key: str, kept: dict[str, str]) -> None:
        """Keeps a turn's record (``kept``: the answered mark, and the language it was said
        in) in this process until its message leaves the line, and in the channel memory
        for every process when it can be reached."""
        self._remember_over(job_key, kept)
        try:
            await self.memory.put(kept, ANSWERED_SECONDS)
        except MemoryUnavailable:
            logger.debug("channel memory unavailable: the turn's record is kept here only")

    async def _forget(self, conversation: str) -> None:
        """The person asked to be forgotten: the language of their answers and the mark that
        they were told of the wait go now, not a day later."""
        self._told_until.pop(conversation, None)
        try:
            await self.memory.delete(language_key(conversation), told_key(conversation))
        except MemoryUnavailable:
            logger.debug("channel memory unavailable: the marks expire by themselves")

    async def _untold(self, conversation: str) -> None:
        """Forgets that ``conversation`` was told of the wait: it was answered first."""
        self._told_until.pop(conversation, None)
        try:
            await self.memory.delete(told_key(conversation))
        except MemoryUnavailable:
            logger.debug("channel memory unavailable: the notice's mark expires by itself")

    async def _answered(self, job: Job) -> bool:
        """Whether ``job``'s turn has reached its person (its record, ``_turn``)."""
        return await self._record_of(job) is not None

    async def _record_of(self, job: Job) -> str | None:
        """How ``job``'s turn ended (an ``Outcome``'s value), ``UNDER_WAY`` once its first
        reply went out, or None: it has reached nobody yet."""
        kept_here = self._over.get(job.key)
        if kept_here is not None:
            return kept_here[answered_key(job.key)]
        try:
            return await self.memory.get(answered_key(job.key))
        except MemoryUnavailable:
            return None

    async def _say_cut_off(self, job: Job, connector: Queueable, agent: Any) -> None:
        """The turn of ``job`` stopped after its first reply went out and before it ended (its
        process was killed, or it raised): the person has part of an answer, and their
        conversation does not hold the message. Running the turn again would do its actions'
        work twice (a case opened, a subscription) and repeat what they already read; they
        are told instead, in their language, that the answer may be incomplete."""
        logger.warning("%s: a turn was cut off after its first reply", connector.name())
        language = await self.language_of(agent, job)
        # A provider that does not take it raises: the message stays in its line (_gives_up).
        await connector.say(connector.from_queue(job.data), cut_off(language))
        APOLOGIES.labels(connector.name(), language or NO_LANGUAGE).inc()
        await self._keep_record(job.key, {answered_key(job.key): Outcome.APOLOGISED.value})

    def held_replies(self, channel: str) -> HeldReplies:
        """The replies of ``channel``'s messages that wait for its provider."""
        if channel not in self._held:
            self._held[channel] = HeldReplies(
                self.memory,
                channel,
                self.settings.reply_retry_seconds,
                self.settings.reply_hold_seconds,
            )
        return self._held[channel]

    async def _hand_over(
        self, held: HeldReplies, job: Job, connector: Queueable, replies: list[dict[str, Any]]
    ) -> None:
        message = connector.from_queue(job.data)

        async def send(reply: dict[str, Any]) -> None:
            await connector.reply(message, reply)

        await held.hand_over(job.key, replies, send)

    async def _gives_up(self, job: Job, connector: Queueable, agent: Any) -> bool:
        """After the turn of ``job`` raised: False while it may be tried again; on its
        ``TURN_FAILURES``-th failure (counted across processes) True, once its sender was sent
        the apology. A message that breaks every turn it is in (a malformed job, a bug) would
        otherwise stay first in its line for ever, and everyone behind it would wait in silence.
        """
        try:
            again = await self.memory.push(
                f"intake:failed:{job.key}", "failed", TURN_FAILURES - 1, FAILURES_SECONDS
            )
        except MemoryUnavailable:
            again = True  # nothing to count with: the line itself is likely down too
        if again:
            logger.warning("%s: a turn failed; the message is tried again", connector.name())
            return False
        logger.error(
            "%s: the turn of a message of %s failed %d times; it leaves the line with an apology",
            connector.name(),
            job.conversation,
            TURN_FAILURES,
            exc_info=True,
        )
        language = await self.language_of(agent, job)
        try:
            message = connector.from_queue(job.data)
            await connector.say(message, try_again(language, getattr(connector, "hotline", None)))
            APOLOGIES.labels(connector.name(), language or NO_LANGUAGE).inc()
        except Exception:
            logger.error("%s: the apology for a failed turn did not go out", connector.name())
        return True

    async def language_of(self, agent: Any, job: Job) -> str | None:
        """The language of what the intake says by itself to ``job``'s sender: that of the
        person's last answer (kept by ``_turn`` for a day), else ``language_for``'s."""
        try:
            remembered = await self.memory.get(language_key(job.conversation))
        except MemoryUnavailable:
            remembered = None
        if is_language(remembered):
            return remembered
        return await language_for(agent, job.conversation, job.text, job.hint)

    async def _tell_the_wait(self, connector: Queueable, agent: Any) -> None:
        # The checks choose whom to tell one after the other, as before; the notices they
        # chose go in the background, each when its wait is reached, so that a check never
        # waits for its people's time before the next one.
        sending: set[asyncio.Task[int]] = set()
        took = 0.0
        try:
            while not self._stopping:
                await self._sleep(self._notice_check)
                started = self.clock()
                try:
                    # Ahead to the end of the next check, which starts a second after this one
                    # ends: under a surge a check takes a while, and whoever crossed their
                    # wait in between would be answered before their notice went.
                    told = await self._to_tell(ahead=self._notice_check + 2 * took)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    logger.exception("intake: the notices of the wait failed")
                    continue
                finally:
                    took = self.clock() - started
                if told:
                    task = asyncio.create_task(self._tell(connector, agent, told))
                    sending.add(task)
                    task.add_done_callback(sending.discard)
        finally:
            for task in sending:
                task.cancel()

    async def tell_the_wait(self, connector: Queueable, agent: Any, ahead: float = 0.0) -> int:
        """One notice to each person whose message waits longer than ``notice_seconds``, or
        will within ``ahead`` seconds, and who was not told in the last ten minutes; how many
        were told. A notice goes when its message has waited ``notice_seconds`` (not up to a
        check later, when the answer may be out before it), unless its answer went first."""
        return await self._tell(connector, agent, await self._to_tell(ahead))

    async def _to_tell(self, ahead: float) -> list[tuple[Job, Wait]]:
        """The oldest waiting message of each person to tell (``tell_the_wait``), the
        longest waiting first, marked as told, each with the wait its notice promises: the
        messages put in line before it, and it, over the pace of the line."""
        answered, depth = await self.line.answered(), await self.line.depth()
        self.pace.observe(answered, busy=depth > 0)
        now = self.clock()
        waiting = await self.line.waiting(now - self.settings.notice_seconds + ahead)
        if not waiting:
            return []
        waiting.sort(key=lambda job: job.put_at)
        place = {job.key: number for number, job in enumerate(waiting, start=1)}
        self._told_until = {key: until for key, until in self._told_until.items() if until > now}
        to_tell = []
        for job in _one_per_person(waiting):
            if job.conversation in self._told_until:
                continue
            try:
                if await self.memory.add(told_key(job.conversation), NOTICE_EVERY_SECONDS):
                    wait = self.pace.seconds_for(place[job.key], self.settings.workers)
                    to_tell.append((job, wait))
            except MemoryUnavailable:
                break  # without the memory, a notice could repeat on every check
            self._told_until[job.conversation] = now + NOTICE_EVERY_SECONDS
        return to_tell

    async def _tell(self, connector: Queueable, agent: Any, told: list[tuple[Job, Wait]]) -> int:
        # In a surge thousands wait at once: one notice after the other would reach the last of
        # them long after their answer. The longest waiting go first.
        sending = asyncio.Semaphore(NOTICES_AT_ONCE)

        async def tell(job: Job, wait: Wait) -> bool:
            early = job.put_at + self.settings.notice_seconds - self.clock()
            if early > 0:
                await self._sleep(early)
            async with sending:
                # Asked only now that it may go (its time reached, the notices before it
                # sent): "your question is in line" after the answer would only confuse.
                if await self._answered(job):
                    await self._untold(job.conversation)  # their next wait may need one
                    return False
                language = await self.language_of(agent, job) or await answer_language(
                    agent, job.text
                )
                notice = in_line(language, wait.minutes)
                try:
                    await connector.say(connector.from_queue(job.data), notice)
                    return True
                except Exception:
                    logger.warning("%s: the notice of the wait did not go out", connector.name())
                    return False

        return sum(await asyncio.gather(*(tell(job, wait) for job, wait in told)))


def turn_record(job: Job, state: str, outputs: Sequence[TurnReplies]) -> dict[str, str]:
    """The record of ``job``'s turn in ``state`` (``UNDER_WAY`` or an ``Outcome``'s value),
    with the language its replies named so far. What the intake says by itself later (the
    notice of the wait, the word that an answer was cut off) reads it instead of the
    tracker: in a surge most of the people waiting are told, and each tracker read is a
    turn's worth of SQL; a turn cut off never stored its language at all."""
    kept = {answered_key(job.key): state}
    said_in = next((out.named_language for out in reversed(outputs) if out.named_language), None)
    if said_in and not any(out.forgotten for out in outputs):
        kept[language_key(job.conversation)] = said_in
    return kept


def intake_for(
    channel: str, settings: IntakeSettings, memory: ChannelMemory, redis: RedisSettings | None
) -> Intake | None:
    """The intake of a connector whose replies go out by the provider's API: None when
    ``CHANNEL_INTAKE`` is ``direct``; Redis Streams in the production profile (``redis``),
    else this process's line, kept in ``INTAKE_JOURNAL`` when one is given."""
    if settings.mode != "queue":
        return None
    if redis is not None:
        # Imported here, as the journal's below: each line's module builds on this one's Line.
        from bot.channels.intake_redis import RedisLine

        logger.info("%s: webhooks answered at once, turns from Redis Streams", channel)
        line: Line = RedisLine.connect(channel, settings.partitions, redis, settings.share)
    elif settings.journal:
        from bot.channels.intake_sqlite import JournaledLine

        logger.info("%s: webhooks answered at once, turns from this process's kept line", channel)
        line = JournaledLine(channel, Path(settings.journal), settings.partitions, settings.share)
    else:
        logger.info("%s: webhooks answered at once, turns from this process's line", channel)
        line = ProcessLine(settings.partitions, settings.share)
    return Intake(line, settings, memory)


def _one_per_person(jobs: Iterable[Job]) -> list[Job]:
    seen: dict[str, Job] = {}
    for job in jobs:
        seen.setdefault(job.conversation, job)
    return list(seen.values())


def job_key(delivery: str | None) -> str:
    """What a message is known by in the line: the provider's delivery id, else one made."""
    return delivery or f"job:{uuid.uuid4().hex}"


def answered_key(job_key: str) -> str:
    """The channel memory's key of the record that the message ``job_key`` was answered."""
    return f"intake:answered:{job_key}"


def told_key(conversation: str) -> str:
    """The channel memory's mark that ``conversation`` was told of the wait lately."""
    return f"intake:told:{conversation}"


def language_key(conversation: str) -> str:
    """The channel memory's key of the language ``conversation`` was last answered in."""
    return f"intake:language:{conversation}"


async def language_for(
    agent: Any, conversation: str, text: str | None, hint: str | None
) -> str | None:
    """The conversation's language as the tracker remembers it; else the provider's hint;
    else what the text's letters say (``language_of_letters``: Pashto's own letters, else Dari
    for Arabic script); None (every language) for Latin letters, which romanized Dari and
    Pashto use too."""
    remembered = await conversation_language(agent, conversation)
    if remembered:
        return remembered
    if hint:
        return hint
    return language_of_letters(text) if text else None


async def notice_language(agent: Any, conversation: str, text: str | None, hint: str | None) -> str:
    """The one language of a notice of the wait: ``language_for``'s, else the one the turn
    will answer in (``answer_language``). Never all three, as the apologies are when nothing
    is known: a notice goes to many at once, and three languages are three times as long to
    read and, on SMS, to pay for."""
    return await language_for(agent, conversation, text, hint) or await answer_language(agent, text)


async def answer_language(agent: Any, text: str | None) -> str:
    """The language a first message in Latin letters will be answered in: the agent's NLU
    identifies it (romanized Dari, Pashto or English) and ``choose_language`` decides, as in
    the turn; English, the default, when that cannot be asked."""
    parsed: dict[str, Any] = {}
    if text:
        try:
            parsed = await asyncio.wait_for(agent.parse_message(text), PARSE_SECONDS)
        except Exception:
            logger.debug("intake: the notice's language could not be read from the message")
    return choose_language(None, parsed).language
