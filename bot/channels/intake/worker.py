"""The workers of a connector's intake: each leases a line, takes its messages one by one,
runs each turn and acknowledges the message once the replies were handed to the provider; and
the check, once a second, that tells those waiting longer than ``QUEUE_NOTICE_SECONDS``.
``intake_for`` picks the line a deployment keeps (the package's docstring says what each does).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final, Protocol

from rasa.core.channels.channel import UserMessage

from bot.channels.counts import APOLOGIES, NO_LANGUAGE
from bot.channels.held_replies import HeldReplies
from bot.channels.intake.jumping import about_safety, sounds_urgent
from bot.channels.intake.kept_line import JournaledLine
from bot.channels.intake.ledger import (
    ANSWERED_SECONDS,
    UNDER_WAY,
    answered_key,
    language_key,
    told_key,
    turn_record,
)
from bot.channels.intake.line import OVER_REMEMBERED, Job, Line, ProcessLine, job_key
from bot.channels.intake.notices import (
    NOTICE_EVERY_SECONDS,
    NOTICES_AT_ONCE,
    answer_language,
    language_for,
    one_per_person,
)
from bot.channels.intake.redis_line import RedisLine
from bot.channels.settings import IntakeSettings, RedisSettings
from bot.channels.turns import (
    Assistant,
    OnNewMessage,
    Outcome,
    ReplyHooks,
    TurnReplies,
)
from bot.channels.waits import ServicePace, Wait
from kernel.lang.codes import is_language
from kernel.memory import ChannelMemory, MemoryUnavailable, ProcessMemory
from kernel.notices import cut_off, in_line, try_again

logger = logging.getLogger(__name__)

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

    async def start(
        self, connector: Queueable, agent: Assistant, on_new_message: OnNewMessage
    ) -> None:
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
        agent: Assistant,
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
        agent: Assistant,
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
        self, job: Job, connector: Queueable, agent: Assistant, on_new_message: OnNewMessage
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

    async def _say_cut_off(self, job: Job, connector: Queueable, agent: Assistant) -> None:
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

    async def _gives_up(self, job: Job, connector: Queueable, agent: Assistant) -> bool:
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

    async def language_of(self, agent: Assistant, job: Job) -> str | None:
        """The language of what the intake says by itself to ``job``'s sender: that of the
        person's last answer (kept by ``_turn`` for a day), else ``language_for``'s."""
        try:
            remembered = await self.memory.get(language_key(job.conversation))
        except MemoryUnavailable:
            remembered = None
        if is_language(remembered):
            return remembered
        return await language_for(agent, job.conversation, job.text, job.hint)

    async def _tell_the_wait(self, connector: Queueable, agent: Assistant) -> None:
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

    async def tell_the_wait(
        self, connector: Queueable, agent: Assistant, ahead: float = 0.0
    ) -> int:
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
        for job in one_per_person(waiting):
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

    async def _tell(
        self, connector: Queueable, agent: Assistant, told: list[tuple[Job, Wait]]
    ) -> int:
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


def intake_for(
    channel: str, settings: IntakeSettings, memory: ChannelMemory, redis: RedisSettings | None
) -> Intake | None:
    """The intake of a connector whose replies go out by the provider's API: None when
    ``CHANNEL_INTAKE`` is ``direct``; Redis Streams in the production profile (``redis``),
    else this process's line, kept in ``INTAKE_JOURNAL`` when one is given."""
    if settings.mode != "queue":
        return None
    if redis is not None:
        logger.info("%s: webhooks answered at once, turns from Redis Streams", channel)
        line: Line = RedisLine.connect(channel, settings.partitions, redis, settings.share)
    elif settings.journal:
        logger.info("%s: webhooks answered at once, turns from this process's kept line", channel)
        line = JournaledLine(channel, Path(settings.journal), settings.partitions, settings.share)
    else:
        logger.info("%s: webhooks answered at once, turns from this process's line", channel)
        line = ProcessLine(settings.partitions, settings.share)
    return Intake(line, settings, memory)
