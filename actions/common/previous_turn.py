"""What the assistant did in the turn before the person's latest message.

Actions that depend on their last answer read it here: a follow-up after a gate answer
(actions/chat/flights.py), the confirmation a deletion waits for (actions/chat/privacy.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rasa_sdk import Tracker


def previous_turn(tracker: Tracker) -> Iterator[dict[str, Any]]:
    """The events between the person's last two messages, newest first."""
    seen_latest = False
    for event in reversed(tracker.events):
        if event.get("event") == "user":
            if seen_latest:
                return
            seen_latest = True
        elif seen_latest:
            yield event
