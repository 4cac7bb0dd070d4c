"""What a conversation remembers between turns: its topic and the details asked about.

Standard library only, so that it is tested without a model. A full question ("flights to Doha
tomorrow?") starts a new topic with exactly the details it names; a follow-up that only names a
detail ("and Friday?", "Doha?", "east gate?") changes that detail and keeps the rest; after
``ttl`` of silence a follow-up no longer inherits anything, so yesterday's destination does not
filter today's answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any, Final

from kernel.settings import DEFAULT_MEMORY

FOLLOW_UP: Final = "follow_up"
TOPIC: Final = "topic"

#: The topic each full question starts.
TOPIC_OF_INTENT: Final[Mapping[str, str]] = {
    "ask_flights": "flights",
    "ask_airport_status": "airport",
    "ask_announcements": "announcements",
    "ask_documents": "documents",
    "ask_help": "help",
}
#: The details a conversation remembers (slot and entity names alike) and the topic each
#: belongs to: a follow-up naming one answers that topic ("Doha?" after the airport: flights).
DETAIL_TOPIC: Final[Mapping[str, str]] = {
    "destination": "flights",
    "date": "flights",
    "flight_number": "flights",
    "airport": "airport",
    "gate": "airport",
}
DETAILS: Final = tuple(DETAIL_TOPIC)
#: The action that answers each topic: the topic of a conversation is what it answered last.
TOPIC_ACTION: Final[Mapping[str, str]] = {
    "flights": "action_answer_flights",
    "airport": "action_answer_airport_status",
    "announcements": "action_answer_announcements",
    "documents": "action_answer_documents",
    "help": "action_answer_help",
}
ACTION_TOPIC: Final[Mapping[str, str]] = {action: topic for topic, action in TOPIC_ACTION.items()}
#: A new value of the key makes these remembered details meaningless: a flight number names one
#: flight (its destination and day with it), and a gate belongs to one airport.
REPLACES: Final[Mapping[str, tuple[str, ...]]] = {
    "flight_number": ("destination", "date"),
    "destination": ("flight_number",),
    "date": ("flight_number",),
    "airport": ("gate",),
}


def gate_airport(gate: str) -> str | None:
    """A gate's key is ``IATA/slug`` in the content database: ``KBL/east-gate`` → ``KBL``."""
    iata, slash, _ = gate.partition("/")
    return iata.upper() if slash and iata else None


def remembered(
    intent: str | None,
    entities: Sequence[Mapping[str, Any]],
    slots: Mapping[str, Any],
    silence: timedelta | None,
    ttl: timedelta = DEFAULT_MEMORY,
) -> dict[str, Any]:
    """The topic and details after a message, as the slots that must change (name → value).

    ``entities`` are the message's canonical entities, ``slots`` the conversation's slots as
    they are now (new entities already filled by their mappings) and ``silence`` the time since
    the person's previous message (None for their first).
    """
    named: dict[str, Any] = {}
    for entity in entities:
        kind = entity.get("entity")
        if isinstance(kind, str) and kind in DETAIL_TOPIC and entity.get("value") not in (None, ""):
            named.setdefault(kind, entity["value"])
    if intent is not None and intent in TOPIC_OF_INTENT:
        wanted = {TOPIC: TOPIC_OF_INTENT[intent], **dict.fromkeys(DETAILS), **named}
    elif intent == FOLLOW_UP:
        wanted = _follow_up(named, slots, silence is not None and silence > ttl)
    else:
        return {}
    if "gate" in named and "airport" not in named:
        wanted["airport"] = gate_airport(str(named["gate"])) or wanted.get("airport")
    return {name: value for name, value in wanted.items() if slots.get(name) != value}


def _follow_up(named: Mapping[str, Any], slots: Mapping[str, Any], expired: bool) -> dict[str, Any]:
    topic = None if expired else slots.get(TOPIC)
    details = dict.fromkeys(DETAILS) if expired else {name: slots.get(name) for name in DETAILS}
    for name in named:
        details.update(dict.fromkeys(REPLACES.get(name, ())))
    details.update(named)
    topics = [DETAIL_TOPIC[name] for name in named]
    if topics and topic not in topics:
        topic = topics[0]
    return {TOPIC: topic, **details}
