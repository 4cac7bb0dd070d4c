"""Danger first: where a turn goes when the person's message speaks of danger (kernel/danger.py).

Before the rules, a case waiting or the safety offer, in any state of the conversation (a
paused one too: ``bot/paused.py`` lets such a message through): the message is answered by
``action_answer_danger``, which gives the lines that answer now and opens an urgent case. Then:

* a command in the same message still works (STOP, "delete my data", "safety"…);
* a question it also asks in a clause without danger ("lost my son at the gate, is the gate
  open?", :func:`kernel.danger.asks_more`) is answered as the rules answer it;
* anything else ends the turn: "lost my son near abbey gate" is not a question about the gate,
  and "Who can help" or "I did not understand" would only bury the number.

The rules then see the turn as if the help had not been given (:func:`without_help`), so that
every rule keeps matching as written.
"""

from __future__ import annotations

from typing import Final

from rasa.shared.core.constants import ACTION_LISTEN_NAME
from rasa.shared.core.domain import Domain
from rasa.shared.core.events import ActionExecuted, Event, UserUttered
from rasa.shared.core.trackers import DialogueStateTracker

from kernel.contract import is_external
from kernel.danger import asks_more, dangers

DANGER_ACTION: Final = "action_answer_danger"
#: Commands that still run after the help: they change what the assistant keeps or sends.
COMMANDS: Final = frozenset(
    {"unsubscribe_alerts", "delete_my_data", "ask_safety", "set_language", "list_subscriptions"}
)
#: Questions answered after the help when the message also asks one.
QUESTIONS: Final = frozenset(
    {
        "ask_flights",
        "ask_airport_status",
        "ask_announcements",
        "ask_documents",
        "check_claim",
        "follow_up",
    }
)
_TYPED: Final = "/"


def speaks_of_danger(message: UserUttered | None) -> bool:
    """Whether the person wrote this message, and it speaks of danger."""
    if message is None or is_external(message.intent_name):
        return False
    text = message.text or ""
    return not text.lstrip().startswith(_TYPED) and bool(dangers(text))


def _this_turn(tracker: DialogueStateTracker) -> list[Event]:
    """The events after the latest message."""
    after: list[Event] = []
    for event in reversed(tracker.events):
        if isinstance(event, UserUttered):
            break
        after.append(event)
    return after[::-1]


def helped(tracker: DialogueStateTracker) -> bool:
    """Whether this turn already gave the help."""
    return any(
        isinstance(event, ActionExecuted) and event.action_name == DANGER_ACTION
        for event in _this_turn(tracker)
    )


def danger_action(tracker: DialogueStateTracker) -> str | None:
    """The action danger decides at this point of the turn; None to let the rules decide (on
    :func:`without_help`'s tracker when the help was given)."""
    message = tracker.latest_message
    if message is None or not speaks_of_danger(message):
        return None
    if not helped(tracker):
        return DANGER_ACTION if tracker.latest_action_name == ACTION_LISTEN_NAME else None
    if tracker.latest_action_name != DANGER_ACTION:
        return None  # the command or the question after the help: the rules go on
    intent = message.intent.get("name")
    if intent in COMMANDS or (intent in QUESTIONS and asks_more(message.text or "")):
        return None
    return ACTION_LISTEN_NAME


def without_help(tracker: DialogueStateTracker, domain: Domain) -> DialogueStateTracker:
    """A copy of ``tracker`` without this turn's help (the action and what it said and set),
    as the rules expect the turn to look."""
    events = list(tracker.events)
    latest = max(i for i, e in enumerate(events) if isinstance(e, UserUttered))
    kept: list[Event] = events[: latest + 1]
    skipping = False
    for event in events[latest + 1 :]:
        if isinstance(event, ActionExecuted):
            skipping = event.action_name == DANGER_ACTION
        if not skipping:
            kept.append(event)
    return DialogueStateTracker.from_events(
        tracker.sender_id, kept, domain.slots, sender_source=tracker.sender_source
    )
