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
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from rasa.core.channels.channel import OutputChannel
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertOutput
from bot.channels.identity import conversation_id
from bot.channels.settings import GatewaySettings
from bot.channels.sms_base import (
    GatewayInbound,
    GatewayMessage,
    GatewayTurns,
    TextMessageOutput,
    answerable,
    phone_key,
)
from bot.channels.transport import (
    MalformedRequest,
    ProviderApi,
    parse_form,
    parse_json,
    secrets_match,
)
from bot.channels.webhook import Inbound, QueuedInput, Received
from kernel.sms_render import ReplyMemory, ReplyRenderer

logger = logging.getLogger(__name__)

CHANNEL: Final = "sms_gateway"
SECRET_HEADER: Final = "X-Gateway-Secret"
_MAX_SENDER_LENGTH: Final = 64
#: A message without an id counts as a retry only when the same text from the same number comes
#: again this soon: a gateway retries a slow request within seconds, while a person rarely sends
#: the very same words twice in half a minute (a MORE they mean is then lost: docs/SMS.md).
REPEAT_WINDOW_SECONDS: Final = 30.0


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


class SmsGatewayInput(GatewayTurns, QueuedInput[GatewaySettings, GatewayInbound]):
    """Receives SMS from a gateway that speaks the small JSON/form protocol above."""

    credential = SECRET_HEADER

    @classmethod
    def name(cls) -> str:
        return CHANNEL

    @classmethod
    def load_settings(cls, credentials: dict[str, Any] | None) -> GatewaySettings:
        return GatewaySettings.load(credentials)

    def set_up(self) -> None:
        # Retries and MORE pages: Redis in production (bot/channels/memory.py).
        self.api = gateway_api(self.settings)
        self.path = send_path(self.settings)
        self.renderer = ReplyRenderer(ReplyMemory(self.memory), paged=True)

    def get_output_channel(self) -> OutputChannel:
        """Where Rasa's ``trigger_intent`` sends alerts: conversation ids are one-way hashes,
        so the number comes from the address book (raises ``AlertNotDelivered``)."""
        return GatewayAlertOutput(self)

    def authenticate(self, request: Request) -> bool:
        return secrets_match(request.headers.get(SECRET_HEADER), self.settings.secret)

    def parse(self, body: bytes, request: Request) -> list[Inbound[GatewayInbound]]:
        """The one SMS of a request. A retry has the same id; without one, the same text
        from the same number within ``REPEAT_WINDOW_SECONDS``. None from an operator's sender
        name or a short code (``sms_base.answerable``)."""
        message = parse_gateway_message(request.content_type or "", body)
        if not answerable(CHANNEL, message.sender):
            return []
        conversation = conversation_id(CHANNEL, phone_key(message.sender))
        window = None if message.message_id else REPEAT_WINDOW_SECONDS
        delivery = delivery_id(conversation, message)
        return [Inbound(GatewayInbound(message, conversation), delivery, window)]

    def answer(self, received: Received[GatewayInbound]) -> HTTPResponse:
        return response.json({"status": "duplicate" if received.only_repeats else "ok"})

    def output_for(self, inbound: GatewayInbound) -> GatewayOutput:
        return GatewayOutput(
            self.api,
            self.path,
            self.renderer,
            inbound.conversation,
            inbound.message.sender,
            self.addresses,
        )
