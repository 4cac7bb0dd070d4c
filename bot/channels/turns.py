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

On SMS, where every message costs, the replies of one turn that fit in one SMS together go as
one (``FoldsReplies``: a greeting and the menu, a first answer and the safety notice):
``TurnReplies`` holds the last text reply until the next one comes or the turn ends.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol, runtime_checkable

from rasa.core.channels.channel import OutputChannel, UserMessage

from bot.channels.counts import APOLOGIES, NO_LANGUAGE, TURN_SECONDS, TURNS, count_refusal
from bot.channels.identity import person_tag
from bot.channels.transport import ProviderFailure, capped_text
from kernel.contract import (
    DELETED_CONFIRMATION,
    LANGUAGE_HINT,
    PERSON,
    SHOWN_PARTS,
    language_metadata,
    named_language,
    reply_language,
)
from kernel.lang.codes import is_language
from kernel.notices import try_again

if TYPE_CHECKING:
    from rasa.core.agent import Agent
    from rasa.core.tracker_store import TrackerStore
    from rasa.shared.core.domain import Domain

logger = logging.getLogger(__name__)

OnNewMessage = Callable[[UserMessage], Awaitable[Any]]


class Assistant(Protocol):
    """What the connectors and the intake use of Rasa's ``Agent`` (``request.app.ctx.agent``):
    its tracker store (a conversation's language and pause), its NLU (the language of a
    notice) and its domain (the web chat's welcome). A protocol rather than ``Agent`` itself,
    so that a test's stand-in may give only what its connector reads."""

    @property
    def tracker_store(self) -> TrackerStore: ...

    @property
    def domain(self) -> Domain | None: ...

    async def parse_message(self, message_data: str) -> dict[str, Any]: ...


if TYPE_CHECKING:
    #: Rasa's agent is an ``Assistant``: mypy says so, or says what it lacks after an upgrade.
    _RASAS_AGENT: type[Assistant] = Agent

#: Reading the conversation's language for an apology must not become a second hang.
_TRACKER_TIMEOUT_SECONDS: Final = 2.0
#: Intents only the notifier may trigger (through Rasa's HTTP API), never a person by typing
#: ``/EXTERNAL_alert{...}``: such a message is read as text instead.
_EXTERNAL_INTENT: Final = "/EXTERNAL_"


@runtime_checkable
class FoldsReplies(Protocol):
    """An output whose replies cost per message (SMS): it may send two replies of one turn
    as one message, such as a greeting and the menu, or an answer and the safety notice."""

    def fold(self, first: dict[str, Any], then: dict[str, Any]) -> dict[str, Any] | None:
        """Both replies as one message, when they fit in one; else None."""


class Outcome(enum.Enum):
    """How a turn ended for the person who wrote."""

    ANSWERED = "answered"
    APOLOGISED = "apologised"
    #: Silent on purpose: the conversation is paused (a person, not the bot, answers it).
    PAUSED = "paused"
    #: Neither an answer nor the apology could be handed to the provider.
    UNANSWERED = "unanswered"


@dataclass(frozen=True)
class ReplyHooks:
    """What the intake asks of a queued turn's replies; nothing when a webhook takes the turn.

    ``on_first_delivery`` is called once, when the provider took the turn's first visible reply
    (from then on a worker that dies must not let the turn be run again); with ``hold``, a
    visible reply the provider could not take for now (``ProviderFailure.passing``) is kept in
    ``TurnReplies.held``, and so is every reply after it, in order, for the intake to hand over
    later (``held_replies``)."""

    on_first_delivery: Callable[[], Awaitable[None]] | None = None
    hold: bool = False


#: A turn taken in its webhook: no hooks.
IN_THE_WEBHOOK: Final = ReplyHooks()


class TurnReplies(OutputChannel):
    """The connector's output while a person's own message is answered.

    Connector outputs raise ``ProviderFailure`` when the provider refuses a message or cannot
    be reached; that is right for alerts and caseworkers' replies (``AlertOutput``: the notifier
    retries), not for a turn. Here a refused message is logged and counted and the turn goes on:
    one lost reply must not stop the ones after it, and running the turn again would not help
    a person who blocked the bot. Counts what the person was shown, for ``take_turn``.
    """

    def __init__(
        self, output: OutputChannel, channel: str, hooks: ReplyHooks = IN_THE_WEBHOOK
    ) -> None:
        self.output = output
        self.channel = channel
        self.hooks = hooks
        #: For an output that folds replies: the last text reply, sent when the next one
        #: comes and does not fit with it, or when the turn ends (``finish``).
        self._held: dict[str, Any] | None = None
        #: Visible replies Rasa gave, delivered or not.
        self.replies_sent = 0
        #: Messages the provider took, and messages it refused or never got.
        self.delivered = 0
        self.undelivered = 0
        #: The language of the last visible reply (``metadata.language``), for the counts.
        self.language: str | None = None
        #: The turn confirmed "delete my data": what the channel keeps of the conversation
        #: (its last buttons, the language of its answers) goes too, not a day later.
        self.forgotten = False
        #: The language named by the last visible reply that names one (None: none did),
        #: for what the connector says by itself later (``intake``: the notice of the wait).
        self.named_language: str | None = None
        #: With ``hooks.hold``: the replies the provider could not take for now, in order.
        self.held: list[dict[str, Any]] = []

    def name(self) -> str:  # type: ignore[override]  # Rasa asks the instance (responses per channel)
        return self.output.name()

    async def send_response(self, recipient_id: str, message: dict[str, Any]) -> None:
        if message.get("utter_action") == DELETED_CONFIRMATION:
            self.forgotten = True
        if not isinstance(self.output, FoldsReplies):
            await self._send(recipient_id, message)
            return
        held, self._held = self._held, None
        foldable = bool(message.get("text")) and not message.get("custom")
        if held is not None and foldable:
            folded = self.output.fold(held, message)
            if folded is not None:
                # Held again: a third reply (the safety notice) may still fit.
                self._held = folded
                return
        if held is not None:
            await self._send(recipient_id, held)
        if foldable:
            self._held = dict(message)  # Rasa's send_response pops what it sends
        else:
            await self._send(recipient_id, message)

    async def finish(self, recipient_id: str) -> None:
        """The end of the turn: the reply still held goes out."""
        held, self._held = self._held, None
        if held is not None:
            await self._send(recipient_id, held)

    async def _send(self, recipient_id: str, message: dict[str, Any]) -> None:
        visible = any(message.get(part) for part in SHOWN_PARTS)  # Rasa pops what it sends
        if visible:
            self.replies_sent += 1
            self.language = reply_language(message)
            self.named_language = named_language(message) or self.named_language
        if self.held:
            self.held.append(dict(message))  # behind the one that waits for the provider
            return
        kept = dict(message) if self.hooks.hold else None  # Rasa's send_response pops what it sends
        failure = await self._attempt(
            recipient_id, self.output.send_response(recipient_id, message)
        )
        if failure is None:
            await self._shown(visible)
        elif kept is not None and visible and failure.passing:
            self.held.append(kept)

    async def attempt(
        self, conversation: str, sending: Awaitable[None], shown: bool = True
    ) -> bool:
        """Awaits ``sending`` (a reply, or the connector's own message: a notice, a spinner
        stopped); True when the provider took it, False (logged, counted) when it refused it
        or could not be reached. ``shown``: whether it counts as something the person sees."""
        if await self._attempt(conversation, sending) is not None:
            return False
        await self._shown(shown)
        return True

    async def _attempt(self, conversation: str, sending: Awaitable[None]) -> ProviderFailure | None:
        try:
            await sending
        except ProviderFailure as failure:
            call = f" {failure.call}" if failure.call else ""
            logger.warning(
                "%s%s failed: %s (a reply to %s)", self.channel, call, failure, conversation
            )
            self.undelivered += 1
            count_refusal(self.channel, failure)
            return failure
        return None

    async def _shown(self, shown: bool) -> None:
        if shown:
            self.delivered += 1
            if self.delivered == 1 and self.hooks.on_first_delivery is not None:
                await self.hooks.on_first_delivery()


def user_message(
    text: str,
    output: OutputChannel,
    conversation: str,
    *,
    input_channel: str,
    message_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    person: str | None = None,
) -> UserMessage:
    """The message as Rasa gets it: text capped for every channel alike (``MAX_TEXT_CHARS``),
    no typed external intent, and ``person`` (the address it came from) only as its keyed hash
    (``PERSON``)."""
    text = capped_text(text).strip()
    metadata = dict(metadata or {})
    if person:
        metadata[PERSON] = person_tag(person)
    if text.startswith(_EXTERNAL_INTENT):
        text = text[1:]
    return UserMessage(
        text,
        output if isinstance(output, TurnReplies) else TurnReplies(output, input_channel),
        conversation,
        input_channel=input_channel,
        message_id=message_id,
        metadata=metadata or {},
    )


async def take_turn(
    message: UserMessage,
    on_new_message: OnNewMessage,
    agent: Assistant,
    hotline: str | None = None,
) -> Outcome:
    """Let the assistant answer ``message``; apologise when it fails or stays silent, naming
    the operator's ``hotline`` when there is one (``settings.hotline``).

    ``agent`` is Rasa's (``request.app.ctx.agent``): its tracker store tells the conversation's
    language and whether it is paused, read only on the rare turn that went wrong. Counted
    for ``/metrics`` (``counts.py``): the turn by its outcome and language, its time.
    """
    output = message.output_channel
    assert isinstance(output, TurnReplies), "connectors make their message with user_message"
    started = time.perf_counter()
    outcome = await _turn(message, output, on_new_message, agent, hotline)
    channel = output.channel
    TURN_SECONDS.labels(channel).observe(time.perf_counter() - started)
    TURNS.labels(channel, outcome.value, output.language or NO_LANGUAGE).inc()
    return outcome


async def _turn(
    message: UserMessage,
    output: TurnReplies,
    on_new_message: OnNewMessage,
    agent: Assistant,
    hotline: str | None,
) -> Outcome:
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
    await output.finish(message.sender_id)
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
    said_in = language or hint
    apology: dict[str, Any] = {"text": try_again(said_in, hotline)}
    if is_language(said_in):
        # Named like every reply, so a page lays it out in its language (kernel/contract.py).
        apology["metadata"] = language_metadata(said_in)
    delivered = output.delivered
    try:
        await output.send_response(message.sender_id, apology)
        await output.finish(message.sender_id)
    except Exception:
        logger.error("%s: the apology to %s failed", message.input_channel, message.sender_id)
        output.undelivered += 1
    if output.delivered > delivered:
        APOLOGIES.labels(output.channel, output.language or NO_LANGUAGE).inc()
    if output.undelivered and not output.delivered:
        logger.error("%s: nothing reached %s", message.input_channel, message.sender_id)
        return Outcome.UNANSWERED
    return Outcome.APOLOGISED


async def _conversation_state(agent: Assistant, conversation: str) -> tuple[str | None, bool]:
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


async def conversation_language(agent: Assistant, conversation: str) -> str | None:
    """The language the conversation is held in, for what a connector says by itself (the
    "please write" notice, the intake's notice of the wait); None when it has none yet or
    the tracker store cannot tell."""
    language, _ = await _conversation_state(agent, conversation)
    return language if is_language(language) else None
