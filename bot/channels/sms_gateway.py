"""A generic HTTP SMS gateway (``/webhooks/sms_gateway/webhook``).

Local aggregators, Kannel setups and Android SMS-gateway apps can all POST an incoming SMS as
JSON ``{"from": "+93...", "text": "...", "id": "..."}`` or as the same form fields, and accept
replies as JSON ``{"to": ..., "text": ...}`` at one URL. Both directions carry a shared secret
in ``X-Gateway-Secret``; a request without the right one gets 403 before it is even parsed.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from rasa.core.channels.channel import InputChannel, OutputChannel
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertOutput, address_book_for
from bot.channels.blueprints import Blueprint
from bot.channels.dedup import SeenMessages
from bot.channels.identity import conversation_id
from bot.channels.memory import ChannelMemory, ProcessMemory, channel_memory
from bot.channels.settings import GatewaySettings, for_rasa, hotline
from bot.channels.sms_base import TextMessageOutput, answer, phone_key
from bot.channels.sms_render import ReplyMemory, ReplyRenderer
from bot.channels.transport import (
    BODY_LIMITS,
    BodyTooLarge,
    MalformedRequest,
    ProviderApi,
    parse_form,
    parse_json,
    parse_off_loop,
    read_body,
    secrets_match,
    webhook_blueprint,
)
from bot.channels.turns import OnNewMessage, Outcome

logger = logging.getLogger(__name__)

CHANNEL: Final = "sms_gateway"
SECRET_HEADER: Final = "X-Gateway-Secret"
_MAX_SENDER_LENGTH: Final = 64
#: A message without an id counts as a retry only when the same text from the same number comes
#: again this soon: a gateway retries a slow request within seconds, while a person rarely sends
#: the very same words twice in half a minute (a MORE they mean is then lost: docs/SMS.md).
REPEAT_WINDOW_SECONDS: Final = 30.0


@dataclass(frozen=True)
class GatewayMessage:
    """One incoming SMS as the gateway reported it."""

    sender: str
    text: str
    message_id: str | None


def parse_gateway_message(content_type: str, body: bytes) -> GatewayMessage:
    """Read JSON or form fields; ``MalformedRequest`` says which field is wrong."""
    if "json" in content_type or body.lstrip().startswith(b"{"):
        data = parse_json(body)
        if not isinstance(data, dict):
            raise MalformedRequest('body must be a JSON object: {"from": ..., "text": ...}')
        fields: Mapping[str, Any] = data
    else:
        fields = {name: values[-1] for name, values in parse_form(body).items()}
    sender, text, message_id = fields.get("from"), fields.get("text"), fields.get("id")
    if isinstance(sender, int) and not isinstance(sender, bool):
        sender = str(sender)
    if not isinstance(sender, str) or not sender.strip() or len(sender) > _MAX_SENDER_LENGTH:
        raise MalformedRequest('"from" must be the sender\'s phone number, e.g. "+93701234567"')
    if not isinstance(text, str):
        raise MalformedRequest('"text" must be the message text (a string, may be empty)')
    if isinstance(message_id, bool) or not isinstance(message_id, str | int | None):
        raise MalformedRequest('"id" must be a string or a number when given')
    given_id = None if message_id in (None, "") else str(message_id)
    return GatewayMessage(sender.strip(), text, given_id)


def delivery_id(conversation: str, message: GatewayMessage) -> str:
    """What identifies one delivery of ``message``: the gateway's id, else a hash of the text
    (no text is kept in the memory, and the conversation id is a keyed hash already)."""
    if message.message_id:
        return f"{conversation}:{message.message_id}"
    digest = hashlib.sha256(f"{conversation}\0{message.text}".encode()).hexdigest()[:32]
    return f"{conversation}:text:{digest}"


def gateway_api(settings: GatewaySettings) -> ProviderApi:
    """The gateway's send URL, the shared secret on every request; its answer need not be
    JSON (many answer ``OK``), and its refusals carry nothing worth logging."""
    parts = urlsplit(settings.send_url)
    return ProviderApi(
        f"{parts.scheme}://{parts.netloc}",
        {SECRET_HEADER: settings.secret},
        reason=lambda _: "gateway refused",
        answers_json=False,
    )


def send_path(settings: GatewaySettings) -> str:
    """The send URL's path and query, exactly as configured (a trailing ``/`` included)."""
    parts = urlsplit(settings.send_url)
    return urlunsplit(("", "", parts.path, parts.query, ""))


class GatewayOutput(TextMessageOutput):
    """POSTs each rendered SMS to the gateway for the one number being answered."""

    @classmethod
    def name(cls) -> str:
        return CHANNEL

    def __init__(
        self,
        api: ProviderApi,
        path: str,
        renderer: ReplyRenderer,
        conversation: str,
        to: str,
        addresses: AddressBook | None = None,
    ) -> None:
        super().__init__(api, renderer, conversation, to, addresses)
        self.path = path

    async def deliver(self, text: str) -> None:
        await self.api.send(self.path, {"to": self.to, "text": text}, call="send")


class GatewayAlertOutput(AlertOutput):
    """Alerts to a stored number, rendered like replies (three segments, MORE for the rest)."""

    @classmethod
    def name(cls) -> str:
        return CHANNEL

    def __init__(self, channel: SmsGatewayInput) -> None:
        super().__init__(channel.addresses)
        self._channel = channel

    async def open(self, conversation: str, address: str) -> OutputChannel:
        channel = self._channel
        # Sent out of turn: MORE then fetches this message's rest, not an earlier reply's.
        await channel.renderer.memory.new_question(conversation)
        return GatewayOutput(channel.api, channel.path, channel.renderer, conversation, address)


class SmsGatewayInput(InputChannel):
    """Receives SMS from a gateway that speaks the small JSON/form protocol above."""

    @classmethod
    def name(cls) -> str:
        return CHANNEL

    @classmethod
    def from_credentials(cls, credentials: dict[str, Any] | None) -> InputChannel:
        settings = for_rasa(lambda: GatewaySettings.load(credentials))
        addresses = address_book_for(CHANNEL)
        return cls(settings, addresses, channel_memory(), hotline())

    def __init__(
        self,
        settings: GatewaySettings,
        addresses: AddressBook | None = None,
        memory: ChannelMemory | None = None,
        hotline: str | None = None,
    ) -> None:
        self.settings = settings
        self.hotline = hotline
        # Retries and MORE pages: Redis in production (bot/channels/memory.py).
        self.memory = memory if memory is not None else ProcessMemory()
        self.seen = SeenMessages(self.memory)
        self.addresses = addresses
        self.api = gateway_api(settings)
        self.path = send_path(settings)
        self.renderer = ReplyRenderer(ReplyMemory(self.memory), paged=True)

    def get_output_channel(self) -> OutputChannel:
        """Where Rasa's ``trigger_intent`` sends alerts: conversation ids are one-way hashes,
        so the number comes from the address book (raises ``AlertNotDelivered``)."""
        return GatewayAlertOutput(self)

    def blueprint(self, on_new_message: OnNewMessage) -> Blueprint:
        webhook = webhook_blueprint(f"{CHANNEL}_webhook", self.api, self.memory)

        @webhook.route("/webhook", methods=["POST"], stream=True)
        async def receive(request: Request) -> HTTPResponse:
            if not secrets_match(request.headers.get(SECRET_HEADER), self.settings.secret):
                logger.warning("%s: rejected a request without the shared secret", CHANNEL)
                return response.json({"error": f"missing or wrong {SECRET_HEADER}"}, status=403)
            content_type = request.content_type or ""
            try:
                body = await read_body(request, BODY_LIMITS[CHANNEL])
                message = await parse_off_loop(
                    lambda raw: parse_gateway_message(content_type, raw), body
                )
            except BodyTooLarge:
                return response.json({"error": "message too large"}, status=413)
            except MalformedRequest as error:
                return response.json({"error": str(error)}, status=400)
            conversation = conversation_id(CHANNEL, phone_key(message.sender))
            delivery = delivery_id(conversation, message)
            if not await self._first_delivery(delivery, message):
                logger.info("%s: repeated delivery for %s ignored", CHANNEL, conversation)
                return response.json({"status": "duplicate"})
            output = GatewayOutput(
                self.api, self.path, self.renderer, conversation, message.sender, self.addresses
            )
            outcome = await answer(
                output,
                message.text,
                on_new_message,
                request.app.ctx.agent,
                message_id=message.message_id,
                hotline=self.hotline,
                # No language hint: +93 numbers write Dari and Pashto alike (docs/SMS.md).
                metadata={"transport": "sms"},
                person=message.sender,
            )
            if outcome is Outcome.UNANSWERED:
                await self.seen.forget(delivery)
                return response.json({"error": "the assistant could not answer"}, status=503)
            return response.json({"status": "ok"})

        return webhook

    async def _first_delivery(self, delivery: str, message: GatewayMessage) -> bool:
        """False for a retry: the same id, or without one the same text just now."""
        window = None if message.message_id else REPEAT_WINDOW_SECONDS
        return await self.seen.first_time(delivery, window)
