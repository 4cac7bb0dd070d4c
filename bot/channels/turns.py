"""One person's message through the assistant, and what the person gets when the assistant fails.

Rasa swallows a failing custom action: ``MessageProcessor._run_action`` logs the exception and
carries on as if the action had returned no events. A question that reaches a dead action server
is therefore answered with silence, and the webhook still says 200, so no provider retries it.
Every connector hands its message to ``take_turn`` instead of calling Rasa directly: a turn
that raised, or that sent the person nothing although nobody paused the conversation, ends with
a short apology in the conversation's language (``notices.try_again``), with the operator's
hotline when one is set.

What the provider is told (its retry semantics, docs/OPERATIONS.md "When a process dies"):
answered or apologised → 200, so a retry never reaches the person twice; only a failed turn
whose apology did not reach the provider's API either is ``UNANSWERED``, and the connector then
answers 503 and forgets the message id so that the provider's retry is answered when things are
back.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any, Final

from rasa.core.channels.channel import OutputChannel, UserMessage

from bot.channels.notices import try_again
from bot.channels.transport import capped_text
from bot.contract import LANGUAGE_HINT

logger = logging.getLogger(__name__)

OnNewMessage = Callable[[UserMessage], Awaitable[Any]]

#: The operator's number for people the assistant cannot help right now (also read by the
#: action server, actions/settings.py).
HOTLINE_ENV: Final = "EMERGENCY_HOTLINE"
#: Reading the conversation's language for an apology must not become a second hang.
_TRACKER_TIMEOUT_SECONDS: Final = 2.0
#: Intents only the notifier may trigger (through Rasa's HTTP API), never a person by typing
#: ``/EXTERNAL_alert{...}``: such a message is read as text instead.
_EXTERNAL_INTENT: Final = "/EXTERNAL_"
#: Parts of a Rasa reply that a person sees; a message of only a custom payload is not a reply.
_VISIBLE_PARTS: Final = ("text", "image", "buttons", "attachment", "elements", "quick_replies")


class Outcome(enum.Enum):
    """How a turn ended for the person who wrote."""

    ANSWERED = "answered"
    APOLOGISED = "apologised"
    #: Silent on purpose: the conversation is paused (a person, not the bot, answers it).
    PAUSED = "paused"
    #: Neither an answer nor the apology could be handed to the provider.
    UNANSWERED = "unanswered"


class CountedOutput(OutputChannel):
    """An output channel that knows whether this turn has shown the person anything: the
    replies Rasa gave it, and how many messages the provider took or refused."""

    replies_sent: int = 0
    delivered: int = 0
    undelivered: int = 0

    def record_delivery(self, accepted: bool) -> None:
        """Called by the connector for each message it handed (or failed to hand) over."""
        if accepted:
            self.delivered += 1
        else:
            self.undelivered += 1

    async def send_response(self, recipient_id: str, message: dict[str, Any]) -> None:
        visible = any(message.get(part) for part in _VISIBLE_PARTS)  # Rasa pops what it sends
        await super().send_response(recipient_id, message)
        if visible:
            self.replies_sent += 1


def user_message(
    text: str,
    output: CountedOutput,
    conversation: str,
    *,
    input_channel: str,
    message_id: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> UserMessage:
    """The message as Rasa gets it: text capped for every channel alike (``MAX_TEXT_CHARS``),
    and no typed external intent."""
    text = capped_text(text).strip()
    if text.startswith(_EXTERNAL_INTENT):
        text = text[1:]
    return UserMessage(
        text,
        output,
        conversation,
        input_channel=input_channel,
        message_id=message_id,
        metadata=metadata or {},
    )


def hotline() -> str | None:
    """``EMERGENCY_HOTLINE`` on one line, or None when the operator set none."""
    number = " ".join(os.environ.get(HOTLINE_ENV, "").split())
    return number or None


async def take_turn(message: UserMessage, on_new_message: OnNewMessage, agent: Any) -> Outcome:
    """Let the assistant answer ``message``; apologise when it fails or stays silent.

    ``agent`` is Rasa's (``request.app.ctx.agent``): its tracker store tells the conversation's
    language and whether it is paused, read only on the rare turn that went wrong.
    """
    output = message.output_channel
    assert isinstance(output, CountedOutput), "connectors pass a CountedOutput"
    try:
        await on_new_message(message)
        failed = False
    except Exception:
        # The traceback names no text or number; the conversation id is a keyed hash.
        logger.error(
            "%s: the assistant failed on a message of %s",
            message.input_channel,
            message.sender_id,
            exc_info=True,
        )
        failed = True
    if output.replies_sent and not failed:
        # Even if the provider refused the replies: running the turn again would not help a
        # person who blocked the bot, and would repeat the turn in the conversation.
        return Outcome.ANSWERED
    language, paused = await _conversation_state(agent, message.sender_id)
    if paused and not failed:
        return Outcome.PAUSED
    if not failed:
        logger.warning(
            "%s: the assistant sent nothing to %s (an action failed?); apologising",
            message.input_channel,
            message.sender_id,
        )
    hint = (message.metadata or {}).get(LANGUAGE_HINT)
    try:
        await output.send_text_message(message.sender_id, try_again(language or hint, hotline()))
    except Exception:
        logger.error("%s: the apology to %s failed", message.input_channel, message.sender_id)
        output.record_delivery(False)
    if output.undelivered and not output.delivered:
        logger.error("%s: nothing reached %s", message.input_channel, message.sender_id)
        return Outcome.UNANSWERED
    return Outcome.APOLOGISED


async def _conversation_state(agent: Any, conversation: str) -> tuple[str | None, bool]:
    """The conversation's ``language`` slot and whether it is paused; (None, False) when the
    tracker store cannot tell (it may be what failed)."""
    store = getattr(agent, "tracker_store", None)
    if store is None:
        return None, False
    try:
        tracker = await asyncio.wait_for(store.retrieve(conversation), _TRACKER_TIMEOUT_SECONDS)
    except Exception:
        logger.warning("could not read the conversation of %s for its language", conversation)
        return None, False
    if tracker is None:
        return None, False
    language = tracker.get_slot("language")
    return (language if isinstance(language, str) else None), tracker.is_paused()
