"""One description per alert channel, so every alert test runs against each of them alike.

A ``ChannelCase`` knows how its provider would deliver a user's message to the webhook (signed
as the provider signs it), where the channel's messages to that user land at the fake provider,
and how the provider says "too many requests".
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

import aiohttp
from rasa.core.channels.channel import InputChannel, OutputChannel
from rasa.core.lock_store import InMemoryLockStore
from rasa.server import _get_output_channel
from rasa.shared.core.trackers import DialogueStateTracker

from bot.channels.addresses import AddressBook
from bot.channels.identity import conversation_id
from bot.channels.kannel import KannelInput, query_fields
from bot.channels.settings import KannelSettings, TelegramSettings, WhatsAppSettings
from bot.channels.sms_gateway import GatewaySettings, SmsGatewayInput
from bot.channels.telegram import SECRET_HEADER, TelegramInput
from bot.channels.twilio_sms import TwilioSettings, TwilioSmsInput, twilio_signature
from bot.channels.whatsapp import SIGNATURE_HEADER, WhatsAppInput
from tests.channels.channel_support import FakeBot, FakeProvider, RecordedRequest, fixture

TELEGRAM_TOKEN = "123456:TEST-token"
TELEGRAM_SECRET = "test_secret-token"
WA_APP_SECRET = "test-app-secret"
WA_ACCESS_TOKEN = "EAATestAccessToken"
WA_PHONE_NUMBER_ID = "106540352242922"
TWILIO_SID = "AC00000000000000000000000000000001"
TWILIO_TOKEN = "test-auth-token-0123456789abcdef"
TWILIO_PUBLIC = "https://bot.example.org"
SMS_FROM = "+15005550006"
WHATSAPP_FROM = "whatsapp:+14155238886"
GATEWAY_SECRET = "gateway-shared-secret-0123456789"
KANNEL_SECRET = "kannel-shared-secret-0123456789"
KANNEL_PASSWORD = "kannel-sendsms-password"
#: Everything that must never show up in a log line or an error answer.
SECRETS = (
    TELEGRAM_TOKEN,
    TELEGRAM_SECRET,
    WA_ACCESS_TOKEN,
    TWILIO_TOKEN,
    GATEWAY_SECRET,
    KANNEL_SECRET,
    KANNEL_PASSWORD,
)


def in_a_month() -> str:
    return (datetime.now(timezone.utc) + timedelta(days=30)).isoformat()


def remember_payload(expires_at: str | None = None) -> dict[str, Any]:
    """What ``action_subscribe_alerts`` sends in the subscribing turn."""
    return {"custom": {"remember_address": {"expires_at": expires_at or in_a_month()}}}


async def post(url: str, data: bytes, headers: dict[str, str]) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=data, headers=headers) as reply,
    ):
        return reply.status


@dataclass(frozen=True)
class ChannelCase:
    id: str
    channel: str  # the input channel's name: trigger_intent's output_channel
    address: str  # as the channel holds it, and stores it
    #: (channel, address) as the conversation id is made of them.
    hashed: tuple[str, str]
    build: Callable[[str, AddressBook | None], InputChannel]
    send_inbound: Callable[[str, str, int], Awaitable[int]]
    recipient: Callable[[RecordedRequest], str]
    text: Callable[[RecordedRequest], str]
    #: How the provider's 429 says "retry in N seconds".
    too_many: Callable[[FakeProvider, int], None]

    @property
    def conversation(self) -> str:
        """Computed when asked: the tests' CONVERSATION_ID_KEY is set per test."""
        return conversation_id(*self.hashed)

    def numbers(self) -> set[str]:
        """The address in every spelling a log line could carry."""
        plain = self.address.removeprefix("whatsapp:")
        return {self.address, plain, plain.lstrip("+"), "".join(filter(str.isdigit, plain))}


def _retry_after_header(provider: FakeProvider, seconds: int) -> None:
    provider.status, provider.headers = 429, {"Retry-After": str(seconds)}
    provider.reply = {"error": {"code": 130429, "message": "Rate limit hit"}}


# -- Telegram -------------------------------------------------------------------------------


async def _telegram_inbound(base_url: str, text: str, number: int) -> int:
    update = fixture("telegram_text_dari.json")
    update["update_id"] += number
    update["message"]["text"] = text
    return await post(
        f"{base_url}/webhooks/telegram/webhook",
        json.dumps(update).encode(),
        {SECRET_HEADER: TELEGRAM_SECRET},
    )


def _telegram_too_many(provider: FakeProvider, seconds: int) -> None:
    provider.status = 429
    provider.reply = {
        "ok": False,
        "error_code": 429,
        "description": f"Too Many Requests: retry after {seconds}",
        "parameters": {"retry_after": seconds},
    }


TELEGRAM = ChannelCase(
    id="telegram",
    channel="telegram",
    address="700000101",
    hashed=("telegram", "700000101"),
    build=lambda url, book: TelegramInput(
        TelegramSettings(TELEGRAM_TOKEN, TELEGRAM_SECRET, url), addresses=book
    ),
    send_inbound=_telegram_inbound,
    recipient=lambda request: str(request.json()["chat_id"]),
    text=lambda request: request.json()["text"],
    too_many=_telegram_too_many,
)


# -- WhatsApp Cloud API ---------------------------------------------------------------------


async def _whatsapp_inbound(base_url: str, text: str, number: int) -> int:
    import hashlib
    import hmac

    payload = fixture("whatsapp_text.json")
    message = payload["entry"][0]["changes"][0]["value"]["messages"][0]
    message.update(id=f"wamid.test{number}", timestamp=str(int(time.time())))
    message["text"]["body"] = text
    body = json.dumps(payload).encode()
    signature = "sha256=" + hmac.new(WA_APP_SECRET.encode(), body, hashlib.sha256).hexdigest()
    return await post(f"{base_url}/webhooks/whatsapp/webhook", body, {SIGNATURE_HEADER: signature})


def _whatsapp_text(request: RecordedRequest) -> str:
    body = request.json()
    if body["type"] == "interactive":
        return str(body["interactive"]["body"]["text"])
    return str(body["text"]["body"])


WHATSAPP = ChannelCase(
    id="whatsapp",
    channel="whatsapp",
    address="93700000201",
    hashed=("whatsapp", "93700000201"),
    build=lambda url, book: WhatsAppInput(
        WhatsAppSettings(WA_APP_SECRET, "verify", WA_ACCESS_TOKEN, WA_PHONE_NUMBER_ID, url),
        addresses=book,
    ),
    send_inbound=_whatsapp_inbound,
    recipient=lambda request: request.json()["to"],
    text=_whatsapp_text,
    too_many=_retry_after_header,
)


# -- Twilio (SMS and WhatsApp) --------------------------------------------------------------


def _twilio(url: str, book: AddressBook | None) -> InputChannel:
    settings = TwilioSettings(
        account_sid=TWILIO_SID,
        auth_token=TWILIO_TOKEN,
        webhook_base_url=TWILIO_PUBLIC,
        sms_from=SMS_FROM,
        whatsapp_from=WHATSAPP_FROM,
        api_base_url=url,
    )
    return TwilioSmsInput(settings, addresses=book)


def _twilio_inbound(recorded: str) -> Callable[[str, str, int], Awaitable[int]]:
    async def send(base_url: str, text: str, number: int) -> int:
        fields = fixture(recorded)
        sid = f"SM{number:032d}"
        fields.update(Body=text, MessageSid=sid, SmsMessageSid=sid, SmsSid=sid)
        path = "/webhooks/twilio_sms/webhook"
        signed = {name: [value] for name, value in fields.items()}
        signature = twilio_signature(TWILIO_TOKEN, TWILIO_PUBLIC + path, signed)
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-Twilio-Signature": signature,
        }
        return await post(base_url + path, urlencode(fields).encode(), headers)

    return send


TWILIO_SMS = ChannelCase(
    id="twilio_sms",
    channel="twilio_sms",
    address="+93700000001",
    hashed=("twilio_sms", "+93700000001"),
    build=_twilio,
    send_inbound=_twilio_inbound("twilio_sms_inbound.json"),
    recipient=lambda request: request.form()["To"],
    text=lambda request: request.form()["Body"],
    too_many=_retry_after_header,
)
TWILIO_WHATSAPP = ChannelCase(
    id="twilio_whatsapp",
    channel="twilio_sms",
    address="whatsapp:+93700000002",
    hashed=("twilio_whatsapp", "+93700000002"),
    build=_twilio,
    send_inbound=_twilio_inbound("twilio_whatsapp_inbound.json"),
    recipient=lambda request: request.form()["To"],
    text=lambda request: request.form()["Body"],
    too_many=_retry_after_header,
)


# -- SMS gateway ----------------------------------------------------------------------------


async def _gateway_inbound(base_url: str, text: str, number: int) -> int:
    body = json.dumps({"from": "+93700000003", "text": text, "id": f"g-{number}"}).encode()
    headers = {"Content-Type": "application/json", "X-Gateway-Secret": GATEWAY_SECRET}
    return await post(f"{base_url}/webhooks/sms_gateway/webhook", body, headers)


SMS_GATEWAY = ChannelCase(
    id="sms_gateway",
    channel="sms_gateway",
    address="+93700000003",
    hashed=("sms_gateway", "+93700000003"),
    build=lambda url, book: SmsGatewayInput(
        GatewaySettings(secret=GATEWAY_SECRET, send_url=url + "/send"), addresses=book
    ),
    send_inbound=_gateway_inbound,
    recipient=lambda request: request.json()["to"],
    text=lambda request: request.json()["text"],
    too_many=_retry_after_header,
)


# -- Kannel ---------------------------------------------------------------------------------


async def _kannel_inbound(base_url: str, text: str, number: int) -> int:
    """smsbox's GET for one SMS, its fields as ``kannel_conf.INCOMING_FIELDS`` asks."""
    query = urlencode(
        {
            "secret": KANNEL_SECRET,
            "from": "+93700000004",
            "to": "1234",
            "text": text.encode("utf-16-be"),
            "coding": "2",
            "charset": "UTF-16BE",
            "id": f"k-{number}",
        }
    )
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{base_url}/webhooks/kannel/receive?{query}") as reply,
    ):
        return reply.status


def _kannel_text(request: RecordedRequest) -> str:
    """The text of one sendsms GET: UTF-16BE bytes with ``coding=2``, else UTF-8."""
    fields = query_fields(request.query)
    return fields["text"].decode("utf-16-be" if fields.get("coding") == b"2" else "utf-8")


KANNEL = ChannelCase(
    id="kannel",
    channel="kannel",
    address="+93700000004",
    hashed=("kannel", "+93700000004"),
    build=lambda url, book: KannelInput(
        KannelSettings(
            secret=KANNEL_SECRET,
            username="assistant",
            password=KANNEL_PASSWORD,
            send_url=url + "/cgi-bin/sendsms",
        ),
        addresses=book,
    ),
    send_inbound=_kannel_inbound,
    recipient=lambda request: query_fields(request.query)["to"].decode(),
    text=_kannel_text,
    too_many=_retry_after_header,
)

CASES = [TELEGRAM, WHATSAPP, TWILIO_SMS, TWILIO_WHATSAPP, SMS_GATEWAY, KANNEL]


def rasa_output_channel(channel: InputChannel) -> OutputChannel:
    """The output channel Rasa's HTTP API picks for ``?output_channel=<name>`` (its own code)."""
    request = SimpleNamespace(
        args={"output_channel": channel.name()},
        app=SimpleNamespace(ctx=SimpleNamespace(input_channels=[channel])),
    )
    return _get_output_channel(request, None)  # type: ignore[arg-type]


class AlertingAgent(FakeBot):
    """A Rasa agent as far as the webhooks and ``trigger_intent`` need one: user messages are
    answered as ``FakeBot`` answers them; a triggered intent runs "action_send_alert", which
    sends ``alert`` through the output channel Rasa chose."""

    def __init__(self, alert: list[dict[str, Any]]) -> None:
        super().__init__()
        self.alert = alert
        self.triggered: list[tuple[str, Any, str]] = []
        self.lock_store = InMemoryLockStore()
        self.domain = SimpleNamespace(intents=["EXTERNAL_alert"])
        self.processor = SimpleNamespace(fetch_tracker_and_update_session=self._tracker)

    def is_ready(self) -> bool:
        return True

    @staticmethod
    async def _tracker(conversation: str) -> DialogueStateTracker:
        return DialogueStateTracker(conversation, [])

    async def trigger_intent(
        self,
        intent_name: str,
        entities: Any,
        output_channel: OutputChannel,
        tracker: DialogueStateTracker,
    ) -> None:
        self.triggered.append((intent_name, entities, tracker.sender_id))
        for message in self.alert:
            await output_channel.send_response(tracker.sender_id, dict(message))
