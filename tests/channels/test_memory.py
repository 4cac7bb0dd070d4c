"""The channels' memory: this process's (``make run``) and Redis (production), same behaviour.

The Redis tests run against a redis-server of their own (tests/channels/redis_support.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from redis import asyncio as aioredis

from bot.channels import redis_memory as memory_module
from bot.channels.dedup import SeenMessages, sent_too_long_ago
from bot.channels.memory import channel_memory
from bot.channels.redis_memory import RedisMemory
from bot.channels.settings import RedisSettings, message_max_age
from bot.channels.telegram import ReplyKeyboards
from kernel.lang.texts import CATALOGUE
from kernel.memory import ChannelMemory, ProcessMemory
from kernel.sms_render import (
    ReplyMemory,
    ReplyRenderer,
)
from tests.channels.channel_support import fixture_text
from tests.channels.redis_support import RedisServer, unreachable_redis

MORE_HINT = CATALOGUE.entry("sms.more_hint")
NOTHING_MORE = CATALOGUE.entry("sms.nothing_more")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_strings_lists_and_their_removal(memory: ChannelMemory) -> None:
    assert await memory.get("k") is None
    await memory.put({"k": "v", "k2": "w"}, ttl=60)
    assert (await memory.get("k"), await memory.get("k2")) == ("v", "w")
    await memory.put({}, ttl=60, append={"list": ["1", "2"]})
    await memory.put({"k3": "x"}, ttl=60, append={"list": ["3"], "empty": []})
    assert [await memory.pop("list", 60) for _ in range(4)] == ["1", "2", "3", None]
    await memory.put({}, ttl=60, append={"list": ["4"]})
    assert await memory.take("k", "list") == "v"
    assert (await memory.get("k"), await memory.pop("list", 60), await memory.take("k")) == (
        None,
        None,
        None,
    )
    await memory.delete("k2")
    assert await memory.get("k2") is None


async def test_a_retry_is_seen_once_and_a_forgotten_one_is_new(memory: ChannelMemory) -> None:
    seen = SeenMessages(memory)
    assert await seen.first_time("telegram:1")
    assert not await seen.first_time("telegram:1")
    assert await seen.first_time("telegram:2")
    await seen.forget("telegram:1")  # its turn got a 503: the provider's retry is handled anew
    assert await seen.first_time("telegram:1")
    assert not await seen.first_time("telegram:1")


async def test_process_memory_is_bounded_in_count_and_age() -> None:
    clock = Clock()
    memory = ProcessMemory(capacity=3, clock=clock)
    seen = SeenMessages(memory, ttl_seconds=600)
    for n in range(10):
        assert await seen.first_time(f"m{n}")
    assert len(memory) == 3
    assert not await seen.first_time("m9")
    assert await seen.first_time("m0")  # forgotten beyond capacity: memory stays bounded
    clock.now = 601
    assert await seen.first_time("m9")  # forgotten after its time
    assert len(memory) == 1


async def test_redis_keys_all_expire_under_the_deployments_prefix(
    redis_env: dict[str, str],
) -> None:
    memory = channel_memory(RedisSettings.load())
    assert isinstance(memory, RedisMemory)
    await SeenMessages(memory).first_time("whatsapp:wamid.1")
    await ReplyKeyboards(memory).remember("telegram-c1", {"1 Flights": "/ask_flights"})
    renderer = ReplyRenderer(ReplyMemory(memory))
    await renderer.outgoing("sms-c1", fixture_text("long_reply_prs.txt"), [{"title": "A"}], "prs")
    await memory.close()

    client = aioredis.Redis(port=int(redis_env["REDIS_PORT"]), decode_responses=True)
    keys = [key async for key in client.scan_iter("*")]
    mine = [key for key in keys if key.startswith(redis_env["REDIS_KEY_PREFIX"] + ":")]
    assert {key.split(":")[2] for key in mine} == {"seen", "keyboard", "reply"}
    assert all(key.startswith(redis_env["REDIS_KEY_PREFIX"] + ":channels:") for key in mine)
    ttls = {key: await client.ttl(key) for key in mine}
    assert all(ttl > 0 for ttl in ttls.values()), ttls
    # Ids outlive any provider's retries (Twilio: minutes, Telegram: a day) and MESSAGE_MAX_AGE.
    [seen_ttl] = [ttl for key, ttl in ttls.items() if ":seen:" in key]
    assert seen_ttl > 6 * 24 * 3600
    assert all(ttl <= 24 * 3600 for key, ttl in ttls.items() if ":seen:" not in key)
    assert not any("700000101" in key or "Flights" in key for key in keys)
    await client.close()


async def test_of_two_processes_offered_one_message_at_once_exactly_one_answers(
    redis_env: dict[str, str],
) -> None:
    # Two Rasa processes: two clients.
    first, second = channel_memory(RedisSettings.load()), channel_memory(RedisSettings.load())
    seen = [SeenMessages(first), SeenMessages(second)]
    for number in range(20):
        offers = [seen[n % 2].first_time(f"twilio:SM{number}") for n in range(10)]
        assert sum(await asyncio.gather(*offers)) == 1
    await first.close()
    await second.close()


async def test_two_processes_sending_more_at_once_never_send_a_page_twice(
    redis_env: dict[str, str],
) -> None:
    first, second = channel_memory(RedisSettings.load()), channel_memory(RedisSettings.load())
    renderers = [ReplyRenderer(ReplyMemory(first)), ReplyRenderer(ReplyMemory(second))]
    text = "\n".join([fixture_text("long_reply_prs.txt")] * 3)
    alone = ReplyRenderer()  # the same reply paged through by one process, one MORE at a time
    expected = await alone.outgoing("sms-c1", text, language="prs")
    while expected[-1].endswith(MORE_HINT["prs"]):
        expected.extend((await alone.incoming("sms-c1", "بیشتر")).replies)
    assert len(expected) >= 4

    assert await renderers[0].outgoing("sms-c1", text, language="prs") == expected[:1]
    mores = [renderers[n % 2].incoming("sms-c1", "بیشتر") for n in range(len(expected) + 3)]
    replies = [answer.replies[0] for answer in await asyncio.gather(*mores)]
    pages = [reply for reply in replies if reply != NOTHING_MORE["prs"]]
    assert sorted(pages) == sorted(expected[1:])  # each page once, none lost
    assert replies.count(NOTHING_MORE["prs"]) == 4
    await first.close()
    await second.close()


def test_the_memory_is_chosen_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(channel_memory(RedisSettings.load({})), ProcessMemory)
    assert isinstance(channel_memory(RedisSettings.load({"REDIS_HOST": " "})), ProcessMemory)
    env = {"REDIS_HOST": "10.0.0.6", "REDIS_PORT": "6390", "REDIS_DB": "1", "REDIS_PASSWORD": ""}
    assert isinstance(channel_memory(RedisSettings.load(env)), RedisMemory)
    assert RedisSettings.load(env) == RedisSettings("10.0.0.6", 6390, db=1, password=None)
    for prefix, kept in (("evac2021", "evac2021"), ("evac-2021", ""), (" ", "")):
        settings = RedisSettings.load({**env, "REDIS_KEY_PREFIX": prefix})
        assert settings is not None and settings.key_prefix == kept
    for wrong in ({"REDIS_PORT": "redis"}, {"REDIS_PORT": ""}, {"REDIS_DB": "one"}):
        with pytest.raises(ValueError, match="REDIS_PORT and REDIS_DB must be numbers"):
            RedisSettings.load({**env, **wrong})


async def test_a_redis_that_is_down_fails_open_and_is_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    memory = unreachable_redis()
    seen = SeenMessages(memory)
    started = time.monotonic()
    assert await seen.first_time("whatsapp:wamid.secret-id")
    assert await seen.first_time("whatsapp:wamid.secret-id")  # answered again: never silence
    await seen.forget("whatsapp:wamid.secret-id")
    assert time.monotonic() - started < 1.0
    keyboards = ReplyKeyboards(memory)
    await keyboards.remember("telegram-c1", {"1 Flights": "/ask_flights"})
    assert await keyboards.payload_for("telegram-c1", "1 Flights") is None  # the NLU takes it
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in warnings] == [
        "channel memory: Redis unreachable (ConnectionError); answering without it until it is back"
    ]
    assert "secret-id" not in caplog.text and "telegram-c1" not in caplog.text
    await memory.close()


async def test_a_redis_that_hangs_delays_one_message_by_half_a_second_only() -> None:
    async def never_answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(-1)  # until the client gives up and closes
        writer.close()

    server = await asyncio.start_server(never_answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    memory = RedisMemory.connect(RedisSettings("127.0.0.1", port))
    seen = SeenMessages(memory)
    waits = []
    for number in range(3):
        started = time.monotonic()
        assert await seen.first_time(f"telegram:{number}")
        waits.append(time.monotonic() - started)
    assert 0.4 < waits[0] < 1.0
    assert max(waits[1:]) < 0.05
    await memory.close()
    server.close()
    await server.wait_closed()


@pytest.fixture
async def own_redis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[RedisServer]:
    """A Redis this test may kill and start again."""
    server = RedisServer(tmp_path)
    server.start()
    for name, value in server.env("restarting").items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(memory_module, "RETRY_REDIS_AFTER_SECONDS", 0.0)
    yield server
    server.stop()


async def test_a_redis_that_dies_and_comes_back(
    own_redis: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    memory = channel_memory(RedisSettings.load())
    seen = SeenMessages(memory)
    renderer = ReplyRenderer(ReplyMemory(memory))
    assert await seen.first_time("sms:1")
    await renderer.outgoing("sms-c1", fixture_text("long_reply_prs.txt"), language="prs")

    own_redis.kill()
    assert await seen.first_time("sms:1")  # fails open
    more = await renderer.incoming("sms-c1", "بیشتر")
    assert more.replies == (NOTHING_MORE["prs"],)  # in Dari, the language of the last reply

    own_redis.start()  # an empty Redis (no persistence): as after losing it
    assert await seen.first_time("sms:2")
    assert not await seen.first_time("sms:2")
    messages = [r.getMessage() for r in caplog.records if r.name == memory_module.__name__]
    assert messages.count("channel memory: Redis reachable again") == 1
    assert sum("unreachable" in m for m in messages) == 1
    await memory.close()


def test_message_age() -> None:
    now = 1_700_000_000.0
    six_hours = timedelta(hours=6)
    assert sent_too_long_ago(now - 6 * 3600 - 1, six_hours, now)
    assert sent_too_long_ago(str(int(now) - 7 * 3600), six_hours, now)
    assert not sent_too_long_ago(now - 5 * 3600, six_hours, now)
    for unreadable in (None, "", "soon", True, float("inf"), float("nan"), [1], "1e999"):
        assert not sent_too_long_ago(unreadable, six_hours, now), unreadable
    assert message_max_age({}) == six_hours
    assert message_max_age({"MESSAGE_MAX_AGE": "90m"}) == timedelta(minutes=90)
    assert message_max_age({"MESSAGE_MAX_AGE": "7d"}) == timedelta(days=7)
    for wrong in ("0h", "soon", "8d"):
        with pytest.raises(ValueError, match="MESSAGE_MAX_AGE"):
            message_max_age({"MESSAGE_MAX_AGE": wrong})
