"""The REST channel of the README's examples: replies as Rasa's, the apology as every channel's."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from bot.channels.notices import try_again
from bot.channels.rest import RestInput
from bot.lang.texts import CATALOGUE
from tests.channels.channel_support import Serve, replying
from tests.channels.test_webhook_hardening import Bot, Tracker

TRY_AGAIN = CATALOGUE.entry("channels.try_again")


async def post(url: str, body: object) -> tuple[int, Any]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{url}/webhook", data=data, headers=headers) as reply,
    ):
        return reply.status, await reply.json(content_type=None)


async def test_replies_come_back_as_rasa_gives_them_under_the_senders_id(serve: Serve) -> None:
    bot = replying([{"text": "QR8010 leaves at 14:00"}])
    url = await serve(RestInput(), bot)
    status, replies = await post(url, {"sender": "amina", "message": "next flight"})
    assert (status, replies) == (200, [{"recipient_id": "amina", "text": "QR8010 leaves at 14:00"}])
    [message] = bot.messages
    assert (message.sender_id, message.text, message.input_channel) == (
        "amina",
        "next flight",
        "rest",
    )


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_a_failed_turn_is_apologised_for_in_the_conversations_language(
    serve: Serve, language: str
) -> None:
    bot = Bot(fail=True)
    bot.tracker_store.trackers["farida"] = Tracker(language=language)
    url = await serve(RestInput(), bot)
    status, replies = await post(url, {"sender": "farida", "message": "parwaz"})
    assert status == 200
    assert [reply["text"] for reply in replies] == [TRY_AGAIN[language]]


async def test_a_silent_turn_is_apologised_for_but_a_paused_one_stays_silent(
    serve: Serve,
) -> None:
    bot = Bot()  # answers nothing, as when the action server is down
    bot.tracker_store.trackers["held"] = Tracker(language="prs", paused=True)
    url = await serve(RestInput(), bot)
    status, replies = await post(url, {"sender": "new", "message": "hi"})
    # In all three languages, which Rasa's collector splits at the blank lines.
    assert status == 200 and "\n\n".join(r["text"] for r in replies) == try_again(None, None)
    assert await post(url, {"sender": "held", "message": "salam"}) == (200, [])


@pytest.mark.parametrize(
    "body",
    [b"not json", b"[1, 2]", {"message": "hi"}, {"sender": "", "message": "hi"}, {"sender": "a"}],
    ids=["not-json", "a-list", "no-sender", "empty-sender", "no-message"],
)
async def test_bad_requests_are_a_400_not_a_500(serve: Serve, body: object) -> None:
    bot = replying([{"text": "never"}])
    url = await serve(RestInput(), bot)
    status, _ = await post(url, body)
    assert status == 400 and not bot.messages
