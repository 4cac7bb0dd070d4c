"""Twilio SMS and Twilio WhatsApp in one connector (``/webhooks/twilio_sms/webhook``).

Better than Rasa's Twilio connector, which checks no signature and crashes on an empty ``Body``:
every request must carry a valid ``X-Twilio-Signature`` (HMAC-SHA1 of the public URL and the
sorted form fields, keyed with the auth token), or it gets 403 before anything reaches the bot.
A message Twilio delivers twice (same ``MessageSid``) is answered once. Replies go out through
the Messages API: SMS cut to three segments with MORE, WhatsApp as plain text messages.
Some long SMS arrive with their ``Body`` base64-encoded and nothing saying so
(``concatenated_text``); an SMS from an operator's sender name or a short code is acknowledged
and not answered (``sms_base.answerable``).

Alerts and caseworkers' replies ask Twilio for their delivery statuses (``StatusCallback``):
``/webhooks/twilio_sms/status`` takes them, signed like the messages, and records each on its
outbox row by ``MessageSid`` (``bot/channels/statuses.py``), never the number it names.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import hashlib
import hmac
import logging
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import aiohttp
from rasa.core.channels.channel import OutputChannel
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertNotDelivered, AlertOutput
from bot.channels.blueprints import Blueprint
from bot.channels.identity import conversation_id
from bot.channels.intake.line import Queued
from bot.channels.settings import TwilioSettings
from bot.channels.sms_base import TextMessageOutput, answerable, phone_key, take_text_turn
from bot.channels.statuses import StatusLog, provider_status
from bot.channels.transport import MalformedRequest, ProviderApi, parse_form
from bot.channels.turns import IN_THE_WEBHOOK, Assistant, OnNewMessage, Outcome, ReplyHooks
from bot.channels.webhook import Forged, Inbound, QueuedInput, Received, Refused, read_parsed
from kernel.delivery_statuses import person_gone
from kernel.sms_render import ReplyMemory, ReplyRenderer

logger = logging.getLogger(__name__)

CHANNEL: Final = "twilio_sms"
#: Conversation ids of WhatsApp users carry their own prefix: same number, other conversation.
WHATSAPP_CHANNEL: Final = "twilio_whatsapp"
WHATSAPP_PREFIX: Final = "whatsapp:"
SIGNATURE_HEADER: Final = "X-Twilio-Signature"
#: An empty TwiML document: "no reply here", the replies go through the Messages API.
EMPTY_TWIML: Final = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>'
#: The shortest base64 a concatenated SMS can be: it carries more than one segment holds, so
#: at least 71 characters (a UCS-2 segment holds 70), at least 71 bytes of UTF-8, 96 in base64.
MIN_BASE64_BODY: Final = 96
_BASE64_BODY: Final = re.compile(r"[A-Za-z0-9+/]+={0,2}")


def concatenated_text(body: str) -> str:
    """The text of an SMS ``Body``: Twilio hands some long concatenated SMS over base64-encoded,
    and no field marks them (its webhook documentation names none; courier, which RapidPro
    uses, decodes them on sight). A body is read as base64 only when a person cannot have
    written it: one unbroken run of base64's alphabet, a multiple of four, long enough to be
    concatenated, decoding to UTF-8 text without control characters. Words, spaces,
    punctuation and Dari or Pashto letters are never base64. An incomplete last letter (the
    encoded text cut inside one) is dropped; anything else that is not UTF-8 keeps the body."""
    candidate = body.strip().replace("\r", "").replace("\n", "")
    if len(candidate) < MIN_BASE64_BODY or len(candidate) % 4:
        return body
    if not _BASE64_BODY.fullmatch(candidate):
        return body
    try:
        raw = base64.b64decode(candidate, validate=True)
        text = codecs.getincrementaldecoder("utf-8")().decode(raw, final=False)
    except (binascii.Error, UnicodeDecodeError):
        return body
    if not text or any(_unwritten(letter) for letter in text):
        return body
    return text


def _unwritten(letter: str) -> bool:
    """A control character (other than a line break or a tab), or a code point no text holds:
    what decoding bytes that were never text gives. The zero-width non-joiner of "پاسپورت‌ها"
    and the direction marks are format characters, written."""
    return letter not in "\n\r\t" and unicodedata.category(letter) in {"Cc", "Cn", "Co", "Cs"}


#: Where Twilio posts the delivery statuses of what we send (under ``/webhooks/twilio_sms``).
STATUS_PATH: Final = "/status"


def twilio_signature(auth_token: str, url: str, params: Mapping[str, Sequence[str]]) -> str:
    """Base64 HMAC-SHA1 of the URL followed by each field name and value, sorted by name."""
    data = url + "".join(name + value for name in sorted(params) for value in sorted(params[name]))
    digest = hmac.new(auth_token.encode(), data.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


def _with_and_without_port(url: str) -> list[str]:
    """Twilio signs some URLs with the default port and some without; accept both."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    default = 443 if parts.scheme == "https" else 80
    with_port = urlunsplit(parts._replace(netloc=f"{host}:{parts.port or default}"))
    without_port = urlunsplit(parts._replace(netloc=host)) if parts.port == default else url
    return list(dict.fromkeys([url, with_port, without_port]))


def signature_valid(
    auth_token: str, url: str, params: Mapping[str, Sequence[str]], signature: str | None
) -> bool:
    """True when ``signature`` is Twilio's for this URL and these fields (constant-time)."""
    if not signature:
        return False
    return any(
        hmac.compare_digest(twilio_signature(auth_token, candidate, params), signature)
        for candidate in _with_and_without_port(url)
    )


def twilio_reason(answer: object) -> str:
    """Twilio's error code only: its error message may quote the number."""
    code = answer.get("code") if isinstance(answer, dict) else None
    return f"Twilio error {code}"


def twilio_refused_for_good(status: int, answer: object) -> bool:
    """Whether Twilio refused the recipient itself: 21610, the person texted STOP to our
    number (Twilio sends them nothing until they text START)."""
    code = answer.get("code") if isinstance(answer, dict) else None
    return person_gone(None if code is None else str(code))


def sent_sid(answer: dict[str, Any]) -> str | None:
    """The ``sid`` Twilio gave a message it took: the ``MessageSid`` of its statuses."""
    found = answer["sid"]
    return found if isinstance(found, str) else None


def messages_api(settings: TwilioSettings) -> ProviderApi:
    """Twilio's Messages API (``POST .../Accounts/{sid}/Messages.json``, form fields)."""
    return ProviderApi(
        f"{settings.api_base_url}/2010-04-01/Accounts/{settings.account_sid}",
        auth=aiohttp.BasicAuth(settings.account_sid, settings.auth_token),
        reason=twilio_reason,
        refused_for_good=twilio_refused_for_good,
        message_id=sent_sid,
    )


class TwilioOutput(TextMessageOutput):
    """Replies to the one phone (or WhatsApp address) whose message is being answered."""

    @classmethod
    def name(cls) -> str:
        return CHANNEL

    def __init__(
        self,
        api: ProviderApi,
        renderer: ReplyRenderer,
        conversation: str,
        to: str,
        sender: str,
        addresses: AddressBook | None = None,
        status_callback: str | None = None,
    ) -> None:
        super().__init__(api, renderer, conversation, to, addresses)
        self.sender = sender
        self.status_callback = status_callback

    async def deliver(self, text: str) -> None:
        form = {"To": self.to, "From": self.sender, "Body": text}
        if self.status_callback:
            form["StatusCallback"] = self.status_callback
        await self.api.send("/Messages.json", form, call="Messages API", form=True)


class TwilioAlertOutput(AlertOutput):
    """Alerts to a stored number: SMS cut to three segments (MORE fetches the rest) or, for a
    ``whatsapp:`` address, plain WhatsApp messages.

    Twilio WhatsApp has no template support here: outside the 24-hour window the alert goes
    out as free text and fails with Twilio error 63016, which Twilio reports afterwards on the
    message (status ``failed``), not in its answer here (docs/SMS.md, "Alerts").
    """

    @classmethod
    def name(cls) -> str:
        return CHANNEL

    def __init__(self, channel: TwilioSmsInput) -> None:
        super().__init__(channel.addresses)
        self._channel = channel

    async def open(self, conversation: str, address: str) -> OutputChannel:
        channel = self._channel
        if not address.startswith(WHATSAPP_PREFIX):
            renderer, sender = channel.sms, channel.settings.sms_from
        elif channel.settings.whatsapp_from:
            renderer, sender = channel.whatsapp, _whatsapp(channel.settings.whatsapp_from)
        else:
            # A reply comes from the number the user wrote to; an alert has no such message.
            logger.warning("%s: alert to %s needs TWILIO_WHATSAPP_FROM", CHANNEL, conversation)
            raise AlertNotDelivered(f"{CHANNEL}: no WhatsApp sender configured")
        # Sent out of turn: MORE then fetches this message's rest, not an earlier reply's.
        await renderer.memory.new_question(conversation)
        return TwilioOutput(
            channel.api,
            renderer,
            conversation,
            address,
            sender,
            status_callback=channel.status_url(),
        )


def _whatsapp(number: str) -> str:
    return number if number.startswith(WHATSAPP_PREFIX) else WHATSAPP_PREFIX + number


@dataclass(frozen=True)
class TwilioMessage:
    """One incoming SMS or WhatsApp message as Twilio posted it (the last value of each field)."""

    fields: Mapping[str, str]
    sender: str
    message_sid: str
    #: ``Body``, decoded when Twilio base64-encoded it (``concatenated_text``).
    text: str


class TwilioSmsInput(QueuedInput[TwilioSettings, TwilioMessage]):
    """Receives Twilio's incoming-message webhook for SMS and WhatsApp numbers; the answer is
    an empty TwiML, replies go by the Messages API."""

    credential = SIGNATURE_HEADER

    @classmethod
    def name(cls) -> str:
        return CHANNEL

    @classmethod
    def load_settings(cls, credentials: dict[str, Any] | None) -> TwilioSettings:
        return TwilioSettings.load(credentials)

    def set_up(self) -> None:
        # One memory for retries and both renderers: Redis in production (bot/channels/memory.py).
        self.api = messages_api(self.settings)
        self.sms = ReplyRenderer(ReplyMemory(self.memory), paged=True)
        self.whatsapp = ReplyRenderer(ReplyMemory(self.memory), paged=False)

    def get_output_channel(self) -> OutputChannel:
        """Where Rasa's ``trigger_intent`` sends alerts: a conversation id is a one-way hash,
        so the address comes from the address book (raises ``AlertNotDelivered``)."""
        return TwilioAlertOutput(self)

    def public_url(self, request: Request) -> str:
        """The URL Twilio called, as seen from outside the proxy (what Twilio signed)."""
        query = f"?{request.query_string}" if request.query_string else ""
        return f"{self.settings.webhook_base_url}{request.path}{query}"

    def status_url(self) -> str:
        """The public URL of the status route, as Twilio is asked to call (and signs) it."""
        return f"{self.settings.webhook_base_url}/webhooks/{CHANNEL}{STATUS_PATH}"

    def routes(self, blueprint: Blueprint, on_new_message: OnNewMessage) -> None:
        @blueprint.route(STATUS_PATH, methods=["POST"], stream=True)
        async def status(request: Request) -> HTTPResponse:
            return await self.take_status(request)

    async def take_status(self, request: Request) -> HTTPResponse:
        """One ``StatusCallback``: ``MessageSid``, ``MessageStatus`` and, for a failure,
        ``ErrorCode`` are read; ``To`` and ``From`` never leave the request."""
        if not self.authenticate(request):
            return self._forged("without")

        def parse(body: bytes) -> dict[str, str]:
            form = parse_form(body)
            signature = request.headers.get(SIGNATURE_HEADER)
            if not signature_valid(
                self.settings.auth_token, self.public_url(request), form, signature
            ):
                raise Forged
            return {name: values[-1] for name, values in form.items()}

        try:
            fields = await read_parsed(request, self.body_limit(), parse)
        except Forged:
            return self._forged("with a wrong")
        except Refused as refusal:
            return refusal.answer()
        sid = fields.get("MessageSid") or fields.get("SmsSid")
        found = provider_status(
            sid, fields.get("MessageStatus") or fields.get("SmsStatus"), fields.get("ErrorCode")
        )
        if found is not None and self.addresses is not None:
            await StatusLog(self.addresses.engine).take(CHANNEL, [found])
        return response.empty()

    def authenticate(self, request: Request) -> bool:
        """The signature covers the parsed fields, so it is checked in ``parse``; a request
        without one is refused before a byte of its body is read."""
        return bool(request.headers.get(SIGNATURE_HEADER))

    def parse(self, body: bytes, request: Request) -> list[Inbound[TwilioMessage]]:
        """The message of a signed form; none for a delivery-status callback, nor for an SMS
        from a sender no reply reaches."""
        form = parse_form(body)
        signature = request.headers.get(SIGNATURE_HEADER)
        if not signature_valid(self.settings.auth_token, self.public_url(request), form, signature):
            raise Forged
        fields = {name: values[-1] for name, values in form.items()}
        if "MessageStatus" in fields or fields.get("SmsStatus", "received") != "received":
            # A delivery-status callback pointed at this URL: not a message from a person.
            return []
        sender = fields.get("From", "").strip()
        message_sid = fields.get("MessageSid") or fields.get("SmsMessageSid") or ""
        if not sender or not message_sid:
            raise MalformedRequest("From and MessageSid are required")
        text = fields.get("Body", "")
        if not sender.startswith(WHATSAPP_PREFIX):
            if not answerable(CHANNEL, sender):
                return []
            text = concatenated_text(text)
        return [Inbound(TwilioMessage(fields, sender, message_sid, text), delivery=message_sid)]

    def answer(self, received: Received[TwilioMessage]) -> HTTPResponse:
        return response.text(EMPTY_TWIML, content_type="text/xml")

    def to_queue(self, message: TwilioMessage) -> Queued:
        output, text = self._output(message)
        data = {
            "fields": dict(message.fields),
            "sender": message.sender,
            "message_sid": message.message_sid,
            "text": message.text,
        }
        return Queued(output.conversation, data, text)

    def from_queue(self, data: dict[str, Any]) -> TwilioMessage:
        return TwilioMessage(data["fields"], data["sender"], data["message_sid"], data["text"])

    def _output(self, message: TwilioMessage) -> tuple[TwilioOutput, str]:
        """The output that answers ``message``'s sender, and the text as the bot reads it."""
        fields, sender = message.fields, message.sender
        whatsapp = sender.startswith(WHATSAPP_PREFIX)
        number = sender.removeprefix(WHATSAPP_PREFIX)
        conversation = conversation_id(WHATSAPP_CHANNEL if whatsapp else CHANNEL, phone_key(number))
        text = message.text
        if whatsapp:
            renderer = self.whatsapp
            reply_from = _whatsapp(self.settings.whatsapp_from or fields.get("To", ""))
        else:
            renderer = self.sms
            reply_from = self.settings.sms_from
            text = text.replace("¡", "@")  # some carriers turn "@" into "¡" (as Rasa's connector)
        output = TwilioOutput(self.api, renderer, conversation, sender, reply_from, self.addresses)
        return output, text

    async def say(self, message: TwilioMessage, text: str) -> None:
        output, _ = self._output(message)
        await output.deliver(text)

    async def reply(self, message: TwilioMessage, response: dict[str, Any]) -> None:
        output, _ = self._output(message)
        await output.send_response(output.conversation, response)

    async def take(
        self,
        message: TwilioMessage,
        on_new_message: OnNewMessage,
        agent: Assistant,
        hooks: ReplyHooks = IN_THE_WEBHOOK,
    ) -> Outcome:
        output, text = self._output(message)
        whatsapp = message.sender.startswith(WHATSAPP_PREFIX)
        number = message.sender.removeprefix(WHATSAPP_PREFIX)
        return await take_text_turn(
            output,
            text,
            on_new_message,
            agent,
            message_id=message.message_sid,
            hotline=self.hotline,
            # No language hint: +93 numbers write Dari and Pashto alike (docs/SMS.md).
            metadata={"transport": "whatsapp" if whatsapp else "sms"},
            person=number,
            hooks=hooks,
        )
