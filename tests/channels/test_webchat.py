"""Web chat channel: the page at both addresses, messages in, replies out, bad bodies refused."""

import json
from typing import Any

import aiohttp
import pytest

from bot.channels.identity import conversation_id
from bot.channels.transport import BODY_LIMITS
from bot.channels.webchat import WebchatInput
from tests.channels.channel_support import Serve, replying

SENDER = "0123456789abcdef0123456789abcdef"


async def post(url: str, body: object, route: str = "webhook") -> tuple[int, Any]:
    """What the page posts to one of its routes (``webhook``, ``mailbox``): status and JSON."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{url}/{route}", data=data) as r,
    ):
        return r.status, await r.json(content_type=None)


async def get(url: str) -> tuple[int, str, bytes]:
    async with aiohttp.ClientSession() as session, session.get(url) as r:
        return r.status, r.headers["Content-Type"], await r.read()


async def test_the_page_is_served_under_rasas_prefix_and_at_webchat(serve: Serve) -> None:
    url = await serve(WebchatInput(), replying())
    root = url.removesuffix("/webhooks/webchat")
    for base in (url, f"{root}/webchat"):
        status, content_type, body = await get(f"{base}/")
        assert status == 200 and content_type.startswith("text/html")
        assert b'role="log"' in body
        for name, kind in (
            ("widget.js", "text/javascript"),
            ("widget.css", "text/css"),
            ("sw.js", "text/javascript"),
        ):
            status, content_type, _ = await get(f"{base}/{name}")
            assert (status, content_type.split(";")[0]) == (200, kind)
    assert (await get(f"{root}/webchat/../credentials.yml"))[0] == 404


async def test_a_message_reaches_the_bot_under_a_hashed_id_and_replies_come_back(
    serve: Serve,
) -> None:
    buttons = [{"title": "Flights", "payload": "/ask_flights"}]
    agent = replying([{"text": "د کابل هوايي ډګر خلاص دی", "buttons": buttons}])
    url = await serve(WebchatInput(), agent)
    body = {"sender": SENDER, "message": "سلام", "metadata": {"language_hint": "ps"}}
    status, replies = await post(url, body)
    assert status == 200
    assert replies == [{"text": "د کابل هوايي ډګر خلاص دی", "buttons": buttons}]
    [message] = agent.messages
    assert message.sender_id == conversation_id("webchat", SENDER)
    assert SENDER not in message.sender_id
    assert (message.text, message.input_channel) == ("سلام", "webchat")
    assert message.metadata == {"language_hint": "ps"}


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        {"sender": SENDER},
        {"sender": SENDER, "message": "   "},
        {"sender": "short", "message": "hi"},
        {"sender": "../../etc", "message": "hi"},
        {"sender": SENDER, "message": 5},
        {"sender": SENDER, "message": "x" * 2001},
    ],
)
async def test_malformed_messages_are_refused_with_400(serve: Serve, body: object) -> None:
    agent = replying()
    url = await serve(WebchatInput(), agent)
    status, answer = await post(url, body)
    assert status == 400 and answer["error"]
    assert agent.messages == []


async def test_large_bodies_are_refused(serve: Serve) -> None:
    agent = replying()
    url = await serve(WebchatInput(), agent)
    status, _ = await post(url, b"x" * (BODY_LIMITS["webchat"] + 1))
    assert status == 413 and agent.messages == []


async def test_an_unknown_language_hint_is_dropped(serve: Serve) -> None:
    agent = replying()
    url = await serve(WebchatInput(), agent)
    body = {"sender": SENDER, "message": "hi", "metadata": {"language_hint": "xx"}}
    assert (await post(url, body))[0] == 200
    assert agent.messages[0].metadata == {}
