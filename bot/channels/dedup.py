"""Providers retry webhooks they think failed, and a captured request can be sent again: each
message is answered once, and one sent too long ago is not answered at all.

The ids of answered messages are kept in the channels' memory (``bot/channels/memory.py``):
in production in Redis, so a retry that reaches another Rasa process, or arrives after a
restart, is still recognised. Which provider gets which defence, and why: docs/OPERATIONS.md,
"Retries and replays".
"""

from __future__ import annotations

import logging
import math
import time
from datetime import timedelta
from typing import Final

from kernel.memory import ChannelMemory, MemoryUnavailable, ProcessMemory

logger = logging.getLogger(__name__)

#: A WhatsApp or Telegram message sent longer ago than this is acknowledged, not answered
#: (``MESSAGE_MAX_AGE``, read by ``bot/channels/settings.py``).
MAX_AGE_ENV: Final = "MESSAGE_MAX_AGE"
DEFAULT_MAX_AGE: Final = timedelta(hours=6)
#: How long an answered message id is remembered: longer than any provider retries (Twilio
#: minutes, Telegram a day) and than ``MESSAGE_MAX_AGE``, so a replay is caught by one or the
#: other.
REMEMBER_IDS_SECONDS: Final = 7 * 24 * 3600.0


def sent_too_long_ago(sent_at: object, max_age: timedelta, now: float | None = None) -> bool:
    """Whether a provider's send time (Unix seconds, as a number or digits) is older than
    ``max_age``. A time that is missing or unreadable counts as now: when in doubt, answer."""
    if isinstance(sent_at, bool) or not isinstance(sent_at, int | float | str):
        return False
    try:
        seconds = float(sent_at)
    except (ValueError, OverflowError):
        return False
    if not math.isfinite(seconds):
        return False
    return (time.time() if now is None else now) - seconds > max_age.total_seconds()


class SeenMessages:
    """Provider message ids already taken on, remembered for ``ttl_seconds``.

    ``first_time`` is one atomic step (Redis ``SET NX EX``): of two processes offered the same
    id at the same moment, exactly one is told to answer. When the memory cannot be reached it
    says "first time" (fail open): a person may get an answer twice, never none.
    """

    def __init__(
        self,
        memory: ChannelMemory | None = None,
        ttl_seconds: float = REMEMBER_IDS_SECONDS,
    ) -> None:
        self._memory = memory if memory is not None else ProcessMemory()
        self._ttl = ttl_seconds

    async def first_time(self, message_id: str, ttl_seconds: float | None = None) -> bool:
        """True the first time ``message_id`` is offered, False for every repeat."""
        try:
            return await self._memory.add(
                "seen:" + message_id, self._ttl if ttl_seconds is None else ttl_seconds
            )
        except MemoryUnavailable:
            return True

    async def forget(self, message_id: str) -> None:
        """Take ``message_id`` as never seen: its turn could not be answered at all (503), so
        the provider's retry must be handled anew."""
        try:
            await self._memory.delete("seen:" + message_id)
        except MemoryUnavailable:
            logger.debug("channel memory unavailable: a retry will be answered anyway")
