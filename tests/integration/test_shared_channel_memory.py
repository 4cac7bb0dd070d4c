"""Two real Rasa servers in the production profile with the Telegram and SMS gateway channels:
a provider's retry, an SMS MORE and a numbered option reaching the other server are handled
once and right, because both keep the channels' memory in one Redis (bot/channels/memory.py).

Rasa builds the channels from the production profile's variables (``REDIS_HOST``…) as in a
deployment; the Redis is one of the test's own, the tracker store a fresh PostgreSQL database.
Needs PostgreSQL and redis-server; skipped with the reason without them, except in CI.
"""

from __future__ import annotations

import asyncio
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import psycopg
import pytest

from bot.channels import identity
from bot.channels.identity import conversation_id
from bot.lang import texts
from scripts.fake_providers import (
    CHANNEL_SECRETS,
    CREDENTIALS,
    SMS_SECRET,
    FakeProviders,
    ProvidersInThread,
)
from scripts.stack import ROOT, Stack, free_port, production_store_env
from tests.channels.redis_support import RedisServer
from tests.integration.conftest import MODEL
from tests.integration.test_shared_stores import (
    PG_ADMIN,
    _content_cli,
    services,  # noqa: F401  (the fixture: PostgreSQL must be there)
    stored_events,
)

pytestmark = [pytest.mark.integration, pytest.mark.postgres]

#: What a Dari reader sees (the catalogue is standard library: this runtime imports it too).
MORE_DARI = texts.render("sms.more_hint", "prs")
THAT_WAS_ALL_DARI = texts.render("sms.nothing_more", "prs")

KEYS = {
    "CONVERSATION_ID_KEY": "integration-test-conversation-key",
    "ADDRESS_ENCRYPTION_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY",
}


@dataclass
class Servers:
    urls: list[str]
    providers: FakeProviders
    database: str


@pytest.fixture(scope="module")
def servers(services: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:  # noqa: F811
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    base = tmp_path_factory.mktemp("channel-memory")
    redis = RedisServer(base)
    redis.start()
    name = f"test_channel_memory_{uuid.uuid4().hex[:12]}"
    pg = urllib.parse.urlsplit(PG_ADMIN)
    with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    database = pg._replace(path=f"/{name}").geturl()
    providers = FakeProviders(telegram_rate=None, sms_rate=None)
    serving = ProvidersInThread(providers)
    stack: Stack | None = None
    try:
        content_url = f"postgresql+psycopg://{pg.netloc}/{name}"
        _content_cli(content_url, "migrate")
        _content_cli(content_url, "seed")
        credentials = base / "credentials.yml"
        credentials.write_text(CREDENTIALS)
        redis_url = f"redis://127.0.0.1:{redis.port}/0"
        stack = Stack(
            model=MODEL,
            content_db_url=content_url,
            log_dir=base / "logs",
            rasa_port=free_port(),
            more_rasa_ports=(free_port(),),
            action_port=free_port(),
            endpoints=ROOT / "endpoints.production.yml",
            credentials=Path(credentials),
            extra_env={
                **production_store_env(database, redis_url, "evac"),
                **KEYS,
                **CHANNEL_SECRETS,
                **FakeProviders.environment(serving.start(free_port())),
            },
        )
        stack.start()
        yield Servers(stack.rasa_urls, providers, database)
    finally:
        if stack is not None:
            stack.stop()
        serving.stop()
        redis.stop()
        with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(autouse=True)
def same_conversation_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process computes the conversation ids Rasa does, to read them in the store."""
    monkeypatch.setenv("CONVERSATION_ID_KEY", KEYS["CONVERSATION_ID_KEY"])
    identity.forget_key()  # read once per process: take this one


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
    answered = len(servers.providers.to("telegram", str(chat)))
    await asyncio.gather(post(second, update, secret), post(first, update, secret))  # retries
    old = {**update, "update_id": chat + 1}
    old["message"] = {**update["message"], "date": int(time.time()) - 7 * 3600, "text": "تشکر"}
    await post(second, old, secret)  # from Telegram's backlog, seven hours old

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
