"""A conversation as Rasa hands it to the action server, for the benchmarks and tests that run
an action without Rasa: the person's latest message, the channel, the person tag."""

from __future__ import annotations

import uuid

from rasa_sdk import Tracker

from kernel.contract import PERSON


def said(
    text: str,
    language: str = "en",
    channel: str = "rest",
    intent: str = "nlu_fallback",
    entities: dict[str, str] | None = None,
    sender: str | None = None,
    person: str | None = None,
) -> Tracker:
    """A conversation whose latest message is ``text``, sent on ``channel`` and read by the
    NLU as ``intent``; ``person``: the person tag the channel put on it (``PERSON``)."""
    latest = {
        "text": text,
        "intent": {"name": intent, "confidence": 0.9},
        "entities": [{"entity": k, "value": v} for k, v in (entities or {}).items()],
        "metadata": {PERSON: person} if person else {},
    }
    return Tracker.from_dict(
        {
            "sender_id": sender or uuid.uuid4().hex,
            "slots": {"language": language},
            "latest_message": latest,
            "events": [
                {"event": "action", "name": "action_session_start"},
                {
                    "event": "user",
                    "text": text,
                    "parse_data": latest,
                    "input_channel": channel,
                    "metadata": latest["metadata"],
                },
            ],
            "paused": False,
            "followup_action": None,
            "active_loop": {},
            "latest_action_name": "action_listen",
        }
    )
