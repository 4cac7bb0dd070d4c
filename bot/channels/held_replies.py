"""Replies the provider could not take for a while, kept with their message and handed over
when it is back.

When Telegram, Meta or an SMS gateway is down or overloaded (no answer, 5xx, 429), a turn's
replies fail although the turn itself went well. Running the turn again would add the message
to the conversation twice; acknowledging it would lose the answer. So the intake keeps the
replies that did not go out (``TurnReplies.held``: the first that failed and every one after
it, in order) in the channel memory under the message's key, with the turn's record, and its
worker hands them over after the provider's ``retry_after`` when it names one, else with
growing pauses (``IntakeSettings.reply_retry_seconds``), for up to ``reply_hold_seconds``.
Only then does the message leave its line. A worker that stops meanwhile leaves the message
in line; the next one finds the kept replies and hands over what is left instead of running
the turn.

Meanwhile the people behind it in its line wait: their replies would meet the same provider.
A refusal that stays one (a blocked bot, a wrong address: ``ProviderFailure.passing``) is not
held, so one person cannot hold a line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.channels.counts import HELD_REPLIES
from bot.channels.transport import ProviderFailure
from kernel.memory import ChannelMemory, MemoryUnavailable

logger = logging.getLogger(__name__)

#: How long kept replies stay in the channel memory: longer than they are ever held.
KEPT_SECONDS: Final = 24 * 3600.0

Send = Callable[[dict[str, Any]], Awaitable[None]]


def held_key(job_key: str) -> str:
    """The channel memory's key of the replies held for the message ``job_key``."""
    return f"intake:held:{job_key}"


@dataclass
class HeldReplies:
    """The replies of one connector's messages that wait for their provider."""

    memory: ChannelMemory
    channel: str
    pauses: Sequence[float]
    hold_seconds: float

    async def keep(
        self, job_key: str, replies: Sequence[dict[str, Any]], also: dict[str, str]
    ) -> None:
        """Keeps ``replies`` for the message ``job_key``, with ``also`` (the turn's record)."""
        HELD_REPLIES.labels(self.channel, "held").inc(len(replies))
        await self._put(job_key, replies, also)

    async def kept(self, job_key: str) -> list[dict[str, Any]] | None:
        """The replies still held for the message ``job_key`` (a worker stopped while it
        handed them over); None when there are none or the memory cannot be read."""
        try:
            found = await self.memory.get(held_key(job_key))
        except MemoryUnavailable:
            return None
        if found is None:
            return None
        try:
            replies = json.loads(found)
        except ValueError:
            logger.error("%s: held replies could not be read; they are left out", self.channel)
            return None
        return [reply for reply in replies if isinstance(reply, dict)]

    async def hand_over(self, job_key: str, replies: Sequence[dict[str, Any]], send: Send) -> bool:
        """Hands ``replies`` to the provider one after the other with ``send``, waiting
        while it cannot take them; True when every one went out. What is left is kept after
        each one that went, so that a worker stopped in between repeats none."""
        left = [dict(reply) for reply in replies]
        pauses = iter(self.pauses)
        pause = 0.0
        give_up_at = time.monotonic() + self.hold_seconds
        while left:
            try:
                await send(dict(left[0]))  # the output pops what it sends
            except ProviderFailure as failure:
                if not failure.passing:
                    logger.warning("%s: a held reply was refused: %s", self.channel, failure)
                    break
                if time.monotonic() >= give_up_at:
                    logger.error(
                        "%s: %d held replies given up after %.0f s: the provider did not take them",
                        self.channel,
                        len(left),
                        self.hold_seconds,
                    )
                    break
                if failure.retry_after is not None:
                    await asyncio.sleep(max(0.1, failure.retry_after))  # when it said to
                else:
                    pause = next(pauses, pause)
                    await asyncio.sleep(pause)
                continue
            left.pop(0)
            HELD_REPLIES.labels(self.channel, "handed_over").inc()
            if left:
                await self._put(job_key, left, {})
        if left:
            HELD_REPLIES.labels(self.channel, "given_up").inc(len(left))
        try:
            await self.memory.delete(held_key(job_key))
        except MemoryUnavailable:
            logger.debug("channel memory unavailable: the held replies' key expires by itself")
        return not left

    async def _put(
        self, job_key: str, replies: Sequence[dict[str, Any]], also: dict[str, str]
    ) -> None:
        kept = {held_key(job_key): json.dumps(list(replies), ensure_ascii=False), **also}
        try:
            await self.memory.put(kept, KEPT_SECONDS)
        except MemoryUnavailable:
            logger.warning(
                "%s: channel memory unavailable: held replies kept here only", self.channel
            )
