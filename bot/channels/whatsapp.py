"""WhatsApp connector (Meta WhatsApp Cloud API): webhook in, Graph API ``/messages`` out.

Meta verifies the webhook with a GET handshake (``hub.verify_token``) and signs every POST with
``X-Hub-Signature-256`` (HMAC-SHA256 of the raw body, keyed with the app secret); a request that
fails either check gets 403 and never reaches the bot.

Free-form replies (text, buttons, lists) are only allowed within 24 hours of the user's last
message (the "customer service window"); outside it only pre-approved template messages are.
The content runtime's ``action_send_alert`` decides, and then sends the custom payload
``{"whatsapp_template": {"name": ..., "language": ..., "parameters": [...]}}`` instead of text,
which goes out as a template message (``template_message``).

A person is known by their phone number (``from``, where replies go ``to``) or, once they hide
it behind a WhatsApp username, only by their business-scoped user id (``from_user_id``, such as
``AF.1502576394655843``, where replies go as ``recipient``: Meta's "Business-scoped user IDs"
page). A message of one notification the connector cannot use (no sender it can answer, no id)
is skipped with a log line, so the others are still answered; a signed notification it cannot
read at all is acknowledged 200 and logged, because Meta retries anything else for days and the
retry would be just as unreadable. A caption is read as the question it asks (the picture is
never downloaded), a forwarded message is marked (``contract.FORWARDED``), a shared location
carries its coordinates (``contract.LOCATION``), a first message ``start <parameter>``
(a ``wa.me`` link's prefilled text) opens the conversation the poster stands for
(``deep_links.py``), and a number typed right after a reply with numbered buttons picks that
button (``typed_numbers.py``).
"""

import hashlib
import hmac
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from rasa.core.channels.channel import OutputChannel
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertOutput, custom_payload_in_reply
from bot.channels.blueprints import Blueprint
from bot.channels.deep_links import whatsapp_start
from bot.channels.identity import conversation_id
from bot.channels.intake.line import Queued
from bot.channels.places import PLACE_QUESTION, place_metadata
from bot.channels.settings import WhatsAppSettings
from bot.channels.statuses import ProviderStatus, StatusLog, provider_status
from bot.channels.transport import (
    MalformedRequest,
    ProviderApi,
    ProviderFailure,
    parse_json,
    secrets_match,
)
from bot.channels.turns import (
    IN_THE_WEBHOOK,
    Assistant,
    OnNewMessage,
    Outcome,
    ReplyHooks,
    TurnReplies,
    conversation_language,
    take_turn,
    user_message,
)
from bot.channels.typed_numbers import TypedNumbers
from bot.channels.webhook import Forged, Inbound, QueuedInput, Received, Refused
from bot.channels.whatsapp_templates import template_message
from kernel.contract import FORWARDED, LANGUAGE_HINT, WHATSAPP_TEMPLATE, reply_language
from kernel.notices import choose, text_only
from kernel.sms_segments import split_message

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Hub-Signature-256"
# Limits of the Cloud API (text and interactive message references).
MAX_TEXT = 4096
MAX_BUTTONS, BUTTON_TITLE, BUTTON_BODY = 3, 20, 1024
MAX_ROWS, ROW_TITLE, LIST_BODY, ROW_ID = 10, 24, 4096, 200
#: Message types a person sends that are not text: answered with a request to write, unless
#: they carry a caption (``CAPTIONED``) or are a shared place.
MEDIA_TYPES = frozenset(
    {"audio", "voice", "image", "video", "document", "sticker", "location", "contacts"}
    | {"unsupported"}
)
#: Media whose ``caption`` the person writes their question in.
CAPTIONED = frozenset({"image", "video", "document"})
#: A phone number as WhatsApp gives it: digits with the country code, no "+".
PHONE_NUMBER: Final = re.compile(r"[0-9]{6,20}")
#: A business-scoped user id: country code, a dot, alphanumerics (a parent id adds "ENT.").
USER_ID: Final = re.compile(r"[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}")


def sender_of(message: dict[str, Any]) -> str | None:
    """Who wrote: the phone number ``from``, else the user id ``from_user_id``; None when
    neither is an address replies can go to."""
    for key in ("from", "from_user_id"):
        found = message.get(key)
        if isinstance(found, str) and (PHONE_NUMBER.fullmatch(found) or USER_ID.fullmatch(found)):
            return found
    return None


def address_field(address: str) -> str:
    """The field of a Cloud API message naming its addressee: ``to`` for a phone number,
    ``recipient`` for a business-scoped user id."""
    return "to" if PHONE_NUMBER.fullmatch(address) else "recipient"


@dataclass(frozen=True)
class Notified:
    """A person's message of a notification, and who wrote it (``sender_of``)."""

    message: dict[str, Any]
    sender: str
    #: Or, as one more item of a notification, the delivery statuses it carries.
    statuses: tuple[ProviderStatus, ...] = ()


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
    elif kind in CAPTIONED:  # the question the picture was sent with; it is not fetched
        found = _part(message, kind).get("caption")
    elif kind == "location" and _place(message) is not None:
        found = PLACE_QUESTION
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


def _place(message: dict[str, Any]) -> dict[str, Any] | None:
    location = _part(message, "location")
    return place_metadata(location.get("latitude"), location.get("longitude"))


def _forwarded(message: dict[str, Any]) -> bool:
    context = _part(message, "context")
    return context.get("forwarded") is True or context.get("frequently_forwarded") is True


def sent_message_id(answer: dict[str, Any]) -> str | None:
    """The id Meta gave a message it took (``messages[0].id``, a ``wamid.``): what its
    delivery statuses name."""
    found = answer["messages"][0]["id"]
    return found if isinstance(found, str) else None


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
        numbers: TypedNumbers | None = None,
    ) -> None:
        self._api = api
        self._path = f"/{phone_number_id}/messages"
        self._wa_id = wa_id
        self._conversation = conversation
        self._addresses = addresses
        self._numbers = numbers

    async def send_text_message(self, recipient_id: str, text: str, **kwargs: Any) -> None:
        for piece in split_message(text or "", MAX_TEXT):
            await self._send(recipient_id, {"type": "text", "text": {"body": piece}})

    async def send_text_with_buttons(
        self, recipient_id: str, text: str, buttons: list[dict[str, Any]], **kwargs: Any
    ) -> None:
        """Up to 3 choices as reply buttons, up to 10 as a list, more as lines of the text."""
        if self._numbers is not None and recipient_id == self._conversation:
            await self._numbers.offered(self._conversation, buttons)
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
        addressee = {address_field(self._wa_id): self._wa_id}
        await self._api.send(self._path, {**payload, **addressee, **message}, call="send message")


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


def _notified_values(payload: object) -> Iterator[dict[str, Any]]:
    """The ``value`` of every ``messages`` change of a notification; a change that cannot be
    read is skipped (logged: the others are still answered)."""
    if not isinstance(payload, dict) or not isinstance(payload.get("entry"), list):
        raise MalformedRequest("entry missing")
    for entry in payload["entry"]:
        changes = entry.get("changes", []) if isinstance(entry, dict) else None
        for change in changes if isinstance(changes, list) else []:
            if not isinstance(change, dict) or change.get("field") != "messages":
                continue
            value = change.get("value")
            if not isinstance(value, dict):
                logger.warning("whatsapp: a change without a readable value skipped")
                continue
            yield value


def _notified_messages(
    values: list[dict[str, Any]],
) -> Iterator[tuple[dict[str, Any], object]]:
    """(value, message) for every user message in a notification's values; a value whose
    messages cannot be read is skipped (logged)."""
    for value in values:
        messages = value.get("messages", [])
        if not isinstance(messages, list):
            logger.warning("whatsapp: a change without readable messages skipped")
            continue
        for message in messages:
            yield value, message


def notified_statuses(value: dict[str, Any]) -> list[ProviderStatus]:
    """The delivery statuses of one value (``statuses[]``: id, status, timestamp and, for a
    failure, ``errors[].code``); the ``recipient_id`` they carry is never read."""
    entries = value.get("statuses", [])
    if not isinstance(entries, list):
        raise MalformedRequest("value.statuses malformed")
    found = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        errors = entry.get("errors")
        first = errors[0] if isinstance(errors, list) and errors else None
        code = first.get("code") if isinstance(first, dict) else None
        status = provider_status(entry.get("id"), entry.get("status"), code, entry.get("timestamp"))
        if status is not None:
            found.append(status)
    return found


class WhatsAppInput(QueuedInput[WhatsAppSettings, Notified]):
    """Webhook for the WhatsApp Cloud API at ``/webhooks/whatsapp/webhook``; alerts through
    ``get_output_channel`` (a one-way conversation id needs the address book to find a number).
    """

    credential = SIGNATURE_HEADER

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
            self.settings.api_base_url,
            authorization,
            refused_for_good=refused_for_good,
            message_id=sent_message_id,
        )
        self._numbers = TypedNumbers(self.memory)

    def get_output_channel(self) -> OutputChannel:
        """Where Rasa's ``trigger_intent`` sends alerts (raises ``AlertNotDelivered``)."""
        return WhatsAppAlertOutput(self.api, self.settings.phone_number_id, self.addresses)

    def authenticate(self, request: Request) -> bool:
        """A signature must be there before the body is read; it is checked in ``parse``."""
        return bool(request.headers.get(SIGNATURE_HEADER))

    def parse(self, body: bytes, request: Request) -> list[Inbound[Notified]]:
        """The people's messages of a signed notification, for our number and not a group;
        Meta's delivery statuses come as one more item (``Notified.statuses``). Signed but
        unreadable: none, logged."""
        signature = request.headers.get(SIGNATURE_HEADER, "")
        expected = "sha256=" + hmac.new(self._app_secret, body, hashlib.sha256).hexdigest()
        if not secrets_match(signature, expected):
            raise Forged
        try:
            values = list(_notified_values(parse_json(body)))
            statuses = [
                status
                for value in values
                if _part(value, "metadata").get("phone_number_id") == self.settings.phone_number_id
                for status in notified_statuses(value)
            ]
        except MalformedRequest as error:
            # Meta's own request (it is signed): a 400 would only bring it back for a week.
            logger.warning("whatsapp: a signed notification that cannot be read (%s)", error)
            return []
        inbound = [Inbound(Notified({}, "", tuple(statuses)))] if statuses else []
        for value, message in _notified_messages(values):
            if not isinstance(message, dict) or not all(
                isinstance(message.get(key), str) for key in ("id", "type")
            ):
                logger.warning("whatsapp: a message without id or type skipped")
                continue
            number = _part(value, "metadata").get("phone_number_id")
            if number != self.settings.phone_number_id or "group_id" in message:
                logger.warning("whatsapp: ignored a message for another number or a group")
                continue
            sender = sender_of(message)
            if sender is None:
                logger.warning("whatsapp: a message from no phone number or user id skipped")
                continue
            delivery = f"whatsapp:{message['id']}"
            inbound.append(
                Inbound(Notified(message, sender), delivery, sent_at=message.get("timestamp"))
            )
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

    def answer(self, received: Received[Notified]) -> HTTPResponse:
        return response.text("ok")

    def queues(self, notified: Notified) -> bool:
        """Delivery statuses are recorded at once: they are no one's turn."""
        return not notified.statuses

    async def record_statuses(self, notified: Notified) -> None:
        """Meta's delivery statuses of one notification, in the delivery log."""
        if self.addresses is not None:
            await StatusLog(self.addresses.engine).take(self.name(), list(notified.statuses))

    def to_queue(self, notified: Notified) -> Queued:
        conversation = conversation_id("whatsapp", notified.sender)
        data = {"message": notified.message, "sender": notified.sender}
        return Queued(conversation, data, _text_of(notified.message))

    def from_queue(self, data: dict[str, Any]) -> Notified:
        return Notified(data["message"], data["sender"])

    def _output(self, notified: Notified) -> tuple[WhatsAppOutput, str]:
        sender = notified.sender  # replies go to the sender
        conversation = conversation_id("whatsapp", sender)
        output = WhatsAppOutput(
            self.api,
            self.settings.phone_number_id,
            sender,
            conversation,
            self.addresses,
            self._numbers,
        )
        return output, conversation

    async def say(self, notified: Notified, text: str) -> None:
        output, conversation = self._output(notified)
        await output.send_text_message(conversation, text)

    async def reply(self, notified: Notified, response: dict[str, Any]) -> None:
        output, conversation = self._output(notified)
        await output.send_response(conversation, response)

    async def take(
        self,
        notified: Notified,
        on_new_message: OnNewMessage,
        agent: Assistant,
        hooks: ReplyHooks = IN_THE_WEBHOOK,
    ) -> Outcome:
        """A person's turn; the statuses item (never in line, ``queues``) recorded."""
        if notified.statuses:
            await self.record_statuses(notified)
            return Outcome.ANSWERED
        message, sender = notified.message, notified.sender
        output, conversation = self._output(notified)
        replies = TurnReplies(output, self.name(), hooks)
        text = _text_of(message)
        if text is None:
            if message["type"] in MEDIA_TYPES:
                logger.info("whatsapp: %s message, asked the user to write", message["type"])
                language = await conversation_language(agent, conversation)
                notice = output.send_text_message(conversation, text_only(language))
                await replies.attempt(conversation, notice)
            return Outcome.ANSWERED
        typed = await self._numbers.payload_for(conversation, text)  # taken by every message
        typed = typed if message["type"] == "text" else None
        link = whatsapp_start(text) if message["type"] == "text" and typed is None else None
        metadata: dict[str, Any] = {}
        if typed is not None:
            text = typed
        elif link is not None:
            text = link.text
            if link.language:
                metadata[LANGUAGE_HINT] = link.language
        if _forwarded(message):
            metadata[FORWARDED] = True
        if message["type"] == "location":
            metadata.update(_place(message) or {})
        incoming = user_message(
            text,
            replies,
            conversation,
            input_channel=self.name(),
            metadata=metadata,
            person=sender,
        )
        outcome = await take_turn(incoming, on_new_message, agent, self.hotline)
        if replies.forgotten:
            await self._numbers.forget(conversation)
        return outcome
