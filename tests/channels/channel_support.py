"""One harness for the connector tests: real servers on free local ports.

The connector's blueprint runs on a real Sanic server (as under ``rasa run``) and what it sends
out lands in a fake provider API (an aiohttp server) that records each request exactly as it
was sent: JSON for Telegram, WhatsApp and SMS gateways, form fields for Twilio. The "bot" is a
recording stand-in for Rasa's agent that answers with scripted Rasa responses, or fails like a
broken action server. Recorded provider payloads (fixtures/) are posted as the provider would.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qsl

from aiohttp import web
from rasa.core.actions.action import create_bot_utterance
from rasa.core.channels.channel import InputChannel, UserMessage, register
from sanic import Sanic

from kernel.contract import PERSON

FIXTURES = Path(__file__).parent / "fixtures"

#: What every shipped connector needs from the environment to start (fake values).
EVERY_CONNECTOR_ENV: Final = {
    "TELEGRAM_BOT_TOKEN": "123:abc",
    "TELEGRAM_SECRET_TOKEN": "secret",
    "WHATSAPP_APP_SECRET": "s",
    "WHATSAPP_VERIFY_TOKEN": "v",
    "WHATSAPP_ACCESS_TOKEN": "a",
    "WHATSAPP_PHONE_NUMBER_ID": "1",
    "TWILIO_ACCOUNT_SID": "AC1",
    "TWILIO_AUTH_TOKEN": "t",
    "TWILIO_WEBHOOK_BASE_URL": "https://bot.example.org",
    "TWILIO_FROM_NUMBER": "+15005550006",
    "SMS_GATEWAY_SECRET": "s",
    "SMS_GATEWAY_SEND_URL": "http://127.0.0.1:9/send",
    "KANNEL_SECRET": "kannel-shared-secret-0123456789",
    "KANNEL_USERNAME": "assistant",
    "KANNEL_PASSWORD": "p",
    "KANNEL_SEND_URL": "http://127.0.0.1:9/cgi-bin/sendsms",
}


def fixture(name: str) -> dict[str, Any]:
    """A recorded provider payload (a fresh copy: tests may change it), sent just now. Lines
    starting with ``//`` name where the payload's shape is documented and are not sent."""
    lines = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    text = "\n".join(line for line in lines if not line.lstrip().startswith("//"))
    data: dict[str, Any] = sent_now(json.loads(text))
    return data


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8").strip()


def sent_now(payload: Any) -> Any:
    """``payload`` with its send times (Telegram ``date``, WhatsApp ``timestamp``) set to now:
    the connectors acknowledge but do not answer a message sent hours ago."""
    if isinstance(payload, list):
        return [sent_now(item) for item in payload]
    if not isinstance(payload, dict):
        return payload
    now = int(time.time())
    fresh = {key: sent_now(value) for key, value in payload.items()}
    if isinstance(fresh.get("date"), int):
        fresh["date"] = now
    if isinstance(fresh.get("timestamp"), str) and fresh["timestamp"].isdigit():
        fresh["timestamp"] = str(now)
    return fresh


def as_rasa_sends(response: Mapping[str, Any]) -> dict[str, Any]:
    """A rendered response as Rasa hands it to an output channel: through its ``BotUttered``
    event, with every key the event adds (``buttons: None``, ``metadata``, …)."""
    return create_bot_utterance(dict(response)).message()


@dataclass
class RecordedRequest:
    """One request the connector made to the provider's API, as it arrived."""

    path: str
    headers: dict[str, str]
    body: bytes
    #: The raw query: what a GET API (Kannel's sendsms) carries instead of a body.
    query: str = ""

    def form(self) -> dict[str, str]:
        return dict(parse_qsl(self.body.decode(), keep_blank_values=True))

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class FakeProvider:
    """Records every request; answers with ``status``, ``reply`` and ``headers`` (Twilio-like
    by default; a test makes it another provider, or makes it fail, by changing them)."""

    url: str = ""
    requests: list[RecordedRequest] = field(default_factory=list)
    status: int = 201
    reply: dict[str, Any] = field(default_factory=lambda: {"sid": "SM" + "0" * 32})
    headers: dict[str, str] = field(default_factory=dict)
    #: Answers for the next requests, one each, before ``reply`` again.
    replies: list[dict[str, Any]] = field(default_factory=list)
    #: Notified at each request (``until``).
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def handle(self, request: web.Request) -> web.Response:
        recorded = RecordedRequest(
            request.path, dict(request.headers), await request.read(), request.query_string
        )
        async with self.changed:
            self.requests.append(recorded)
            self.changed.notify_all()
        reply = self.replies.pop(0) if self.replies else self.reply
        return web.json_response(reply, status=self.status, headers=self.headers)

    async def until(self, condition: Callable[[], bool], timeout: float = 10.0) -> None:
        """Until ``condition`` holds, checked at each request the provider gets: no clock."""
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(condition), timeout)


@asynccontextmanager
async def fake_provider() -> AsyncIterator[FakeProvider]:
    provider = FakeProvider()
    app = web.Application()
    app.router.add_post("/{tail:.*}", provider.handle)
    app.router.add_get("/{tail:.*}", provider.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    provider.url = f"http://{host}:{port}"
    try:
        yield provider
    finally:
        await runner.cleanup()


Responder = Callable[[UserMessage], list[dict[str, Any]]]


@dataclass
class FakeBot:
    """Stands in for Rasa's agent (``app.ctx.agent``): records messages, sends scripted
    responses through the message's output channel as the agent does, or fails like a broken
    action server."""

    respond: Responder = field(default=lambda message: [])
    messages: list[UserMessage] = field(default_factory=list)
    fail: bool = False

    async def handle_message(self, message: UserMessage) -> None:
        self.messages.append(message)
        if self.fail:
            raise RuntimeError("the bot broke")
        for response in self.respond(message):
            await message.output_channel.send_response(message.sender_id, as_rasa_sends(response))


@dataclass
class Tracker:
    """What a connector reads of a conversation: its language."""

    language: str | None = None

    def get_slot(self, name: str) -> Any:
        return self.language if name == "language" else None

    def is_paused(self) -> bool:
        return False


@dataclass
class TrackerStore:
    trackers: dict[str, Tracker] = field(default_factory=dict)

    async def retrieve(self, conversation: str) -> Tracker | None:
        return self.trackers.get(conversation)


@dataclass
class KnowingBot(FakeBot):
    """Answers every message with one reply, and knows each conversation's language (what
    a connector's own notices are written in)."""

    tracker_store: TrackerStore = field(default_factory=TrackerStore)

    def __post_init__(self) -> None:
        self.respond = lambda message: [{"text": "answer"}]


def replying(replies: list[dict[str, Any]] | None = None) -> FakeBot:
    """A bot that answers every message with the same ``replies`` (Rasa response dicts)."""
    scripted = list(replies or [])
    return FakeBot(respond=lambda message: scripted)


#: The ``serve`` fixture: the channel on a real server; gives its ``/webhooks/<name>`` URL.
Serve = Callable[[InputChannel, FakeBot], Awaitable[str]]


@asynccontextmanager
async def serve_channel(channel: InputChannel, bot: Any) -> AsyncIterator[str]:
    """The channel registered as ``rasa run`` registers it; yields the server's base URL."""
    app = Sanic(f"test_{channel.name()}_{uuid.uuid4().hex[:8]}", configure_logging=False)
    app.ctx.agent = bot
    register([channel], app, route="/webhooks/")
    async with serve_app(app) as base_url:
        yield base_url


@asynccontextmanager
async def serve_app(app: Sanic) -> AsyncIterator[str]:
    """Runs ``app`` on a free local port; yields its base URL. Stopping it runs the
    connectors' ``after_server_stop`` listeners (API sessions and memory closed).

    Sanic rewrites its request handler on startup and keeps the original only in test mode,
    which several apps in one process need (as sanic-testing does it).
    """
    test_mode, Sanic.test_mode = Sanic.test_mode, True
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    try:
        server = await app.create_server(sock=sock, return_asyncio_server=True, access_log=False)
        assert server is not None
        await server.startup()
        await server.before_start()
        await server.after_start()
        try:
            yield f"http://127.0.0.1:{sock.getsockname()[1]}"
        finally:
            await server.before_stop()
            closing = server.close()
            if closing is not None:
                await closing
            await server.wait_closed()
            await server.after_stop()
    finally:
        sock.close()
        Sanic.test_mode = test_mode


def without_person(metadata: dict[str, Any]) -> dict[str, Any]:
    """A message's metadata without its ``person`` tag, which must be there, and only as a keyed
    hash (32 hexadecimal characters), never the address it was made from."""
    rest = dict(metadata)
    person = rest.pop(PERSON)
    assert isinstance(person, str) and len(person) == 32 and int(person, 16) >= 0
    return rest
