"""What the security probe sent, posted to the real blueprints on a real server.

Unsigned requests are refused before their body is read, signed ones are read bounded and
parsed without stalling others, unreadable ones get 400 (never 500; WhatsApp's, signed by
Meta, are acknowledged 200 so that Meta does not retry them), and a person whose turn
failed gets an apology in their language instead of silence.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from rasa.core.channels.channel import InputChannel, UserMessage, register
from sanic import Sanic

from bot.channels.settings import TelegramSettings, WhatsAppSettings, hotline
from bot.channels.sms_gateway import GatewaySettings, SmsGatewayInput
from bot.channels.telegram import TelegramInput
from bot.channels.transport import BODY_LIMITS, MAX_TEXT_CHARS
from bot.channels.twilio_sms import TwilioSettings, TwilioSmsInput
from bot.channels.webchat import WebchatInput
from bot.channels.whatsapp import WhatsAppInput
from bot.server import harden
from kernel.lang.texts import CATALOGUE
from tests.channels.channel_support import FakeBot, FakeProvider, fake_provider, serve_app

TRY_AGAIN = CATALOGUE.entry("channels.try_again")

GATEWAY_SECRET = "gateway-shared-secret-0123456789"
TELEGRAM_SECRET = "telegram-secret-token-0123456789"
WHATSAPP_APP_SECRET = "whatsapp-app-secret"
DEEP_JSON = ("[" * 5000 + "]" * 5000).encode()  # deep enough for a RecursionError, 10 KB


@dataclass
class Tracker:
    """What the apology reads of a conversation: its language and whether it is paused."""

    language: str | None = None
    paused: bool = False

    def get_slot(self, name: str) -> Any:
        return self.language if name == "language" else None

    def is_paused(self) -> bool:
        return self.paused


@dataclass
class TrackerStore:
    trackers: dict[str, Tracker] = field(default_factory=dict)

    async def retrieve(self, conversation: str) -> Tracker | None:
        return self.trackers.get(conversation)


@dataclass
class Bot(FakeBot):
    """A fake agent with a tracker store, as ``request.app.ctx.agent`` has."""

    tracker_store: TrackerStore = field(default_factory=TrackerStore)
    delay: float = 0.0

    async def handle_message(self, message: UserMessage) -> None:
        await asyncio.sleep(self.delay)
        await super().handle_message(message)


@dataclass
class Stack:
    base_url: str
    bot: Bot
    provider: FakeProvider

    async def post(self, channel: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                f"{self.base_url}/webhooks/{channel}/webhook", data=body, headers=headers
            ) as reply,
        ):
            return reply.status, await reply.text()

    async def sms(self, text: str, message_id: str | None = None) -> tuple[int, str]:
        body = {"from": "+93700000009", "text": text, "id": message_id or uuid.uuid4().hex}
        return await self.post(
            "sms_gateway",
            json.dumps(body).encode(),
            {"Content-Type": "application/json", "X-Gateway-Secret": GATEWAY_SECRET},
        )

    def texts(self) -> list[str]:
        return [request.json()["text"] for request in self.provider.requests]


@pytest.fixture
async def stack() -> AsyncIterator[Stack]:
    """Every channel on one hardened app, as under ``python -m bot.server run``."""
    async with running_stack(hotline=None) as running:
        yield running


@pytest.fixture
async def stack_with_hotline(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Stack]:
    """The same, with the operator's hotline set when the channels were made."""
    monkeypatch.setenv("EMERGENCY_HOTLINE", "  +93 700 000 100 ")
    async with running_stack(hotline=hotline()) as running:
        yield running


@asynccontextmanager
async def running_stack(hotline: str | None) -> AsyncIterator[Stack]:
    async with fake_provider() as provider:
        provider.status, provider.reply = 200, {"ok": True}
        channels: list[InputChannel] = [
            SmsGatewayInput(
                GatewaySettings(GATEWAY_SECRET, provider.url + "/send"), hotline=hotline
            ),
            TwilioSmsInput(
                TwilioSettings(
                    account_sid="AC" + "0" * 32,
                    auth_token="twilio-auth-token",
                    webhook_base_url="https://bot.example.org",
                    sms_from="+15005550006",
                    api_base_url=provider.url,
                )
            ),
            TelegramInput(TelegramSettings("123:TOKEN", TELEGRAM_SECRET, provider.url)),
            WhatsAppInput(
                WhatsAppSettings(WHATSAPP_APP_SECRET, "verify", "access", "1065", provider.url)
            ),
            WebchatInput(),
        ]
        bot = Bot(respond=lambda message: [{"text": "Answer."}])
        app = Sanic(f"hardening_{uuid.uuid4().hex[:8]}", configure_logging=False)
        app.ctx.agent = bot
        register(channels, app, route="/webhooks/")
        harden(app)
        async with serve_app(app) as base_url:
            yield Stack(base_url, bot, provider)


# -- authenticate first, read bounded, parse off the loop ------------------------------------


async def test_an_unsigned_30_mb_twilio_form_does_not_delay_another_persons_answer(
    stack: Stack,
) -> None:
    form = "&".join(f"k{i}=v" for i in range(3_000_000)).encode()  # 30 MB, 3 million fields
    assert len(form) > 30_000_000

    async def flood() -> int | None:
        try:
            status, _ = await stack.post(
                "twilio_sms", form, {"Content-Type": "application/x-www-form-urlencoded"}
            )
            return status
        except (aiohttp.ClientError, ConnectionError):  # refused before the body was read
            return None

    flooding = asyncio.create_task(flood())
    await asyncio.sleep(0.2)  # the flood is on its way
    started = time.monotonic()
    status, _ = await stack.sms("is the airport open")
    waited = time.monotonic() - started
    assert status == 200 and stack.texts() == ["Answer."]
    # Parsing that form on the event loop took seconds (9 s for 55 MB in the probe).
    assert waited < 1.0
    assert await flooding in (403, None)
    assert [m.text for m in stack.bot.messages] == ["is the airport open"]


@pytest.mark.parametrize(
    ("channel", "headers"),
    [
        ("twilio_sms", {"Content-Type": "application/x-www-form-urlencoded"}),
        ("sms_gateway", {"Content-Type": "application/json"}),
        ("telegram", {"Content-Type": "application/json"}),
        ("whatsapp", {"Content-Type": "application/json"}),
    ],
)
async def test_a_request_without_its_secret_or_signature_is_refused_at_once(
    stack: Stack, channel: str, headers: dict[str, str]
) -> None:
    status, _ = await stack.post(channel, b"%ZZ=1&a" if channel == "twilio_sms" else b"{", headers)
    assert status == 403
    assert stack.bot.messages == []


async def test_a_non_ascii_secret_header_is_refused_not_a_crash(stack: Stack) -> None:
    reader, writer = await asyncio.open_connection(*stack.base_url[7:].split(":"))
    writer.write(
        b"POST /webhooks/telegram/webhook HTTP/1.1\r\nHost: x\r\n"
        b"X-Telegram-Bot-Api-Secret-Token: \xe9\r\nContent-Length: 2\r\n\r\n{}"
    )
    await writer.drain()
    status_line = await reader.readline()
    writer.close()
    assert status_line.split()[1] == b"403"


async def test_a_signed_body_over_the_channels_limit_is_413(stack: Stack) -> None:
    big = json.dumps({"from": "+93700000009", "text": "z" * BODY_LIMITS["sms_gateway"]})
    status, _ = await stack.post(
        "sms_gateway",
        big.encode(),
        {"Content-Type": "application/json", "X-Gateway-Secret": GATEWAY_SECRET},
    )
    assert status == 413
    assert stack.bot.messages == []


async def test_every_channel_caps_the_text_the_assistant_reads(stack: Stack) -> None:
    status, _ = await stack.sms("z" * 16_000)  # within the body limit
    assert status == 200
    [message] = stack.bot.messages
    assert len(message.text) == MAX_TEXT_CHARS


async def test_a_typed_external_intent_reaches_the_bot_as_text(stack: Stack) -> None:
    status, _ = await stack.sms('/EXTERNAL_alert{"alert_delivery": "1"}')
    assert status == 200
    [message] = stack.bot.messages
    assert message.text == 'EXTERNAL_alert{"alert_delivery": "1"}'  # no intent: the NLU reads it


def _whatsapp_signature(body: bytes) -> str:
    digest = hmac.new(WHATSAPP_APP_SECRET.encode(), body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


@pytest.mark.parametrize("channel", ["telegram", "whatsapp", "sms_gateway", "webchat"])
async def test_deeply_nested_json_is_a_bad_request_not_a_server_error(
    stack: Stack, channel: str
) -> None:
    headers = {
        "Content-Type": "application/json",
        "X-Telegram-Bot-Api-Secret-Token": TELEGRAM_SECRET,
        "X-Hub-Signature-256": _whatsapp_signature(DEEP_JSON),
        "X-Gateway-Secret": GATEWAY_SECRET,
    }
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{stack.base_url}/webhooks/{channel}/webhook", data=DEEP_JSON, headers=headers
        ) as reply,
    ):
        # Signed by Meta, so its own: acknowledged, else Meta retries it for a week.
        assert reply.status == (200 if channel == "whatsapp" else 400)
    assert stack.bot.messages == []


# -- a failed turn ends in an apology, never in silence ----------------------------------------


def _conversation(stack: Stack) -> str:
    [message] = stack.bot.messages
    return message.sender_id


async def test_a_failing_assistant_apologises_in_the_conversations_language(
    stack_with_hotline: Stack,
) -> None:
    stack = stack_with_hotline
    await stack.sms("salam")
    stack.bot.tracker_store.trackers[_conversation(stack)] = Tracker(language="ps")
    stack.bot.fail = True

    status, _ = await stack.sms("الوتکه کله ده")
    assert status == 200  # the person was answered: a retry must not answer twice
    apology = stack.texts()[-1]
    assert apology.startswith(TRY_AGAIN["ps"])
    # The number stays whole in Pashto text: between left-to-right marks on SMS (docs/SMS.md).
    assert "\u200e+93 700 000 100\u200e" in apology


async def test_a_silent_turn_gets_the_apology_in_all_three_languages_when_none_is_known(
    stack: Stack,
) -> None:
    stack.bot.respond = lambda message: []  # an action failed: Rasa says nothing, raises nothing
    status, _ = await stack.sms("parwaz kay ast")
    assert status == 200
    [apology] = stack.texts()
    assert all(TRY_AGAIN[language] in apology for language in ("prs", "ps", "en"))


async def test_a_paused_conversation_stays_silent(stack: Stack) -> None:
    stack.bot.respond = lambda message: []
    await stack.sms("hello")
    stack.provider.requests.clear()
    stack.bot.tracker_store.trackers[_conversation(stack)] = Tracker(paused=True)
    status, _ = await stack.sms("are you there")
    assert status == 200 and stack.texts() == []


async def test_nothing_delivered_is_503_and_the_providers_retry_is_answered(
    stack: Stack,
) -> None:
    stack.provider.status = 500  # the gateway refuses every message we hand it
    stack.bot.fail = True
    first = await stack.sms("flights to doha", message_id="sms-1")
    assert first[0] == 503
    stack.provider.status, stack.bot.fail = 200, False
    retry = await stack.sms("flights to doha", message_id="sms-1")
    assert retry[0] == 200
    assert [m.text for m in stack.bot.messages] == ["flights to doha", "flights to doha"]
    assert stack.texts()[-1] == "Answer."
