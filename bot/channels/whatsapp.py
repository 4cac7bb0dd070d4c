"""WhatsApp connector (Meta WhatsApp Cloud API): webhook in, Graph API ``/messages`` out.

Meta verifies the webhook with a GET handshake (``hub.verify_token``) and signs every POST with
``X-Hub-Signature-256`` (HMAC-SHA256 of the raw body, keyed with the app secret); a request that
fails either check gets 403 and never reaches the bot.

Free-form replies (text, buttons, lists) are only allowed within 24 hours of the user's last
message (the "customer service window"); outside it only pre-approved template messages are.
The content runtime's ``action_send_alert`` decides, and then sends the custom payload
``{"whatsapp_template": {"name": ..., "language": ..., "parameters": [...]}}`` instead of text,
which goes out as a template message (``template_message``).
"""

import hashlib
import hmac
import logging
from collections.abc import Iterator
from typing import Any

from rasa.core.channels.channel import OutputChannel
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertOutput, custom_payload_in_reply
from bot.channels.blueprints import Blueprint
from bot.channels.identity import conversation_id
from bot.channels.intake import Queued
from bot.channels.notices import choose, text_only
from bot.channels.settings import WhatsAppSettings
from bot.channels.transport import (
    MalformedRequest,
    ProviderApi,
    ProviderFailure,
    parse_json,
    secrets_match,
    split_message,
)
from bot.channels.turns import OnNewMessage, Outcome, TurnReplies, take_turn, user_message
from bot.channels.webhook import Forged, Inbound, Received, Refused, WebhookInput
from bot.channels.whatsapp_templates import template_message
from bot.contract import WHATSAPP_TEMPLATE, reply_language

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Hub-Signature-256"
# Limits of the Cloud API (text and interactive message references).
MAX_TEXT = 4096
MAX_BUTTONS, BUTTON_TITLE, BUTTON_BODY = 3, 20, 1024
MAX_ROWS, ROW_TITLE, LIST_BODY, ROW_ID = 10, 24, 4096, 200
#: Message types a person sends that are not text: answered with a request to write.
MEDIA_TYPES = frozenset(
    {"audio", "voice", "image", "video", "document", "sticker", "location", "contacts"}
    | {"unsupported"}
)


def _clip(title: str, limit: int) -> str:
    return title if len(title) <= limit else title[: limit - 1] + "…"


def _interactive(choices: list[tuple[str, str]], label: str) -> tuple[dict[str, Any], int]:
    """Reply buttons for up to 3 (payload, title) choices, else a list; and its body limit."""
    if len(choices) <= MAX_BUTTONS:
        buttons = [
            {"type": "reply", "reply": {"id": p, "title": _clip(t, BUTTON_TITLE)}}
            for p, t in choices
        ]
        return {"type": "button", "action": {"buttons": buttons}}, BUTTON_BODY
    rows = [{"id": p, "title": _clip(t, ROW_TITLE)} for p, t in choices]
    section = {"title": label, "rows": rows}
    return {"type": "list", "action": {"button": label, "sections": [section]}}, LIST_BODY


def _part(container: dict[str, Any], key: object) -> dict[str, Any]:
    part = container.get(key) if isinstance(key, str) else None
    return part if isinstance(part, dict) else {}


def _text_of(message: dict[str, Any]) -> str | None:
    """The text the bot should see: typed text, or the id (payload) of a pressed button/row."""
    kind = message["type"]
    if kind == "text":
        found = _part(message, "text").get("body")
    elif kind == "interactive":
        interactive = _part(message, "interactive")
        reply = _part(interactive, interactive.get("type"))  # button_reply or list_reply
        found = reply.get("id") or reply.get("title")
    elif kind == "button":  # quick-reply button of a template message
        found = _part(message, "button").get("payload") or _part(message, "button").get("text")
    else:
        found = None
    return found if isinstance(found, str) and found.strip() else None


#: Graph API error codes about the recipient, that no later try changes: 131026 "Message
#: undeliverable" (the number is not on WhatsApp, or has not accepted its terms).
NOT_A_USER_CODES = frozenset({131026})


def refused_for_good(status: int, answer: object) -> bool:
    """Whether Meta refused the recipient itself (not a WhatsApp user), not the moment."""
    error = answer.get("error") if isinstance(answer, dict) else None
    return isinstance(error, dict) and error.get("code") in NOT_A_USER_CODES


class WhatsAppOutput(OutputChannel):
    """Replies to the one user a message came from (made per message, like TelegramOutput);
    raises ``ProviderFailure`` when Meta refuses a message or a template cannot be sent."""

    @classmethod
    def name(cls) -> str:
        return "whatsapp"

    def __init__(
        self,
        api: ProviderApi,
        phone_number_id: str,
        wa_id: str,
        conversation: str,
        addresses: AddressBook | None = None,
    ) -> None:
        self._api = api
        self._path = f"/{phone_number_id}/messages"
        self._wa_id = wa_id
        self._conversation = conversation
        self._addresses = addresses

    async def send_text_message(self, recipient_id: str, text: str, **kwargs: Any) -> None:
        for piece in split_message(text or "", MAX_TEXT):
            await self._send(recipient_id, {"type": "text", "text": {"body": piece}})

    async def send_text_with_buttons(
        self, recipient_id: str, text: str, buttons: list[dict[str, Any]], **kwargs: Any
    ) -> None:
        """Up to 3 choices as reply buttons, up to 10 as a list, more as lines of the text."""
        titled = [button for button in buttons if button.get("title")]
        choices = [(str(b.get("payload") or b["title"]), str(b["title"])) for b in titled]
        if not choices or len(choices) > MAX_ROWS or any(len(p) > ROW_ID for p, _ in choices):
            lines = "\n".join(f"• {title}" for _, title in choices)
            await self.send_text_message(recipient_id, f"{text}\n\n{lines}".strip())
            return
        label = choose(reply_language(kwargs))
        interactive, body_limit = _interactive(choices, label)
        # Long texts go first as plain messages; the last piece carries the choices.
        pieces = split_message(text or "", MAX_TEXT) or [label]
        tail = split_message(pieces.pop(), body_limit)
        for piece in pieces + tail[:-1]:
            await self._send(recipient_id, {"type": "text", "text": {"body": piece}})
        interactive["body"] = {"text": tail[-1]}
        await self._send(recipient_id, {"type": "interactive", "interactive": interactive})

    async def send_custom_json(
        self, recipient_id: str, json_message: dict[str, Any], **kwargs: Any
    ) -> None:
        """A template message when asked for one; a remember request stores the address."""
        if WHATSAPP_TEMPLATE not in json_message:
            await custom_payload_in_reply(
                json_message,
                channel=self.name(),
                conversation=self._conversation,
                address=self._wa_id,
                addresses=self._addresses,
            )
            return
        try:
            message = template_message(json_message[WHATSAPP_TEMPLATE])
        except ValueError as error:
            logger.warning("whatsapp: template for %s not sent: %s", self._conversation, error)
            raise ProviderFailure(None, "malformed template payload") from error
        await self._send(recipient_id, message)

    async def _send(self, recipient_id: str, message: dict[str, Any]) -> None:
        if recipient_id != self._conversation:
            logger.error("whatsapp: refusing to send a reply meant for another conversation")
            return
        payload = {"messaging_product": "whatsapp", "recipient_type": "individual"}
        await self._api.send(
            self._path, {**payload, "to": self._wa_id, **message}, call="send message"
        )


class WhatsAppAlertOutput(AlertOutput):
    """Alerts to a stored WhatsApp id: free text inside the customer-service window, the
    template the content runtime chose outside it."""

    sends_templates = True

    @classmethod
    def name(cls) -> str:
        return "whatsapp"

    def __init__(
        self, api: ProviderApi, phone_number_id: str, addresses: AddressBook | None
    ) -> None:
        super().__init__(addresses)
        self._api = api
        self._phone_number_id = phone_number_id

    async def open(self, conversation: str, address: str) -> OutputChannel:
        return WhatsAppOutput(self._api, self._phone_number_id, address, conversation)


def _notified_messages(payload: object) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(value, message) for every user message in a notification; statuses are skipped."""
    if not isinstance(payload, dict) or not isinstance(payload.get("entry"), list):
        raise MalformedRequest("entry missing")
    for entry in payload["entry"]:
        for change in entry.get("changes", []) if isinstance(entry, dict) else []:
            if not isinstance(change, dict) or change.get("field") != "messages":
                continue
            value = change.get("value")
            if not isinstance(value, dict) or not isinstance(value.get("messages", []), list):
                raise MalformedRequest("value.messages malformed")
            for message in value.get("messages", []):
                if not isinstance(message, dict) or not all(
                    isinstance(message.get(key), str) for key in ("id", "from", "type")
                ):
                    raise MalformedRequest("message without id, from or type")
                yield value, message


class WhatsAppInput(WebhookInput[WhatsAppSettings, dict[str, Any]]):
    """Webhook for the WhatsApp Cloud API at ``/webhooks/whatsapp/webhook``; alerts through
    ``get_output_channel`` (a one-way conversation id needs the address book to find a number).
    """

    credential = SIGNATURE_HEADER
    replies_by_api = True

    @classmethod
    def name(cls) -> str:
        return "whatsapp"

    @classmethod
    def load_settings(cls, credentials: dict[str, Any] | None) -> WhatsAppSettings:
        """Secrets come from the environment only, never from credentials.yml."""
        return WhatsAppSettings.load()

    def set_up(self) -> None:
        self._app_secret = self.settings.app_secret.encode()
        authorization = {"Authorization": f"Bearer {self.settings.access_token}"}
        self.api = ProviderApi(
            self.settings.api_base_url, authorization, refused_for_good=refused_for_good
        )

    def get_output_channel(self) -> OutputChannel:
        """Where Rasa's ``trigger_intent`` sends alerts (raises ``AlertNotDelivered``)."""
        return WhatsAppAlertOutput(self.api, self.settings.phone_number_id, self.addresses)

    def authenticate(self, request: Request) -> bool:
        """A signature must be there before the body is read; it is checked in ``parse``."""
        return bool(request.headers.get(SIGNATURE_HEADER))

    def parse(self, body: bytes, request: Request) -> list[Inbound[dict[str, Any]]]:
        """The people's messages of a signed notification, for our number and not a group;
        Meta's delivery statuses carry none."""
        signature = request.headers.get(SIGNATURE_HEADER, "")
        expected = "sha256=" + hmac.new(self._app_secret, body, hashlib.sha256).hexdigest()
        if not secrets_match(signature, expected):
            raise Forged
        inbound = []
        for value, message in _notified_messages(parse_json(body)):
            number = _part(value, "metadata").get("phone_number_id")
            if number != self.settings.phone_number_id or "group_id" in message:
                logger.warning("whatsapp: ignored a message for another number or a group")
                continue
            delivery = f"whatsapp:{message['id']}"
            inbound.append(Inbound(message, delivery, sent_at=message.get("timestamp")))
        return inbound

    def routes(self, blueprint: Blueprint, on_new_message: OnNewMessage) -> None:
        @blueprint.route("/webhook", methods=["GET"])
        async def verify(request: Request) -> HTTPResponse:
            token = request.args.get("hub.verify_token")
            if request.args.get("hub.mode") == "subscribe" and secrets_match(
                token, self.settings.verify_token
            ):
                return response.text(request.args.get("hub.challenge", ""))
            logger.warning("whatsapp: webhook verification with a wrong token refused")
            return Refused(403, "missing or wrong hub.verify_token").answer()

    def answer(self, received: Received[dict[str, Any]]) -> HTTPResponse:
        return response.text("ok")

    def to_queue(self, message: dict[str, Any]) -> Queued:
        return Queued(conversation_id("whatsapp", message["from"]), message, _text_of(message))

    def from_queue(self, data: dict[str, Any]) -> dict[str, Any]:
        return data

    def _output(self, message: dict[str, Any]) -> tuple[WhatsAppOutput, str]:
        wa_id = message["from"]  # the sender's WhatsApp id: where replies go
        conversation = conversation_id("whatsapp", wa_id)
        output = WhatsAppOutput(
            self.api, self.settings.phone_number_id, wa_id, conversation, self.addresses
        )
        return output, conversation

    async def say(self, message: dict[str, Any], text: str) -> None:
        output, conversation = self._output(message)
        await output.send_text_message(conversation, text)

    async def take(
        self, message: dict[str, Any], on_new_message: OnNewMessage, agent: Any
    ) -> Outcome:
        output, conversation = self._output(message)
        wa_id = message["from"]
        replies = TurnReplies(output, self.name())
        text = _text_of(message)
        if text is None:
            if message["type"] in MEDIA_TYPES:
                logger.info("whatsapp: %s message, asked the user to write", message["type"])
                notice = output.send_text_message(conversation, text_only(None))
                await replies.attempt(conversation, notice)
            return Outcome.ANSWERED
        incoming = user_message(
            text, replies, conversation, input_channel=self.name(), person=wa_id
        )
        return await take_turn(incoming, on_new_message, agent, self.hotline)
