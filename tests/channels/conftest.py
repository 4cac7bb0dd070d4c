"""Real blueprints on a real Sanic server, a stand-in for the agent, a fake provider API.

Recorded provider payloads (fixtures/) are posted to the connector exactly as the provider
would; what the connector then sends out lands in a local aiohttp server that records it.
"""

import socket
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from rasa.core.channels.channel import InputChannel, register
from sanic import Sanic

from tests.channels.channel_support import FakeAgent, FakeProviderApi, Serve

# Many apps in one process, as sanic-testing does it: on startup Sanic rewrites its request
# handling code in place and keeps the original only in test mode, so test mode must be on
# before the first app of the test run starts, and stay on.
Sanic.test_mode = True


@pytest.fixture(autouse=True)
def conversation_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONVERSATION_ID_KEY", "tests-channels-key")


@pytest.fixture
async def provider() -> AsyncIterator[FakeProviderApi]:
    fake = FakeProviderApi()
    runner = web.AppRunner(fake.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    fake.url = f"http://{host}:{port}"
    yield fake
    await runner.cleanup()


@pytest.fixture
async def serve() -> AsyncIterator[Serve]:
    """Starts a Sanic app with the channel registered as ``rasa run`` does; gives its base URL."""
    servers: list[Any] = []

    async def start(channel: InputChannel, agent: FakeAgent) -> str:
        app = Sanic(f"channels_{uuid.uuid4().hex}", configure_logging=False)
        app.ctx.agent = agent
        register([channel], app, route="/webhooks/")
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        server = await app.create_server(sock=sock, return_asyncio_server=True, access_log=False)
        await server.startup()
        await server.before_start()
        await server.after_start()
        servers.append(server)
        host, port = sock.getsockname()
        return f"http://{host}:{port}/webhooks/{channel.name()}"

    yield start
    for server in servers:
        await server.before_stop()
        await server.close()
        await server.wait_closed()
        await server.after_stop()  # closes the connector's API session
