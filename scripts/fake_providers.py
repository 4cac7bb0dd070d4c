"""Local stand-ins for Telegram's Bot API, the WhatsApp Cloud API, an SMS gateway and Twilio.

For the integration tests and ``make bench-alerts``: the channels send to these instead of the
real providers (``TELEGRAM_API_BASE_URL``, ``WHATSAPP_API_BASE_URL``, ``SMS_GATEWAY_SEND_URL``,
``TWILIO_API_BASE_URL``).
They record every message with its arrival time and, like the real ones, refuse with 429 what
goes over a provider's rate (Telegram: 30 a second overall, 1 a second per chat), so a
benchmark that respected the limits shows zero refusals.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import threading
import time
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiohttp
from aiohttp import web

SMS_SECRET = "gateway-secret-for-tests"
#: Made-up Twilio credentials: the account in the Messages API path, the token signs webhooks.
TWILIO_ACCOUNT_SID = "AC" + "0" * 32
TWILIO_AUTH_TOKEN = "twilio-auth-token-for-tests"
TWILIO_FROM_NUMBER = "+15005550006"
#: The channels that carry alerts, as a credentials file, and made-up secrets for them.
CREDENTIALS = """\
rest:
bot.channels.telegram.TelegramInput:
bot.channels.whatsapp.WhatsAppInput:
bot.channels.sms_gateway.SmsGatewayInput:
"""
CHANNEL_SECRETS = {
    "TELEGRAM_BOT_TOKEN": "123456:fake",
    "TELEGRAM_SECRET_TOKEN": "telegram-secret",
    "WHATSAPP_APP_SECRET": "whatsapp-app-secret",
    "WHATSAPP_VERIFY_TOKEN": "whatsapp-verify",
    "WHATSAPP_ACCESS_TOKEN": "whatsapp-access",
    "WHATSAPP_PHONE_NUMBER_ID": "1000000001",
}


#: The header Telegram carries the webhook's secret in.
TELEGRAM_SECRET_HEADER = {
    "X-Telegram-Bot-Api-Secret-Token": CHANNEL_SECRETS["TELEGRAM_SECRET_TOKEN"],
}


def telegram_update(
    chat: int, text: str, app_language: str = "fa", forwarded: bool = False
) -> dict[str, Any]:
    """A private chat's message as Telegram posts it to a webhook; ``forwarded``: passed on
    from someone who hides their account (``forward_origin``)."""
    now = int(time.time())
    message: dict[str, Any] = {
        "message_id": secrets.randbelow(10**6),
        "date": now,
        "chat": {"id": chat, "type": "private"},
        "from": {"id": chat, "is_bot": False, "first_name": "A", "language_code": app_language},
        "text": text,
    }
    if forwarded:
        message["forward_origin"] = {"type": "hidden_user", "sender_user_name": "B", "date": now}
    return {"update_id": secrets.randbelow(10**9), "message": message}


async def send_telegram(
    http: aiohttp.ClientSession,
    rasa_url: str,
    chat: int,
    text: str,
    app_language: str = "fa",
    forwarded: bool = False,
) -> None:
    """A private chat's message, posted to Rasa's Telegram webhook (``telegram_update``)."""
    await post_telegram(http, rasa_url, telegram_update(chat, text, app_language, forwarded))


async def post_telegram(http: aiohttp.ClientSession, rasa_url: str, update: dict[str, Any]) -> None:
    """An update of any kind (a text, a photo with its caption...), posted to Rasa's Telegram
    webhook with the secret Telegram sends."""
    url = f"{rasa_url}/webhooks/telegram/webhook"
    async with http.post(url, json=update, headers=TELEGRAM_SECRET_HEADER) as response:
        assert response.status == 200, f"telegram webhook: HTTP {response.status}"


async def send_whatsapp(
    http: aiohttp.ClientSession, rasa_url: str, number: str, text: str, forwarded: bool = False
) -> None:
    """A text from ``number``, posted to Rasa's WhatsApp webhook as Meta posts it (signed with
    the app secret); ``forwarded``: ``context.forwarded``."""
    message: dict[str, Any] = {
        "from": number,
        "id": f"wamid.{secrets.token_hex(16)}",
        "timestamp": str(int(time.time())),
        "type": "text",
        "text": {"body": text},
    }
    if forwarded:
        message["context"] = {"forwarded": True}
    await post_whatsapp(http, rasa_url, number, message)


async def post_whatsapp(
    http: aiohttp.ClientSession, rasa_url: str, number: str, message: dict[str, Any]
) -> None:
    """A message of any type from ``number`` (a text, an image with its caption...), posted to
    Rasa's WhatsApp webhook as Meta posts it (signed with the app secret)."""
    value = {
        "messaging_product": "whatsapp",
        "metadata": {"phone_number_id": CHANNEL_SECRETS["WHATSAPP_PHONE_NUMBER_ID"]},
        "contacts": [{"wa_id": number}],
        "messages": [message],
    }
    change = {"field": "messages", "value": value}
    body = json.dumps({"object": "whatsapp_business_account", "entry": [{"changes": [change]}]})
    secret = CHANNEL_SECRETS["WHATSAPP_APP_SECRET"].encode()
    signature = "sha256=" + hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()
    headers = {"X-Hub-Signature-256": signature, "Content-Type": "application/json"}
    url = f"{rasa_url}/webhooks/whatsapp/webhook"
    async with http.post(url, data=body.encode(), headers=headers) as response:
        assert response.status == 200, f"whatsapp webhook: HTTP {response.status}"


@dataclass(frozen=True)
class Received:
    channel: str
    to: str
    text: str
    at: float
    template: dict[str, Any] | None = None
    #: The titles of the buttons it carried (a Telegram keyboard, WhatsApp reply buttons).
    buttons: tuple[str, ...] = ()


@dataclass
class Window:
    """Arrivals in the last second, overall and per recipient."""

    limit: float | None
    per_recipient: float | None = None
    overall: deque[float] = field(default_factory=deque)
    by_recipient: dict[str, deque[float]] = field(default_factory=lambda: defaultdict(deque))

    def admits(self, to: str, now: float) -> bool:
        for times, limit in (
            (self.overall, self.limit),
            (self.by_recipient[to], self.per_recipient),
        ):
            while times and times[0] <= now - 1.0:
                times.popleft()
            # A message arriving while the last second already holds `limit` is one too many.
            if limit is not None and len(times) >= limit + 1:
                return False
        self.overall.append(now)
        self.by_recipient[to].append(now)
        return True


class FakeProviders:
    """One aiohttp application serving all three providers; ``received`` lists what came in."""

    def __init__(
        self,
        telegram_rate: float | None = 30,
        whatsapp_rate: float | None = 80,
        sms_rate: float | None = None,
        fail_every: int = 0,
        telegram_per_chat: float | None = 1,
    ) -> None:
        self.received: list[Received] = []
        self.refused: list[tuple[str, str, float]] = []
        self._windows = {
            # Telegram allows one message a second in a chat (bursts briefly tolerated: +1).
            "telegram": Window(telegram_rate, per_recipient=telegram_per_chat),
            "whatsapp": Window(whatsapp_rate),
            "sms_gateway": Window(sms_rate),
            "twilio_sms": Window(sms_rate),
        }
        self._fail_every = fail_every
        self._count = 0
        #: The address ``start`` listens on (a cluster run's: this machine's on its bridge).
        self.host = "127.0.0.1"
        #: Until when (``time.monotonic``) every provider is down: each request is answered
        #: 502 with a proxy's page, as when a provider's front stands but its API does not.
        self.down_until = 0.0
        #: Requests answered 502 while down, per channel.
        self.down_refused: Counter[str] = Counter()
        #: The path of each request no stand-in here serves (a Bot API ``getFile``, a media
        #: download), answered 404: what the channels must never ask.
        self.unserved: list[str] = []
        self.app = web.Application()
        self.app.router.add_post("/telegram/bot{token}/sendMessage", self.telegram)
        self.app.router.add_post("/telegram/bot{token}/answerCallbackQuery", self.ok)
        self.app.router.add_post("/whatsapp/{phone}/messages", self.whatsapp)
        self.app.router.add_post("/sms/send", self.sms)
        self.app.router.add_post(
            "/twilio/2010-04-01/Accounts/{account}/Messages.json", self.twilio_message
        )
        self.app.router.add_route("*", "/{anything:.*}", self.unknown)  # last: all the rest
        self._runner: web.AppRunner | None = None

    @staticmethod
    def environment(base_url: str) -> dict[str, str]:
        """What the Rasa process needs to send here instead of to the real providers."""
        return {
            "TELEGRAM_API_BASE_URL": f"{base_url}/telegram",
            "WHATSAPP_API_BASE_URL": f"{base_url}/whatsapp",
            "SMS_GATEWAY_SEND_URL": f"{base_url}/sms/send",
            "SMS_GATEWAY_SECRET": SMS_SECRET,
        }

    @staticmethod
    def twilio_environment(base_url: str, webhook_base_url: str) -> dict[str, str]:
        """What the Rasa process needs for the ``twilio_sms`` channel to send here."""
        return {
            "TWILIO_API_BASE_URL": f"{base_url}/twilio",
            "TWILIO_ACCOUNT_SID": TWILIO_ACCOUNT_SID,
            "TWILIO_AUTH_TOKEN": TWILIO_AUTH_TOKEN,
            "TWILIO_FROM_NUMBER": TWILIO_FROM_NUMBER,
            "TWILIO_WEBHOOK_BASE_URL": webhook_base_url,
        }

    async def start(self, port: int) -> str:
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, port).start()
        return f"http://{self.host}:{port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def to(self, channel: str, address: str) -> list[Received]:
        return [r for r in self.received if r.channel == channel and r.to == address]

    def _down(self, channel: str) -> web.Response | None:
        """The 502 of a provider that is down; None while it is up."""
        if time.monotonic() >= self.down_until:
            return None
        self.down_refused[channel] += 1
        return web.Response(status=502, text="<html><body>502 Bad Gateway</body></html>")

    def _admit(self, channel: str, to: str) -> bool:
        now = time.monotonic()
        self._count += 1
        if self._fail_every and self._count % self._fail_every == 0:
            self.refused.append((channel, to, now))
            return False
        if not self._windows[channel].admits(to, now):
            self.refused.append((channel, to, now))
            return False
        return True

    async def unknown(self, request: web.Request) -> web.Response:
        self.unserved.append(request.path)
        return web.Response(status=404)

    async def ok(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": True, "result": True})

    async def telegram(self, request: web.Request) -> web.Response:
        if (down := self._down("telegram")) is not None:
            return down
        body = await request.json()
        to = str(body.get("chat_id"))
        if not self._admit("telegram", to):
            return web.json_response(
                {
                    "ok": False,
                    "error_code": 429,
                    "description": "Too Many Requests: retry after 1",
                    "parameters": {"retry_after": 1},
                },
                status=429,
            )
        keyboard = (body.get("reply_markup") or {}).get("keyboard") or []
        titles = tuple(str(button.get("text")) for row in keyboard for button in row)
        text = str(body.get("text", ""))
        self.received.append(Received("telegram", to, text, time.monotonic(), buttons=titles))
        return web.json_response({"ok": True, "result": {"message_id": len(self.received)}})

    async def whatsapp(self, request: web.Request) -> web.Response:
        if (down := self._down("whatsapp")) is not None:
            return down
        body = await request.json()
        to = str(body.get("to"))
        if not self._admit("whatsapp", to):
            error = {"message": "(#130429) Rate limit hit", "code": 130429}
            return web.json_response({"error": error}, status=429)
        text = str((body.get("text") or {}).get("body", ""))
        template = body.get("template") if body.get("type") == "template" else None
        interactive = body.get("interactive") or {}
        titles: tuple[str, ...] = ()
        if interactive:  # reply buttons or a list: the text is its body
            text = str((interactive.get("body") or {}).get("text", ""))
            action = interactive.get("action") or {}
            rows = [b.get("reply") or {} for b in action.get("buttons") or []] + [
                row for section in action.get("sections") or [] for row in section.get("rows", [])
            ]
            titles = tuple(str(row.get("title")) for row in rows)
        self.received.append(
            Received("whatsapp", to, text, time.monotonic(), template, buttons=titles)
        )
        return web.json_response({"messages": [{"id": f"wamid.{len(self.received)}"}]})

    async def sms(self, request: web.Request) -> web.Response:
        if (down := self._down("sms_gateway")) is not None:
            return down
        if request.headers.get("X-Gateway-Secret") != SMS_SECRET:
            return web.Response(status=403)
        body = await request.json()
        to = str(body.get("to"))
        if not self._admit("sms_gateway", to):
            return web.Response(status=429, headers={"Retry-After": "1"})
        self.received.append(
            Received("sms_gateway", to, str(body.get("text", "")), time.monotonic())
        )
        return web.json_response({"status": "queued"})

    async def twilio_message(self, request: web.Request) -> web.Response:
        """Twilio's Messages API: form fields To, From, Body; 201 with the message's sid."""
        if (down := self._down("twilio_sms")) is not None:
            return down
        if request.match_info["account"] != TWILIO_ACCOUNT_SID:
            return web.json_response({"code": 20404, "message": "not found"}, status=404)
        form = await request.post()
        to = str(form.get("To", ""))
        if not self._admit("twilio_sms", to):
            return web.json_response({"code": 20429, "message": "Too Many Requests"}, status=429)
        self.received.append(
            Received("twilio_sms", to, str(form.get("Body", "")), time.monotonic())
        )
        return web.json_response({"sid": f"SM{len(self.received):032d}"}, status=201)


class Served(Protocol):
    """A stand-in server: ``start`` on a port gives its base URL."""

    async def start(self, port: int) -> str: ...

    async def stop(self) -> None: ...


class ProvidersInThread:
    """The fake providers (or another stand-in server) on their own event loop in a thread,
    for synchronous test fixtures."""

    def __init__(self, providers: Served) -> None:
        self.providers = providers
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def start(self, port: int) -> str:
        self._thread.start()
        return asyncio.run_coroutine_threadsafe(self.providers.start(port), self._loop).result(10)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.providers.stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
