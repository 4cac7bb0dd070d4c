"""What the SMS-style connectors (Twilio, generic gateways, Kannel) share: one turn, one output
channel, and which senders a reply can reach at all.

The phone number is only ever held by the output channel of the message being answered, in
memory; Rasa, the tracker store and the logs see the conversation's keyed hash.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rasa.core.channels.channel import OutputChannel

from bot.channels.addresses import AddressBook
from bot.channels.alerts import custom_payload_in_reply
from bot.channels.intake.line import Queued
from bot.channels.transport import ProviderApi
from bot.channels.turns import (
    IN_THE_WEBHOOK,
    Assistant,
    OnNewMessage,
    Outcome,
    ReplyHooks,
    TurnReplies,
    take_turn,
    user_message,
)
from kernel.contract import reply_language
from kernel.lang.letters import to_ascii_digits
from kernel.sms_render import ReplyRenderer

logger = logging.getLogger(__name__)

_NUMBER_PUNCTUATION: Final = re.compile(r"[\s\-().]")
_DIALABLE: Final = re.compile(r"\+?[0-9]+")
#: The fewest digits of a number a person's phone has: the shortest in the numbering plans are
#: seven with the country code (Niue's +683 and four), while short codes have three to six
#: (Roshan's and AWCC's service numbers, US short codes).
MIN_PHONE_DIGITS: Final = 7


def phone_key(number: str) -> str:
    """One spelling per number ("+93 70-123", "+9370123", "+۹۳۷۰۱۲۳"), for the conversation id."""
    return _NUMBER_PUNCTUATION.sub("", to_ascii_digits(number.strip()))


def unanswerable(sender: str) -> str | None:
    """Why no reply can reach ``sender``: "a sender name" for an operator's alphanumeric sender
    id ("MTN", "AWCC", "Roshan", "SALAAM": a balance or a promotion), "a short code" for a
    number of fewer than ``MIN_PHONE_DIGITS`` digits; None for a person's phone number.
    Answering either would cost an SMS that goes nowhere, or start a chat with a bulk sender."""
    key = phone_key(sender)
    if not _DIALABLE.fullmatch(key):
        return "a sender name"
    if len(key.lstrip("+")) < MIN_PHONE_DIGITS:
        return "a short code"
    return None


def answerable(channel: str, sender: str) -> bool:
    """Whether an SMS from ``sender`` is turned into a conversation; when not, one log line
    says what kind of sender it was, never the sender (docs/SMS.md, "Senders not answered")."""
    kind = unanswerable(sender)
    if kind is None:
        return True
    logger.info("%s: an SMS from %s acknowledged, not answered", channel, kind)
    return False


class TextMessageOutput(OutputChannel):
    """Renders each bot reply with a ``ReplyRenderer`` and hands every message to ``deliver``,
    which raises ``ProviderFailure`` when the provider refuses it or cannot be reached.

    ``to`` is the phone (or ``whatsapp:`` address) being answered, kept in memory; it is
    stored, sealed, in ``addresses`` only when the user subscribes to alerts.
    """

    def __init__(
        self,
        api: ProviderApi,
        renderer: ReplyRenderer,
        conversation: str,
        to: str,
        addresses: AddressBook | None = None,
    ) -> None:
        self.api = api
        self.renderer = renderer
        self.conversation = conversation
        self.to = to
        self.addresses = addresses

    async def deliver(self, text: str) -> None:
        """Send one finished message to the user's phone, or raise ``ProviderFailure``."""
        raise NotImplementedError

    async def deliver_all(self, messages: Iterable[str]) -> None:
        for message in messages:
            await self.deliver(message)

    async def send_text_message(self, recipient_id: str, text: str, **kwargs: Any) -> None:
        await self._reply(text, (), kwargs)

    async def send_text_with_buttons(
        self,
        recipient_id: str,
        text: str,
        buttons: list[dict[str, Any]],
        **kwargs: Any,
    ) -> None:
        await self._reply(text, buttons, kwargs)

    async def _reply(
        self, text: str, buttons: Sequence[Mapping[str, Any]], message: Mapping[str, Any]
    ) -> None:
        """One bot reply, rendered in the language Rasa says it is written in."""
        language = reply_language(message)
        await self.deliver_all(
            await self.renderer.outgoing(self.conversation, text, buttons, language)
        )

    def fold(self, first: dict[str, Any], then: dict[str, Any]) -> dict[str, Any] | None:
        """Two replies of one turn as one SMS when they fit in its segments together: a
        greeting and the menu, a new person's first answer and the one-time safety notice
        (paged SMS only: each message costs, and two may arrive out of order); None
        otherwise. Not two replies with options, whose numbers would clash.

        The safety notice that does not fit after a full answer comes on its own SMS: no
        line of the answer gives way to it, not even the numbers of later flights ("Later:
        QR8010, RCH618"), which a reader would take for no more flights (docs/SMS.md, "First
        contact").
        """
        if not self.renderer.paged:
            return None
        if first.get("buttons") and then.get("buttons"):
            return None
        language = reply_language(first)
        if reply_language(then) != language:
            return None
        said, after = str(first.get("text") or "").rstrip(), str(then.get("text") or "").strip()
        buttons = first.get("buttons") or then.get("buttons") or []
        if self.renderer.fits_one_message(f"{said}\n{after}", buttons, language):
            return {**first, "text": f"{said}\n{after}", "buttons": buttons}
        return None

    async def send_custom_json(
        self, recipient_id: str, json_message: dict[str, Any], **kwargs: Any
    ) -> None:
        await custom_payload_in_reply(
            json_message,
            channel=self.name(),
            conversation=self.conversation,
            address=self.to,
            addresses=self.addresses,
        )


async def take_text_turn(
    output: TextMessageOutput,
    text: str,
    on_new_message: OnNewMessage,
    agent: Assistant,
    *,
    message_id: str | None,
    metadata: Mapping[str, Any],
    hotline: str | None,
    person: str | None = None,
    hooks: ReplyHooks = IN_THE_WEBHOOK,
) -> Outcome:
    """One user message: the channel answers empty messages and MORE, the bot the rest."""
    conversation, channel = output.conversation, output.name()
    replies = TurnReplies(output, channel, hooks)
    incoming = await output.renderer.incoming(conversation, text)
    if incoming.text is None:
        logger.info("%s: channel reply to %s", channel, conversation)
        await replies.attempt(conversation, output.deliver_all(incoming.replies))
        return Outcome.ANSWERED
    logger.info("%s: message from %s to the bot", channel, conversation)
    message = user_message(
        incoming.text,
        replies,
        conversation,
        input_channel=channel,
        message_id=message_id,
        metadata=dict(metadata),
        person=person,
    )
    return await take_turn(message, on_new_message, agent, hotline)


@dataclass(frozen=True)
class GatewayMessage:
    """One incoming SMS as a gateway (the generic one, Kannel) reported it."""

    sender: str
    text: str
    message_id: str | None


@dataclass(frozen=True)
class GatewayInbound:
    """An incoming SMS with the conversation it belongs to (its retry is known by both)."""

    message: GatewayMessage
    conversation: str


class GatewayTurns(ABC):
    """What an SMS gateway's connector (``sms_gateway``, ``kannel``) does with one incoming SMS
    once it is read: puts it in line as JSON and back, says the wait's notice, takes its turn.
    Mixed in before ``QueuedInput``, whose ``hotline`` it reads; the connector gives only the
    output that answers the sender (``output_for``)."""

    hotline: str | None

    @abstractmethod
    def output_for(self, inbound: GatewayInbound) -> TextMessageOutput:
        """The output that answers the sender of ``inbound`` through this gateway."""

    def to_queue(self, inbound: GatewayInbound) -> Queued:
        message = dataclasses.asdict(inbound.message)
        data = {"message": message, "conversation": inbound.conversation}
        return Queued(inbound.conversation, data, inbound.message.text)

    def from_queue(self, data: dict[str, Any]) -> GatewayInbound:
        return GatewayInbound(GatewayMessage(**data["message"]), data["conversation"])

    async def say(self, inbound: GatewayInbound, text: str) -> None:
        await self.output_for(inbound).deliver(text)

    async def reply(self, inbound: GatewayInbound, response: dict[str, Any]) -> None:
        await self.output_for(inbound).send_response(inbound.conversation, response)

    async def take(
        self,
        inbound: GatewayInbound,
        on_new_message: OnNewMessage,
        agent: Assistant,
        hooks: ReplyHooks = IN_THE_WEBHOOK,
    ) -> Outcome:
        message = inbound.message
        return await take_text_turn(
            self.output_for(inbound),
            message.text,
            on_new_message,
            agent,
            message_id=message.message_id,
            hotline=self.hotline,
            # No language hint: +93 numbers write Dari and Pashto alike (docs/SMS.md).
            metadata={"transport": "sms"},
            person=message.sender,
            hooks=hooks,
        )
