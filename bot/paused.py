"""While a caseworker holds a conversation, the assistant answers only what must always work.

A case pauses the conversation (``ConversationPaused``, sent by ``action_request_caseworker``),
and Rasa then predicts no action at all for it: its ``MessageProcessor._should_handle_message``
lets only ``/restart`` through. The person's safety must not depend on a caseworker, so this
subclass also lets through, without resuming the conversation:

* STOP and the other opt-out words (``unsubscribe_alerts``, bot/nlu/stop_keywords.py),
* "delete my data" (``delete_my_data``: deletes the cases too, actions/privacy.py),
* "safety" (``ask_safety``: how to delete this chat from the phone),
* the caseworker closing the case, which arrives through Rasa's HTTP API (``trigger_intent``),
* a caseworker's reply (``EXTERNAL_case_reply``, triggered by the notifier's courier): its
  rule runs ``action_send_case_reply``, which sends it and leaves the conversation paused.

Everything else the person writes is logged in the tracker and recorded in the case
(``bot/case_inbox.py``), and the assistant stays silent. ``bot/server.py`` installs it when
Rasa starts.
"""

from __future__ import annotations

from typing import Final

import rasa.core.agent
from rasa.core.processor import MessageProcessor
from rasa.shared.core.trackers import DialogueStateTracker
from rasa.shared.nlu.constants import INTENT_NAME_KEY

from bot.contract import CASE_CLOSED_INTENT, CASE_REPLY_INTENT

#: Intents the assistant answers in a paused conversation (the rules of data/rules/ apply).
ALWAYS_ANSWERED: Final = frozenset(
    {
        "unsubscribe_alerts",
        "delete_my_data",
        "ask_safety",
        # The end of the case (the console's "close", through Rasa's API).
        CASE_CLOSED_INTENT,
        # A caseworker's reply on its way to the person (the conversation stays paused).
        CASE_REPLY_INTENT,
    }
)


class PausedConversationProcessor(MessageProcessor):
    """Rasa's processor, which in a paused conversation also handles ``ALWAYS_ANSWERED``."""

    @staticmethod
    def _should_handle_message(tracker: DialogueStateTracker) -> bool:
        if MessageProcessor._should_handle_message(tracker):
            return True
        latest = tracker.latest_message
        return latest is not None and latest.intent.get(INTENT_NAME_KEY) in ALWAYS_ANSWERED


def install() -> None:
    """Make every agent Rasa loads use this processor (``Agent.load_model`` builds it by the
    name ``rasa.core.agent.MessageProcessor``)."""
    rasa.core.agent.MessageProcessor = PausedConversationProcessor  # type: ignore[attr-defined]
