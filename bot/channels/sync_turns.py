"""REST and the web chat answer in their HTTP response, but never after an unbounded wait.

Their replies have no provider's API to go out by later, so these two channels take the turn
before they answer, unlike the queued connectors (``intake.py``). Under a surge that wait grows
with every person writing, and a page or a client that waits in silence gives up or writes
again. Past ``SYNC_TURNS_WAITING`` turns in progress in this Rasa process, a message's turn
therefore gets ``QUEUE_NOTICE_SECONDS`` to end (``answer``): a rush that is over within them
(120 people at once, answered in 1.2 s) is answered in the response as always, with no notice.
A turn still under way then is answered with the notice that it is in line ("Many people are
writing now…", once per person in ten minutes, in their one language, with the wait measured
as ``waits.py`` says), and goes on; its replies go to the conversation's mailbox when it ends,
from where the web chat's page (and a REST client that asks ``/webhooks/rest/mailbox``) brings
them. A person told already gets an empty answer for their next message that waits: the page
then asks its mailbox as it does after "received".

What jumps the intake's line (STOP, "delete my data", "safety", urgent words:
``intake.jumps_the_line``) is always answered in the response: it must not wait behind the
others, and a deletion's confirmation must reach the person it deleted.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import itertools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, Final, TypeVar

from bot.channels.intake.jumping import jumps_the_line
from bot.channels.intake.ledger import told_key
from bot.channels.intake.notices import NOTICE_EVERY_SECONDS, notice_language
from bot.channels.settings import IntakeSettings, for_rasa, sync_turns_waiting
from bot.channels.turns import Assistant
from bot.channels.waits import ServicePace, Wait
from kernel.contract import language_metadata
from kernel.memory import ChannelMemory, MemoryUnavailable
from kernel.notices import in_line

logger = logging.getLogger(__name__)

T = TypeVar("T")
#: The replies of a turn answered by the notice, handed to the mailbox once it ends.
HandOver = Callable[[], Awaitable[None]]
#: People this process remembers having told, at most (the channel memory is asked first).
TOLD_REMEMBERED: Final = 100_000


class SyncTurns:
    """The turns REST and the web chat have in progress in this process, with the ones that
    went on after their HTTP answer."""

    def __init__(
        self,
        limit: int,
        notice_seconds: float = IntakeSettings.notice_seconds,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.notice_seconds = notice_seconds
        self.pace = ServicePace(clock)
        self._answered = 0
        #: Every turn in progress by the order it began (``_ahead``), and each late one's
        #: number by its conversation.
        self._numbers = itertools.count()
        self._under_way: list[int] = []
        self._late: dict[str, int] = {}
        #: Conversations told of the wait here, until when (``time.monotonic``).
        self._told_until: dict[str, float] = {}
        #: Turns that go on after their notice; kept so that they are not collected.
        self._later: set[asyncio.Task[Any]] = set()

    @property
    def taking(self) -> int:
        """Turns in progress, those that went on after their notice included."""
        return len(self._under_way)

    def answers_later(self, text: str | None) -> bool:
        """Whether a message with ``text`` may be answered with the notice (``answer``)."""
        return self.taking >= self.limit and not jumps_the_line(text)

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[int]:
        """Counts one turn while it is taken; its number in the order turns began."""
        number = next(self._numbers)
        self._under_way.append(number)  # the numbers only grow: the list stays sorted
        self.pace.observe(self._answered, busy=True)
        try:
            yield number
        finally:
            del self._under_way[bisect.bisect_left(self._under_way, number)]
            self._answered += 1
            self.pace.observe(self._answered, busy=bool(self._under_way))

    async def answer(
        self, turn: Coroutine[Any, Any, T], conversation: str, hand_over: HandOver
    ) -> T | None:
        """``turn``'s result when it ends within ``notice_seconds``; else None, and it goes on:
        ``hand_over`` then gives its replies to the mailbox once it has ended."""
        started = asyncio.Event()
        task = asyncio.create_task(self._counted(turn, conversation, started))
        await started.wait()
        try:
            done, _ = await asyncio.wait({task}, timeout=self.notice_seconds)
        except asyncio.CancelledError:
            self._go_on(task, hand_over)  # the client went away: the mailbox keeps the replies
            raise
        if task in done:
            return task.result()
        self._go_on(task, hand_over)
        return None

    async def notice(
        self,
        agent: Assistant,
        conversation: str,
        text: str | None,
        hint: str | None,
        memory: ChannelMemory | None = None,
    ) -> dict[str, Any] | None:
        """The notice of the wait of ``conversation``'s turn under way, as a reply (``waiting``:
        the answer comes later), in one language; None when the person was told in the last
        ten minutes (by any process that shares ``memory``)."""
        if not await self._first_told(conversation, memory):
            return None
        language = await notice_language(agent, conversation, text, hint)
        wait = self.wait_of(conversation)
        return {
            "text": in_line(language, wait.minutes),
            "waiting": True,
            "metadata": language_metadata(language),
        }

    def wait_of(self, conversation: str) -> Wait:
        """How long ``conversation``'s turn under way will still take: the turns that began
        before it and are not over, and it, over the pace of the last rush."""
        number = self._late.get(conversation)
        ahead = len(self._under_way) if number is None else self._ahead(number)
        return self.pace.seconds_for(ahead, self.limit)

    async def drained(self, timeout: float = 30.0) -> None:
        """Waits until the turns that went on after their notice are over (a graceful stop)."""
        if self._later:
            await asyncio.wait_for(asyncio.gather(*self._later, return_exceptions=True), timeout)

    def _ahead(self, number: int) -> int:
        return bisect.bisect_right(self._under_way, number)

    async def _counted(
        self, turn: Coroutine[Any, Any, T], conversation: str, started: asyncio.Event
    ) -> T:
        async with self.turn() as number:
            self._late.setdefault(conversation, number)
            started.set()
            try:
                return await turn
            finally:
                if self._late.get(conversation) == number:
                    del self._late[conversation]

    def _go_on(self, task: asyncio.Task[Any], hand_over: HandOver) -> None:
        async def then() -> None:
            try:
                await asyncio.shield(task)
            except Exception:
                logger.exception("a turn taken after its notice failed")
            try:
                await hand_over()
            except Exception:
                logger.exception("the replies of a turn taken after its notice were not kept")

        later = asyncio.create_task(then(), name="sync-turn-later")
        self._later.add(later)
        later.add_done_callback(self._later.discard)

    async def _first_told(self, conversation: str, memory: ChannelMemory | None) -> bool:
        """Marks ``conversation`` told; False when it was in the last ten minutes."""
        now = time.monotonic()
        if self._told_until.get(conversation, 0.0) > now:
            return False
        if len(self._told_until) >= TOLD_REMEMBERED:
            self._told_until = {c: t for c, t in self._told_until.items() if t > now}
        self._told_until[conversation] = now + NOTICE_EVERY_SECONDS
        if memory is None:
            return True
        try:
            return await memory.add(told_key(conversation), NOTICE_EVERY_SECONDS)
        except MemoryUnavailable:
            return True  # this process's mark above keeps it to one notice here


_shared: SyncTurns | None = None


def process_turns() -> SyncTurns:
    """The one count of this process, shared by REST and the web chat (``SYNC_TURNS_WAITING``
    and ``QUEUE_NOTICE_SECONDS`` read once)."""
    global _shared
    if _shared is None:
        notice_seconds = for_rasa(IntakeSettings.load).notice_seconds
        _shared = SyncTurns(for_rasa(sync_turns_waiting), notice_seconds)
    return _shared
