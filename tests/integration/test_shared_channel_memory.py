"""Two real Rasa servers in the production profile with the Telegram and SMS gateway channels:
a provider's retry, an SMS MORE and a numbered option reaching the other server are handled
once and right, because both keep the channels' memory in one Redis (bot/channels/memory.py).
Their webhooks answer at once and the turns are taken from the intake's line (the profile's
default): the replies are counted once the line is empty, every turn over.

The servers are ``production_servers``' (a fresh PostgreSQL database, a Redis of the test's
own). Needs PostgreSQL and redis-server; skipped with the reason without them, except in CI.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from bot.channels.identity import conversation_id
from kernel.lang import texts
from scripts.fake_providers import CHANNEL_SECRETS, SMS_SECRET, FakeProviders
from tests.integration.production_servers import (
    Servers,
    production_servers,
    same_conversation_ids,  # noqa: F401  (the fixture: ids as Rasa computes them)
)
from tests.integration.test_shared_stores import (
    services,  # noqa: F401  (the fixture: PostgreSQL must be there)
    stored_events,
)

pytestmark = [pytest.mark.integration, pytest.mark.postgres]

#: What a Dari reader sees (the catalogue is standard library: this runtime imports it too).
MORE_DARI = texts.render("sms.more_hint", "prs")
THAT_WAS_ALL_DARI = texts.render("sms.nothing_more", "prs")


@pytest.fixture(scope="module")
def servers(services: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:  # noqa: F811
    providers = FakeProviders(telegram_rate=None, sms_rate=None)
    with production_servers(tmp_path_factory.mktemp("channel-memory"), providers) as running:
        yield running


def user_texts(servers: Servers, conversation: str) -> list[str]:
    return [
        e["text"] for e in stored_events(servers.database, conversation) if e["event"] == "user"
    ]


async def post(url: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session,
        session.post(url, json=body, headers=headers) as response,
    ):
        assert response.status == 200, await response.text()
        return await response.text()


async def test_a_telegram_update_retried_to_the_other_server_is_answered_once(
    servers: Servers,
) -> None:
    chat = 710000000 + int(uuid.uuid4().int % 1_000_000)
    update = {
        "update_id": chat,
        "message": {
            "message_id": 1,
            "date": int(time.time()),
            "chat": {"id": chat, "type": "private"},
            "from": {"id": chat, "is_bot": False, "first_name": "A", "language_code": "fa"},
            "text": "سلام",
        },
    }
    secret = {"X-Telegram-Bot-Api-Secret-Token": CHANNEL_SECRETS["TELEGRAM_SECRET_TOKEN"]}
    first, second = (f"{url}/webhooks/telegram/webhook" for url in servers.urls)
    await post(first, update, secret)
    await servers.all_answered("telegram")
    answered = len(servers.providers.to("telegram", str(chat)))
    await asyncio.gather(post(second, update, secret), post(first, update, secret))  # retries
    old = {**update, "update_id": chat + 1}
    old["message"] = {**update["message"], "date": int(time.time()) - 7 * 3600, "text": "تشکر"}
    await post(second, old, secret)  # from Telegram's backlog, seven hours old
    await servers.all_answered("telegram")  # a retry wrongly put in line would be answered now

    assert answered >= 1
    assert len(servers.providers.to("telegram", str(chat))) == answered
    assert user_texts(servers, conversation_id("telegram", str(chat))) == ["سلام"]


async def test_sms_more_and_a_number_reaching_the_other_server(servers: Servers) -> None:
    number = f"+93700{uuid.uuid4().int % 1_000_000:06d}"
    first, second = (f"{url}/webhooks/sms_gateway/webhook" for url in servers.urls)
    secret = {"X-Gateway-Secret": SMS_SECRET}

    async def sms(url: str, text: str) -> list[str]:
        before = len(servers.providers.to("sms_gateway", number))
        await post(url, {"from": number, "text": text, "id": uuid.uuid4().hex}, secret)
        await servers.all_answered("sms_gateway")
        return [r.text for r in servers.providers.to("sms_gateway", number)[before:]]

    await sms(first, "زبان دری")
    (amnesty,) = await sms(first, "عفو")
    assert "۱ متن کامل" in amnesty  # its full text is offered by number
    full = await sms(second, "۱")  # the option, chosen at the other server
    assert full[-1].endswith(MORE_DARI)  # the Dari text is longer than three segments
    rest = await sms(first, "بیشتر")
    assert rest and rest != [THAT_WAS_ALL_DARI]  # the rest, sent by the first server
    assert not rest[0].startswith(full[0][:20])

    conversation = conversation_id("sms_gateway", number)
    detail = '/ask_announcements{"detail": "taliban-amnesty-2021-08-17"}'
    assert user_texts(servers, conversation)[-2:] == ["عفو", detail]
