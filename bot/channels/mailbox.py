"""The web chat's mailbox: what reaches a person outside their own turn.

A web page cannot be called: whatever Rasa sends through ``trigger_intent?output_channel=
webchat`` (a caseworker's reply, the "I am back" when a case is closed) waits here, per
conversation, until the widget fetches it (docs/HANDOFF.md, "The web chat"). It lives in the
channels' memory (``memory.py``): this process with ``make run``, Redis when the production
profile's several Rasa processes must all see it.

Bounded: at most ``MAILBOX_MESSAGES`` waiting messages per conversation (a full mailbox refuses
the next one, so that its sender learns it was not delivered instead of an old one vanishing),
none older than ``MAILBOX_HOURS``, and a conversation's mailbox is forgotten that long after its
last message. Once only: a fetch returns every waiting message with its id and removes only
those the widget acknowledged, by id, in a later fetch — a fetch whose answer was lost, or a
second tab, gets them again, and the widget shows each id once.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any, Final

from kernel.memory import ChannelMemory

logger = logging.getLogger(__name__)

#: Waiting messages per conversation: a case's replies and the hand-back fit many times over.
MAILBOX_MESSAGES: Final = 30
#: A message nobody fetched for two days answers a situation that has changed.
MAILBOX_HOURS: Final = 48
#: Ids are 16 hex digits: unguessable enough not to collide, short to acknowledge.
MESSAGE_ID: Final = re.compile(r"[0-9a-f]{16}")
_KEY: Final = "mailbox:"


class MailboxFull(Exception):
    """The person has not fetched ``MAILBOX_MESSAGES`` messages: the next one is refused."""


class Mailbox:
    """Messages waiting for their web chat, per conversation id, in the channels' memory.

    ``MemoryUnavailable`` (Redis down) passes through: storing must fail loudly so that the
    sender retries, fetching is answered with "try again later".
    """

    def __init__(
        self,
        memory: ChannelMemory,
        limit: int = MAILBOX_MESSAGES,
        keep_seconds: float = MAILBOX_HOURS * 3600.0,
        clock: Callable[[], float] = time.time,  # wall time: several processes compare it
    ) -> None:
        self._memory = memory
        self._limit = limit
        self._keep = keep_seconds
        self._clock = clock

    async def store(self, conversation: str, message: Mapping[str, Any]) -> str:
        """Puts ``message`` (the widget's fields: text, buttons, image) in the mailbox; its id."""
        message_id = secrets.token_hex(8)
        entry = {"id": message_id, "at": round(self._clock(), 3), "message": dict(message)}
        raw = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        if not await self._memory.push(_KEY + conversation, raw, self._limit, self._keep):
            raise MailboxFull(f"{self._limit} messages are waiting")
        return message_id

    async def collect(
        self, conversation: str, acknowledged: Collection[str] = ()
    ) -> list[dict[str, Any]]:
        """The waiting messages, oldest first, each with its ``id``; forgets the acknowledged
        ones and those too old to show, in the same call."""
        key = _KEY + conversation
        waiting, forgotten = [], []
        oldest = self._clock() - self._keep
        for raw in await self._memory.items(key):
            entry = _entry(raw)
            if entry is None or entry["id"] in acknowledged or entry["at"] < oldest:
                forgotten.append(raw)
            else:
                waiting.append({"id": entry["id"], **entry["message"]})
        if forgotten:
            await self._memory.remove(key, forgotten)
        return waiting

    async def forget(self, conversation: str) -> None:
        """Empties the mailbox: the person asked for their data to be deleted."""
        await self._memory.delete(_KEY + conversation)


def _entry(raw: str) -> dict[str, Any] | None:
    """A stored message, or None for one this code cannot read (never shown, then forgotten)."""
    try:
        entry = json.loads(raw)
    except ValueError:
        entry = None
    if (
        not isinstance(entry, dict)
        or not isinstance(entry.get("id"), str)
        or not isinstance(entry.get("at"), int | float)
        or not isinstance(entry.get("message"), dict)
    ):
        logger.warning("web chat mailbox: an unreadable message was dropped")
        return None
    return entry
