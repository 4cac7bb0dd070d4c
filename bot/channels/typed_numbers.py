"""A number typed right after a reply with numbered buttons picks that button, for a while.

On Telegram and WhatsApp the buttons can be tapped, but many people type what a button says.
After "Reply 1 and we will tell you here when we know" with the button "1 Tell me when known",
or "Which one did you hear? 1 … 2 …", a typed "1" ("۱", "١") means that button, not item 1
of the menu. So when a reply's buttons carry their number in their title, the payload of each
number is kept in the channels' memory for ``TYPED_NUMBER_SECONDS``; the person's next message,
whatever it is, takes them (only the very next message is read in the offer's context), and a
bare number among them becomes its button's payload. Later, as the message after another one,
after a reply whose buttons have no numbers, or when the memory cannot be reached, "1" goes
to the bot as typed: the menu.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from kernel.memory import ChannelMemory, MemoryUnavailable
from kernel.sms_render import bare_number, button_number

#: How long a typed number still answers the numbered buttons of the reply before it.
TYPED_NUMBER_SECONDS: Final = 15 * 60.0


def numbered_payloads(buttons: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """Each button whose title starts with a number: number → payload."""
    found: dict[int, str] = {}
    for button in buttons:
        number = button_number(str(button.get("title") or ""))
        if number is not None:
            found.setdefault(number, str(button.get("payload") or button.get("title")))
    return found


class TypedNumbers:
    """The numbered buttons of each conversation's last reply, for its next message."""

    def __init__(self, memory: ChannelMemory, ttl_seconds: float = TYPED_NUMBER_SECONDS) -> None:
        self._memory = memory
        self._ttl = ttl_seconds

    @staticmethod
    def _key(conversation: str) -> str:
        return f"numbers:{conversation}"

    async def offered(self, conversation: str, buttons: Sequence[Mapping[str, Any]]) -> None:
        """A reply with buttons went out: its numbered ones now answer a typed number."""
        payloads = numbered_payloads(buttons)
        try:
            if payloads:
                value = json.dumps({str(n): p for n, p in payloads.items()})
                await self._memory.put({self._key(conversation): value}, self._ttl)
            else:
                await self._memory.delete(self._key(conversation))
        except MemoryUnavailable:
            return

    async def forget(self, conversation: str) -> None:
        """The person asked to be forgotten: the buttons of their last reply go now."""
        try:
            await self._memory.delete(self._key(conversation))
        except MemoryUnavailable:
            return

    async def payload_for(self, conversation: str, text: str) -> str | None:
        """The payload ``text`` picks when it is a bare number of the last reply's buttons;
        None otherwise. Every message calls it: the buttons are forgotten once it has."""
        try:
            stored = await self._memory.take(self._key(conversation))
        except MemoryUnavailable:
            return None
        number = bare_number(text)
        if stored is None or number is None:
            return None
        try:
            payload = json.loads(stored).get(str(number))
        except (ValueError, AttributeError):
            return None
        return payload if isinstance(payload, str) else None
