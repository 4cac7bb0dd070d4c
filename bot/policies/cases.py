"""Where a message goes while a person's request for a caseworker waits without a pause.

Outside caseworker hours a case waits and the conversation is not paused
(``action_request_caseworker``; docs/HANDOFF.md): the assistant keeps answering questions. What
is not a question for it goes to the case instead of to the "I did not understand" answer:

* the first message after the request (the "one short message" the person was asked for,
  whatever it looks like: «پسر ۸ ساله‌ام پیش دروازه ابی گم شد» is not a gate question),
* any message with an urgent word (``kernel/case_urgency.py``),
* what the assistant would not answer from its content (not understood, out of scope) and a
  plea for help.

Commands keep working as everywhere (STOP, "delete my data", "safety", the menu, a language).
"cancel" / «لغو» withdraws the request while a case is open, paused or waiting.
"""

from __future__ import annotations

from typing import Final

from rasa.shared.core.constants import ACTION_LISTEN_NAME
from rasa.shared.core.events import ActionExecuted, UserUttered
from rasa.shared.core.trackers import DialogueStateTracker

from bot.nlu.stop_keywords import is_withdrawal
from kernel.case_urgency import is_urgent
from kernel.contract import is_external

CASE_WAITING_SLOT: Final = "case_waiting"
REQUEST: Final = "action_request_caseworker"
ADD_TO_CASE: Final = "action_add_to_case"
WITHDRAW: Final = "action_withdraw_case"
#: Intents that are commands, answered as always even while a case waits.
COMMANDS: Final = frozenset(
    {
        "unsubscribe_alerts",
        "withdraw_case",
        "delete_my_data",
        "ask_safety",
        "ask_human",
        "set_language",
        "show_menu",
        "subscribe_alerts",
        "list_subscriptions",
    }
)
#: Intents the assistant has no content answer for: while a case waits, they go to the case.
FOR_THE_CASE: Final = frozenset({"nlu_fallback", "out_of_scope", "ask_help"})


def _previous_turn_actions(tracker: DialogueStateTracker) -> list[str]:
    """The actions of the turn before the latest message."""
    names: list[str] = []
    seen_latest = False
    for event in reversed(tracker.events):
        if isinstance(event, UserUttered):
            if seen_latest:
                break
            seen_latest = True
        elif seen_latest and isinstance(event, ActionExecuted) and event.action_name:
            names.append(event.action_name)
    return names


def case_action(tracker: DialogueStateTracker) -> str | None:
    """The action a case decides for this point of the turn; None to let the rules decide."""
    latest_action = tracker.latest_action_name
    if latest_action in (ADD_TO_CASE, WITHDRAW):
        return ACTION_LISTEN_NAME
    if latest_action != ACTION_LISTEN_NAME or tracker.latest_message is None:
        return None
    message = tracker.latest_message
    intent = message.intent.get("name")
    if is_external(intent):
        return None
    text = message.text or ""
    waiting = bool(tracker.get_slot(CASE_WAITING_SLOT)) and not tracker.is_paused()
    if (waiting or tracker.is_paused()) and is_withdrawal(text):
        return WITHDRAW
    if not waiting or intent in COMMANDS:
        return None
    first = REQUEST in _previous_turn_actions(tracker)
    if first or intent in FOR_THE_CASE or is_urgent(text):
        return ADD_TO_CASE
    return None
