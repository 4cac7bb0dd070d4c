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
from datetime import timedelta
from typing import Any

from rasa.core.channels.channel import InputChannel, OutputChannel
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertOutput, address_book_for, custom_payload_in_reply
from bot.channels.blueprints import Blueprint
from bot.channels.dedup import SeenMessages, message_max_age, sent_too_long_ago
from bot.channels.identity import conversation_id
from bot.channels.memory import ChannelMemory, ProcessMemory, channel_memory
from bot.channels.notices import choose, text_only
from bot.channels.settings import (
    WHATSAPP_DEFAULT_BASE_URL,
    WhatsAppSettings,
    for_rasa,
    hotline,
)
from bot.channels.transport import (
    BODY_LIMITS,
    BodyTooLarge,
    ProviderApi,
    ProviderFailure,
    parse_json,
    parse_off_loop,
    read_body,
    secrets_match,
    split_message,
    webhook_blueprint,
)
from bot.channels.turns import OnNewMessage, Outcome, TurnReplies, take_turn, user_message
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
        raise ValueError("entry missing")
    for entry in payload["entry"]:
        for change in entry.get("changes", []) if isinstance(entry, dict) else []:
            if not isinstance(change, dict) or change.get("field") != "messages":
                continue
            value = change.get("value")
            if not isinstance(value, dict) or not isinstance(value.get("messages", []), list):
                raise ValueError("value.messages malformed")
            for message in value.get("messages", []):
                if not isinstance(message, dict) or not all(
                    isinstance(message.get(key), str) for key in ("id", "from", "type")
                ):
                    raise ValueError("message without id, from or type")
                yield value, message


class WhatsAppInput(InputChannel):
    """Webhook for the WhatsApp Cloud API at ``/webhooks/whatsapp/webhook``; alerts through
    ``get_output_channel`` (a one-way conversation id needs the address book to find a number).
    """

    @classmethod
    def name(cls) -> str:
        return "whatsapp"

    @classmethod
    def from_credentials(cls, credentials: dict[str, Any] | None) -> "WhatsAppInput":
        """Secrets come from the environment only, never from credentials.yml."""
        settings = for_rasa(WhatsAppSettings.load)
        addresses = address_book_for(cls.name())
        return cls(
            settings.app_secret,
            settings.verify_token,
            settings.access_token,
            settings.phone_number_id,
            settings.api_base_url,
            addresses,
            channel_memory(),
            message_max_age(),
            hotline(),
        )

    def __init__(
        self,
        app_secret: str,
        verify_token: str,
        access_token: str,
        phone_number_id: str,
        api_base_url: str = WHATSAPP_DEFAULT_BASE_URL,
        addresses: AddressBook | None = None,
        memory: ChannelMemory | None = None,
        max_age: timedelta | None = None,
        hotline: str | None = None,
    ) -> None:
        self._app_secret = app_secret.encode()
        self._verify_token = verify_token
        self._phone_number_id = phone_number_id
        self.api = ProviderApi(
            api_base_url,
            {"Authorization": f"Bearer {access_token}"},
            refused_for_good=refused_for_good,
        )
        self.addresses = addresses
        # Retries: Redis in production (bot/channels/memory.py).
        self.memory = memory if memory is not None else ProcessMemory()
        self._seen = SeenMessages(self.memory)
        self._max_age = max_age or message_max_age()
        self._hotline = hotline

    def get_output_channel(self) -> OutputChannel:
        """Where Rasa's ``trigger_intent`` sends alerts (raises ``AlertNotDelivered``)."""
        return WhatsAppAlertOutput(self.api, self._phone_number_id, self.addresses)

    def _signed(self, body: bytes, signature: str) -> bool:
        expected = "sha256=" + hmac.new(self._app_secret, body, hashlib.sha256).hexdigest()
        return secrets_match(signature, expected)

    def blueprint(self, on_new_message: OnNewMessage) -> Blueprint:
        whatsapp = webhook_blueprint("whatsapp_webhook", self.api, self.memory)

        @whatsapp.route("/webhook", methods=["GET"])
        async def verify(request: Request) -> HTTPResponse:
            token = request.args.get("hub.verify_token")
            if request.args.get("hub.mode") == "subscribe" and secrets_match(
                token, self._verify_token
            ):
                return response.text(request.args.get("hub.challenge", ""))
            logger.warning("whatsapp: webhook verification with a wrong token refused")
            return response.text("forbidden", status=403)

        @whatsapp.route("/webhook", methods=["POST"], stream=True)
        async def receive(request: Request) -> HTTPResponse:
            signature = request.headers.get(SIGNATURE_HEADER, "")
            if not signature:
                logger.warning("whatsapp: refused a request without a signature")
                return response.text("forbidden", status=403)
            try:
                body = await read_body(request, BODY_LIMITS[self.name()])
            except BodyTooLarge:
                return response.text("payload too large", status=413)
            if not self._signed(body, signature):
                logger.warning("whatsapp: refused a request with a wrong signature")
                return response.text("forbidden", status=403)
            try:
                messages = list(_notified_messages(await parse_off_loop(parse_json, body)))
            except ValueError as error:  # MalformedRequest is a ValueError too
                logger.warning("whatsapp: malformed notification refused (%s)", error)
                return response.text("bad request", status=400)
            outcomes = [
                await self._handle(value, message, on_new_message, request.app.ctx.agent)
                for value, message in messages
            ]
            if Outcome.UNANSWERED in outcomes:
                # Meta retries the whole notification: the answered messages are known by then.
                return response.text("the assistant could not answer", status=503)
            return response.text("ok")

        return whatsapp

    async def _handle(
        self,
        value: dict[str, Any],
        message: dict[str, Any],
        on_new_message: OnNewMessage,
        agent: Any,
    ) -> Outcome:
        number = _part(value, "metadata").get("phone_number_id")
        if number != self._phone_number_id or "group_id" in message:
            logger.warning("whatsapp: ignored a message for another number or a group")
            return Outcome.ANSWERED
        delivery = f"whatsapp:{message['id']}"
        if not await self._seen.first_time(delivery):
            logger.info("whatsapp: message retried by Meta, already handled")
            return Outcome.ANSWERED
        if sent_too_long_ago(message.get("timestamp"), self._max_age):
            # Meta signs no time: an old signed request may be a replay (docs/OPERATIONS.md).
            logger.info("whatsapp: message older than %s acknowledged, not answered", self._max_age)
            return Outcome.ANSWERED
        wa_id = message["from"]  # the sender's WhatsApp id: where replies go
        conversation = conversation_id("whatsapp", wa_id)
        output = WhatsAppOutput(
            self.api, self._phone_number_id, wa_id, conversation, self.addresses
        )
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
        outcome = await take_turn(incoming, on_new_message, agent, self._hotline)
        if outcome is Outcome.UNANSWERED:
            await self._seen.forget(delivery)
        return outcome
