"""Real servers on free local ports for the SMS connector tests.

The connector's blueprint runs on a real sanic server (as under ``rasa run``) and its replies go
to a fake provider API (an aiohttp server) that records exactly what it was sent. The "bot" is
a recording ``on_new_message`` that answers with scripted Rasa responses.
"""

from __future__ import annotations

import json
import socket
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from rasa.core.channels.channel import InputChannel, UserMessage, register
from sanic import Sanic

from tests.channels.channel_support import as_rasa_sends, sent_now

FIXTURES = Path(__file__).parent / "fixtures"


def fixture_json(name: str) -> dict[str, Any]:
    """A recorded payload, sent just now (``channel_support.sent_now``)."""
    data: dict[str, Any] = sent_now(json.loads((FIXTURES / name).read_text(encoding="utf-8")))
    return data


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8").strip()


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: bytes

    def form(self) -> dict[str, str]:
        from urllib.parse import parse_qsl

        return dict(parse_qsl(self.body.decode(), keep_blank_values=True))

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class FakeProvider:
    """Records every request; answers with ``status`` and ``reply`` (Twilio-like by default)."""

    url: str = ""
    requests: list[RecordedRequest] = field(default_factory=list)
    status: int = 201
    reply: dict[str, Any] = field(default_factory=lambda: {"sid": "SM" + "0" * 32})
    headers: dict[str, str] = field(default_factory=dict)

    async def handle(self, request: web.Request) -> web.Response:
        self.requests.append(
            RecordedRequest(request.path, dict(request.headers), await request.read())
        )
        return web.json_response(self.reply, status=self.status, headers=self.headers)


@asynccontextmanager
async def fake_provider() -> AsyncIterator[FakeProvider]:
    provider = FakeProvider()
    app = web.Application()
    app.router.add_post("/{tail:.*}", provider.handle)
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
    """Stands in for Rasa's agent: records messages, sends scripted responses through the
    message's output channel as the agent does, or fails like a broken action server."""

    respond: Responder = field(default=lambda message: [])
    messages: list[UserMessage] = field(default_factory=list)
    fail: bool = False

    async def handle_message(self, message: UserMessage) -> None:
        self.messages.append(message)
        if self.fail:
            raise RuntimeError("the bot broke")
        for response in self.respond(message):
            await message.output_channel.send_response(message.sender_id, as_rasa_sends(response))


@asynccontextmanager
async def serve_channel(channel: InputChannel, bot: Any) -> AsyncIterator[str]:
    """The channel registered as ``rasa run`` registers it; yields the server's base URL."""
    test_mode, Sanic.test_mode = Sanic.test_mode, True
    try:
        app = Sanic(f"test_{channel.name()}_{uuid.uuid4().hex[:8]}", configure_logging=False)
        app.ctx.agent = bot
        register([channel], app, route="/webhooks/")
        async with serve_app(app) as base_url:
            yield base_url
    finally:
        Sanic.test_mode = test_mode


@asynccontextmanager
async def serve_app(app: Sanic) -> AsyncIterator[str]:
    """Runs ``app`` on a free local port; yields its base URL.

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
            await server.after_stop()
    finally:
        sock.close()
        Sanic.test_mode = test_mode
