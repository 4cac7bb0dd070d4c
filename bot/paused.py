"""While a caseworker holds a conversation, the assistant answers only what must always work.

A case pauses the conversation (``ConversationPaused``, sent by ``action_request_caseworker``),
and Rasa then predicts no action at all for it: its ``MessageProcessor._should_handle_message``
lets only ``/restart`` through. The person's safety must not depend on a caseworker, so this
subclass also lets through, without resuming the conversation:

* STOP and the other opt-out words (``unsubscribe_alerts``, bot/nlu/stop_keywords.py),
* "cancel" / «لغو» / «لغوه یې کړه», which withdraw the request (``withdraw_case``),
* "delete my data" (``delete_my_data``: deletes the cases too, actions/chat/privacy.py),
* "safety" (``ask_safety``: how to delete this chat from the phone),
* the caseworker closing the case, which arrives through Rasa's HTTP API (``trigger_intent``),
* a caseworker's reply (``EXTERNAL_case_reply``, triggered by the notifier's courier): its
  rule runs ``action_send_case_reply``, which sends it and leaves the conversation paused;
* a message that speaks of danger (``bot/policies/danger.py``): the lines that answer now, and
  the case marked urgent, by ``action_answer_danger``, which also records the message in it;
* a question about the flights or the airport and its gates (``ANSWERED_WHILE_HELD``):
  answered as while a case waits at night, then recorded in the case with its "received" too,
  so the caseworker sees it and the person knows it reached them.

Everything else the person writes is logged in the tracker and recorded in the case
(``bot/case_inbox.py``), and answered with one line, "received", for each message; lines sent
within ``RECEIPT_SECONDS`` of a receipt (a burst typed in one go) share it.

A pause is kept: a typed ``/restart`` (or any ``/intent``) is read as text while paused, and a
conversation whose tracker is missing (the embedded store lives in memory; a restart loses it)
is given back its open case from the case table before its message is handled — paused again
when a caseworker holds it, else waiting as outside the hours (docs/HANDOFF.md).
``bot/server.py`` installs it when Rasa starts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Final

import rasa.core.agent
from rasa.core.channels.channel import OutputChannel, UserMessage
from rasa.core.policies.policy import PolicyPrediction
from rasa.core.processor import MessageProcessor
from rasa.shared.core.constants import ACTION_LISTEN_NAME
from rasa.shared.core.events import ActionExecuted, BotUttered, ConversationPaused, SlotSet
from rasa.shared.core.trackers import DialogueStateTracker
from rasa.shared.nlu.constants import INTENT_NAME_KEY

from bot.case_inbox import ANSWERED_WHILE_HELD, RECEIVED, CaseInbox, message_for_the_case
from bot.policies.danger import speaks_of_danger
from bot.typed_choice import picked_payload
from kernel.contract import CASE_CLOSED_INTENT, CASE_REPLY_INTENT
from kernel.lang import texts
from kernel.lang.codes import DEFAULT_LANGUAGE, is_language

logger = logging.getLogger(__name__)

#: Intents the assistant answers in a paused conversation (the rules of data/rules/ apply).
ALWAYS_ANSWERED: Final = frozenset(
    {
        "unsubscribe_alerts",
        "withdraw_case",
        "delete_my_data",
        "ask_safety",
        # The end of the case (the console's "close", through Rasa's API).
        CASE_CLOSED_INTENT,
        # A caseworker's reply on its way to the person (the conversation stays paused).
        CASE_REPLY_INTENT,
    }
)
#: At most one "received" in this many seconds: five lines typed in one go get one, a message
#: written after a pause to think gets its own.
RECEIPT_SECONDS: Final = 10.0
#: The slot of a waiting case that does not pause the conversation (bot/domain/handoff.yml).
CASE_WAITING_SLOT: Final = "case_waiting"
_TYPED_INTENT: Final = "/"


def receipt_due(tracker: DialogueStateTracker, now: float | None = None) -> bool:
    """Whether the latest message gets a "received": none sent within ``RECEIPT_SECONDS``."""
    now = time.time() if now is None else now
    for event in reversed(tracker.events):
        if now - event.timestamp > RECEIPT_SECONDS:
            return True
        if isinstance(event, BotUttered) and (event.metadata or {}).get("utter_action") == (
            RECEIVED
        ):
            return False
    return True


def _answered_while_held(tracker: DialogueStateTracker) -> bool:
    """Whether the latest message is a question answered in a held conversation, which goes
    into the case too (not danger: its own answer says the case is urgent)."""
    latest = tracker.latest_message
    return (
        tracker.is_paused()
        and latest is not None
        and latest.intent.get(INTENT_NAME_KEY) in ANSWERED_WHILE_HELD
        and not speaks_of_danger(latest)
    )


def as_text(message: UserMessage) -> UserMessage:
    """The message with its leading ``/`` taken off, so that Rasa reads it as words, not as
    a typed intent (``/restart``)."""
    return with_text(
        message, message.text.lstrip().lstrip(_TYPED_INTENT) if message.text else message.text
    )


def with_text(message: UserMessage, text: str | None) -> UserMessage:
    """The same message with another text: a typed number as the button it picks."""
    return UserMessage(
        text,
        message.output_channel,
        message.sender_id,
        message.parse_data,
        message.input_channel,
        message.message_id,
        message.metadata,
    )


class PausedConversationProcessor(MessageProcessor):
    """Rasa's processor, which in a paused conversation also handles ``ALWAYS_ANSWERED``,
    says "received" to the rest and keeps the pause across ``/restart`` and restarts; in
    any other, a typed number picks the numbered button just offered (``typed_choice.py``)."""

    _inbox: CaseInbox | None = None

    @staticmethod
    def _should_handle_message(tracker: DialogueStateTracker) -> bool:
        if MessageProcessor._should_handle_message(tracker):
            return True
        latest = tracker.latest_message
        if latest is None:
            return False
        intent = latest.intent.get(INTENT_NAME_KEY)
        return (
            intent in ALWAYS_ANSWERED or intent in ANSWERED_WHILE_HELD or speaks_of_danger(latest)
        )

    async def parse_message(
        self,
        message: UserMessage,
        tracker: DialogueStateTracker | None = None,
        only_output_properties: bool = True,
    ) -> dict[str, Any]:
        typed = (message.text or "").lstrip().startswith(_TYPED_INTENT)
        if typed and tracker is not None and tracker.is_paused():
            message = as_text(message)
        elif tracker is not None and not tracker.is_paused():
            payload = picked_payload(tracker.events, message.text or "", time.time())
            if payload is not None:
                message = with_text(message, payload)
        return await super().parse_message(message, tracker, only_output_properties)

    async def _run_prediction_loop(
        self, output_channel: OutputChannel, tracker: DialogueStateTracker
    ) -> None:
        if self._should_handle_message(tracker) or message_for_the_case(tracker) is None:
            await super()._run_prediction_loop(output_channel, tracker)
            if not _answered_while_held(tracker):
                return
        if not receipt_due(tracker):
            return
        prediction = PolicyPrediction.for_action_name(self.domain, RECEIVED)
        received = self._get_action(RECEIVED)
        assert received is not None  # a response of the domain (bot/domain/handoff.yml)
        await self._run_action(received, tracker, output_channel, self.nlg, prediction)
        tracker.update(ActionExecuted(ACTION_LISTEN_NAME), self.domain)

    async def fetch_tracker_and_update_session(
        self,
        sender_id: str,
        output_channel: OutputChannel | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> DialogueStateTracker:
        tracker = await self.get_tracker(sender_id)
        missing = not tracker.events
        await self._update_tracker_session(tracker, output_channel, metadata)  # type: ignore[arg-type]
        if missing:
            await self._give_back_case(tracker)
        return tracker

    async def fetch_tracker_with_initial_session(
        self,
        sender_id: str,
        output_channel: OutputChannel | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> DialogueStateTracker:
        tracker = await self.get_tracker(sender_id)
        if not tracker.events:
            await self._update_tracker_session(tracker, output_channel, metadata)  # type: ignore[arg-type]
            await self._give_back_case(tracker)
        return tracker

    async def _give_back_case(self, tracker: DialogueStateTracker) -> None:
        """A new tracker for a conversation with an open case: the case's language, and its
        pause (or its waiting slot) again; the case gets a line saying so. Never fails the turn."""
        if PausedConversationProcessor._inbox is None:
            PausedConversationProcessor._inbox = CaseInbox.from_env()
        inbox = PausedConversationProcessor._inbox
        try:
            held = await asyncio.to_thread(inbox.open_case_of, tracker.sender_id)
            if held is None:
                return
            note = texts.render(
                "cases.line_restored_held" if held.held else "cases.line_restored_waiting",
                held.language if is_language(held.language) else DEFAULT_LANGUAGE,
            )
            await asyncio.to_thread(inbox.note, held.case_id, note)
        except Exception:
            logger.error("%s: could not look for an open case", tracker.sender_id, exc_info=True)
            return
        tracker.update(SlotSet("language", held.language), self.domain)
        if held.held:
            tracker.update(ConversationPaused(), self.domain)
            tracker.update(ActionExecuted(ACTION_LISTEN_NAME), self.domain)
        else:
            tracker.update(SlotSet(CASE_WAITING_SLOT, True), self.domain)
        logger.info(
            "%s: case %d given back after the conversation was lost",
            tracker.sender_id,
            held.case_id,
        )


def install() -> None:
    """Make every agent Rasa loads use this processor (``Agent.load_model`` builds it by the
    name ``rasa.core.agent.MessageProcessor``)."""
    rasa.core.agent.MessageProcessor = PausedConversationProcessor  # type: ignore[attr-defined]
