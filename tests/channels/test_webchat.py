"""Web chat channel: the page at both addresses, messages in, replies out, bad bodies refused."""

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from bot.channels.identity import conversation_id
from bot.channels.sync_turns import SyncTurns
from bot.channels.transport import BODY_LIMITS
from bot.channels.webchat import WebchatInput
from kernel.notices import in_line
from tests.channels.channel_support import Serve, replying, without_person
from tests.channels.test_rest import HeldBot, until

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
            ("work.js", "text/javascript"),
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
    assert without_person(message.metadata) == {"language_hint": "ps"}


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ({"language_hint": "prs", "organisation": "kabul-aid-network"},
         {"language_hint": "prs", "organisation": "kabul-aid-network"}),
        ({"organisation": "unhcr"}, {"organisation": "unhcr"}),
        # What is not the page's language or an organisation's slug is dropped, not refused.
        ({"language_hint": "fr", "organisation": "Kabul Aid"}, {}),
        ({"organisation": ["unhcr"], "person": "forged", "forwarded": True}, {}),
        ({"organisation": "x" * 65}, {}),
        ("not an object", {}),
    ],
)  # fmt: skip
async def test_the_page_passes_on_its_language_and_its_sites_organisation_only(
    serve: Serve, sent: object, kept: dict[str, str]
) -> None:
    agent = replying([{"text": "ok"}])
    url = await serve(WebchatInput(), agent)
    status, _ = await post(url, {"sender": SENDER, "message": "help", "metadata": sent})
    assert status == 200
    [message] = agent.messages
    assert without_person(message.metadata) == kept


async def test_a_received_line_of_a_case_tells_the_page_a_caseworker_will_answer(
    serve: Serve,
) -> None:
    received = {"text": "Received: your message is kept for the caseworker."}
    agent = replying([{**received, "utter_action": "utter_case_received"}])
    url = await serve(WebchatInput(), agent)
    _, replies = await post(url, {"sender": SENDER, "message": "my passport is lost"})
    assert replies == [{**received, "waiting": True}]  # the page asks its mailbox more often


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
        {"sender": SENDER, "message": "hi", "ticket": 5},
        {"sender": SENDER, "message": "hi", "ticket": "<script>"},
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
    assert without_person(agent.messages[0].metadata) == {}


async def test_past_the_limit_the_page_gets_the_notice_and_its_mailbox_the_answer(
    serve: Serve,
) -> None:
    bot, turns = HeldBot(), SyncTurns(1, notice_seconds=0.2)
    url = await serve(WebchatInput(turns=turns), bot)
    first = asyncio.create_task(post(url, {"sender": SENDER, "message": "slow question"}))
    await until(lambda: asyncio.sleep(0, turns.taking))

    other = "fedcba9876543210fedcba9876543210"
    status, [notice] = await post(url, {"sender": other, "message": "slow میدان هوایی باز است؟"})
    assert status == 200
    # In Dari (its letters, no Pashto ones), marked as an answer still to come.
    assert notice == {"text": in_line("prs", None), "waiting": True, "language": "prs"}
    bot.release.set()

    async def mailbox() -> list[dict[str, Any]]:
        status, fetched = await post(url, {"sender": other, "ack": []}, "mailbox")
        assert status == 200
        return list(fetched["messages"])

    [later] = await until(mailbox)
    assert later["text"] == "answer: slow میدان هوایی باز است؟"
    assert (await first)[1] == [{"text": "answer: slow question"}]


async def test_a_page_that_knows_tickets_gets_one_and_an_old_page_none(serve: Serve) -> None:
    url = await serve(WebchatInput(), replying([{"text": "ok"}]))
    async with aiohttp.ClientSession() as session:
        body = {"sender": SENDER, "message": "hi", "ticket": ""}
        async with session.post(f"{url}/webhook", json=body) as answer:
            assert answer.status == 200 and await answer.json() == [{"text": "ok"}]
            ticket = answer.headers["X-Webchat-Ticket"]
        async with session.post(f"{url}/webhook", json={**body, "ticket": ticket}) as answer:
            assert answer.status == 200 and "X-Webchat-Ticket" not in answer.headers  # kept
        old = {"sender": "fedcba9876543210fedcba9876543210", "message": "hi"}
        async with session.post(f"{url}/webhook", json=old) as answer:
            assert answer.status == 200 and "X-Webchat-Ticket" not in answer.headers
