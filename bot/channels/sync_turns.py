"""REST and the web chat answer in their HTTP response, but never after an unbounded wait.

Their replies have no provider's API to go out by later, so these two channels take the turn
before they answer, unlike the queued connectors (``intake.py``). Under a surge that wait grows
with every person writing, and a page or a client that waits in silence gives up or writes
again. Past ``SYNC_TURNS_WAITING`` turns in progress or waiting in this Rasa process, a
message is therefore answered at once with the notice that it is in line ("Many people are
writing now…", in the person's language) and its turn goes on in the background; its replies
go to the conversation's mailbox, from where the web chat's page (and a REST client that asks
``/webhooks/rest/mailbox``) brings them.

What jumps the intake's line (STOP, "delete my data", "safety", urgent words:
``intake.jumps_the_line``) is always answered in the response: it must not wait behind the
others, and a deletion's confirmation must reach the person it deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from typing import Any

from bot.channels.intake import DrainRate, jumps_the_line, language_for
from bot.channels.notices import in_line
from bot.channels.settings import for_rasa, sync_turns_waiting
from bot.contract import language_metadata
from bot.lang.codes import is_language

logger = logging.getLogger(__name__)


class SyncTurns:
    """The turns REST and the web chat have in progress or waiting in this process, with
    the ones that went on after their HTTP answer."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.rate = DrainRate()
        self._taking = 0
        #: Turns that go on after their notice; kept so that they are not collected.
        self._later: set[asyncio.Task[Any]] = set()

    @property
    def taking(self) -> int:
        """Turns in progress or waiting, those that went on after their notice included."""
        return self._taking

    def answers_later(self, text: str | None) -> bool:
        """Whether a message with ``text`` gets the notice now and its replies later."""
        return self._taking >= self.limit and not jumps_the_line(text)

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Counts one turn while it is taken."""
        self._taking += 1
        try:
            yield
        finally:
            self._taking -= 1
            self.rate.answered()

    def go_on(self, turn: Coroutine[Any, Any, Any], conversation: str) -> None:
        """Takes ``turn`` after the HTTP answer; it counts until it is over."""

        async def counted() -> None:
            async with self.turn():
                try:
                    await turn
                except Exception:
                    logger.exception("a turn taken after its notice failed (%s)", conversation)

        task = asyncio.create_task(counted(), name="sync-turn-later")
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def notice(
        self, agent: Any, conversation: str, text: str | None, hint: str | None
    ) -> dict[str, Any]:
        """The notice of the wait as a reply (``waiting``: the answer comes later), in the
        conversation's language, with about how many minutes remain."""
        language = await language_for(agent, conversation, text, hint)
        minutes = self.rate.minutes_for(self._taking, self.limit)
        reply: dict[str, Any] = {"text": in_line(language, minutes), "waiting": True}
        if is_language(language):
            reply["metadata"] = language_metadata(language)
        return reply

    async def drained(self, timeout: float = 30.0) -> None:
        """Waits until the turns that went on after their notice are over (a graceful stop)."""
        if self._later:
            await asyncio.wait_for(asyncio.gather(*self._later, return_exceptions=True), timeout)


_shared: SyncTurns | None = None


def process_turns() -> SyncTurns:
    """The one count of this process, shared by REST and the web chat (``SYNC_TURNS_WAITING``
    read once)."""
    global _shared
    if _shared is None:
        _shared = SyncTurns(for_rasa(sync_turns_waiting))
    return _shared
