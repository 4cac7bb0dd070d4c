"""A number typed right after a reply with numbered buttons picks that button, on every channel.

"Which one did you hear? 1 … 2 …" invites a typed «۲». Telegram, WhatsApp (``typed_numbers.py``)
and SMS (``sms_render.py``) map it in the channel, before Rasa reads it; the web chat and the REST
channel hand Rasa the bare "2", which the NLU reads as item 2 of the menu: the airport status
instead of the second rumour. Here the processor reads the conversation's own record instead:
when the latest message is only a number and the assistant's replies since the person's previous
message carried buttons numbered so, the message is that button's payload. The same
``TYPED_NUMBER_SECONDS`` as the channels' bound it, and the replies of the last turn only, so a
"2" typed an hour later, or after another question, is the menu again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rasa.shared.core.events import BotUttered, Event, UserUttered

from bot.channels.typed_numbers import TYPED_NUMBER_SECONDS, numbered_payloads
from kernel.sms_render import bare_number


def picked_payload(events: Sequence[Event], text: str, now: float) -> str | None:
    """The payload of the button numbered as ``text`` among the last turn's replies, or None
    when ``text`` is not a bare number or no recent reply of that turn numbers its buttons."""
    number = bare_number(text)
    if number is None:
        return None
    for event in reversed(events):
        if isinstance(event, UserUttered) or now - event.timestamp > TYPED_NUMBER_SECONDS:
            return None
        if isinstance(event, BotUttered):
            buttons: list[dict[str, Any]] = (event.data or {}).get("buttons") or []
            payloads = numbered_payloads(buttons)
            if payloads:
                return payloads.get(number)
    return None
