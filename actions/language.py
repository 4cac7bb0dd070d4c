"""Keeps the conversation's language: explicit choice > confident detection > channel hint.

Runs as the custom slot mapping of the ``language`` slots inside Rasa's ``action_extract_slots``,
so the very response that answers a message is already in that message's language.
"""

import logging
from dataclasses import dataclass
from typing import Any

from rasa_sdk import Action, Tracker
from rasa_sdk.events import EventType, SlotSet
from rasa_sdk.executor import CollectingDispatcher
from rasa_sdk.types import DomainDict

from actions import settings
from actions.alerts.wording import wording
from actions.content.answering import own_messages
from bot.lang.codes import DEFAULT_LANGUAGE, is_language

logger = logging.getLogger(__name__)

LANGUAGE_SLOT = "language"
CHOSEN_SLOT = "language_chosen"
#: Below this identifier confidence a message does not switch the conversation's language.
FOLLOW_CONFIDENCE = settings.language_follow_confidence()
#: Offered once, on a new user's first message: how to delete this chat from the phone.
SAFETY_OFFER = "utter_safety_offer"


@dataclass(frozen=True)
class LanguageState:
    language: str
    chosen: bool


def choose_language(
    current: LanguageState | None,
    message: dict[str, Any],
    hint: str | None = None,
    follow_confidence: float = FOLLOW_CONFIDENCE,
) -> LanguageState:
    """The conversation's language after ``message`` (a parse result with ``language``)."""
    if (message.get("intent") or {}).get("name") == "set_language":
        named = [
            e.get("value") for e in message.get("entities") or [] if e.get("entity") == "language"
        ]
        if named and is_language(named[-1]):
            return LanguageState(named[-1], chosen=True)
    if current and current.chosen:
        return current
    detected = message.get("language") or {}
    if is_language(detected.get("code")) and detected.get("confidence", 0.0) >= follow_confidence:
        return LanguageState(detected["code"], chosen=False)
    if current:
        return current
    return LanguageState(hint if is_language(hint) else DEFAULT_LANGUAGE, chosen=False)


def _channel_hint(tracker: Tracker) -> str | None:
    """A language hint the input channel put in the message metadata (e.g. Telegram's)."""
    for event in reversed(tracker.events):
        if event.get("event") == "user":
            return (event.get("metadata") or {}).get("language_hint")
    return None


def is_first_message(tracker: Tracker) -> bool:
    """Whether the latest message is the first this conversation (as far as it is kept) has
    from its user; alert triggers (``EXTERNAL_...`` intents) are not messages from the user."""
    own = own_messages(tracker)
    return len(own) == 1 and own[0] is _latest_user_event(tracker)


def _latest_user_event(tracker: Tracker) -> dict[str, Any] | None:
    return next((e for e in reversed(tracker.events) if e.get("event") == "user"), None)


class ActionTrackLanguage(Action):  # type: ignore[misc]  # rasa_sdk ships no type hints
    def name(self) -> str:
        return "action_track_language"

    async def run(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: DomainDict
    ) -> list[EventType]:
        language = tracker.get_slot(LANGUAGE_SLOT)
        current = (
            LanguageState(language, bool(tracker.get_slot(CHOSEN_SLOT)))
            if is_language(language)
            else None
        )
        new = choose_language(current, tracker.latest_message or {}, _channel_hint(tracker))
        if is_first_message(tracker):
            # Here, not in the greeting: whatever a new user writes first, the offer comes in
            # the language of that message (the slot itself changes only after this step).
            dispatcher.utter_message(text=wording().text(SAFETY_OFFER, new.language))
        if new == current:
            return []
        logger.debug("conversation language %s -> %s", current, new)
        return [SlotSet(LANGUAGE_SLOT, new.language), SlotSet(CHOSEN_SLOT, new.chosen)]
