"""What the SMS-style connectors (Twilio, generic gateways) share: one turn, one output channel.

The phone number is only ever held by the output channel of the message being answered, in
memory; Rasa, the tracker store and the logs see the conversation's keyed hash.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import aiohttp

from bot.channels.addresses import AddressBook
from bot.channels.alerts import custom_payload_in_reply
from bot.channels.sms_render import ReplyRenderer
from bot.channels.turns import CountedOutput, OnNewMessage, Outcome, take_turn, user_message
from bot.contract import reply_language
from bot.lang.letters import to_ascii_digits

logger = logging.getLogger(__name__)

HTTP_TIMEOUT: Final = aiohttp.ClientTimeout(total=15)
_NUMBER_PUNCTUATION: Final = re.compile(r"[\s\-().]")


def phone_key(number: str) -> str:
    """One spelling per number ("+93 70-123", "+9370123", "+۹۳۷۰۱۲۳"), for the conversation id."""
    return _NUMBER_PUNCTUATION.sub("", to_ascii_digits(number.strip()))


class HttpClient:
    """One aiohttp session per connector, opened on first use and closed with the server."""

    def __init__(self) -> None:
        self._session: aiohttp.ClientSession | None = None

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=HTTP_TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


class TextMessageOutput(CountedOutput):
    """Renders each bot reply with a ``ReplyRenderer`` and hands every message to ``deliver``.

    ``to`` is the phone (or ``whatsapp:`` address) being answered, kept in memory; it is
    stored, sealed, in ``addresses`` only when the user subscribes to alerts. ``strict``
    (alerts, caseworkers' replies: sent out of turn) makes ``deliver`` raise
    ``ProviderFailure`` where a reply logs and goes on, and drops the pages an earlier reply
    left for MORE.
    """

    def __init__(
        self,
        renderer: ReplyRenderer,
        conversation: str,
        to: str,
        addresses: AddressBook | None = None,
        strict: bool = False,
    ) -> None:
        self.renderer = renderer
        self.conversation = conversation
        self.to = to
        self.addresses = addresses
        self.strict = strict
        self._sent_any = False

    async def deliver(self, text: str) -> None:
        """Send one finished message to the user's phone."""
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
        if self.strict and not self._sent_any:
            # Sent out of turn (an alert, a caseworker's reply): MORE then fetches its rest,
            # not what an earlier reply left unsent.
            await self.renderer.memory.new_question(self.conversation)
        self._sent_any = True
        await self.deliver_all(
            await self.renderer.outgoing(self.conversation, text, buttons, language)
        )

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


async def answer(
    *,
    renderer: ReplyRenderer,
    output: TextMessageOutput,
    text: str,
    on_new_message: OnNewMessage,
    agent: Any,
    input_channel: str,
    message_id: str | None,
    metadata: Mapping[str, Any],
) -> Outcome:
    """One user message: the channel answers empty messages and MORE, the bot the rest."""
    conversation = output.conversation
    incoming = await renderer.incoming(conversation, text)
    if incoming.text is None:
        logger.info("%s: channel reply to %s", input_channel, conversation)
        await output.deliver_all(incoming.replies)
        return Outcome.ANSWERED
    logger.info("%s: message from %s to the bot", input_channel, conversation)
    message = user_message(
        incoming.text,
        output,
        conversation,
        input_channel=input_channel,
        message_id=message_id,
        metadata=dict(metadata),
    )
    return await take_turn(message, on_new_message, agent)
