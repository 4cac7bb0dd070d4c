"""The web chat's mailbox: messages out of turn (a caseworker's reply, "I am back") wait for the
person's own page, bounded, once each, and refused loudly when they cannot be kept.

Each memory test runs on this process's memory and on Redis (a redis-server of the tests' own).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertNotDelivered
from bot.channels.identity import conversation_id
from bot.channels.mailbox import MAILBOX_MESSAGES, Mailbox, MailboxFull
from bot.channels.redis_memory import RedisMemory
from bot.channels.settings import RedisSettings
from bot.channels.webchat import MAX_ACKNOWLEDGED, WebchatInput
from kernel.contract import ALERT_DELIVERY, CASE_REPLY
from kernel.memory import ChannelMemory, ProcessMemory
from tests.channels.alert_support import rasa_output_channel
from tests.channels.channel_support import Serve, replying
from tests.channels.redis_support import unreachable_redis
from tests.channels.test_deliveries import queue_delivery, state
from tests.channels.test_memory import Clock
from tests.channels.test_webchat import post

SENDER = "0123456789abcdef0123456789abcdef"
OTHER_SENDER = "fedcba9876543210fedcba9876543210"
I_AM_BACK_PS = "قضیه مو بنده شوه. زه بیا دلته یم."
REPLY_PRS = "سلام، من قضیهٔ شما را می‌بینم."


async def test_a_message_waits_until_acknowledged_and_then_never_comes_again(
    memory: ChannelMemory,
) -> None:
    mailbox = Mailbox(memory)
    first = await mailbox.store("webchat-c1", {"text": REPLY_PRS})
    second = await mailbox.store("webchat-c1", {"text": I_AM_BACK_PS})
    fetched = await mailbox.collect("webchat-c1")
    assert fetched == [{"id": first, "text": REPLY_PRS}, {"id": second, "text": I_AM_BACK_PS}]
    # The answer was lost on the way, or a second tab asks: the same messages, nothing lost.
    assert await mailbox.collect("webchat-c1") == fetched
    assert await mailbox.collect("webchat-c1", {first}) == [{"id": second, "text": I_AM_BACK_PS}]
    assert await mailbox.collect("webchat-c1", {first, second}) == []
    assert await mailbox.collect("webchat-c1", {first, second}) == []  # acknowledged twice: fine
    assert await mailbox.collect("webchat-c2") == []  # other conversations have their own


async def test_two_tabs_acknowledging_at_once_lose_nothing_and_see_nothing_twice(
    memory: ChannelMemory,
) -> None:
    mailbox = Mailbox(memory)
    ids = [await mailbox.store("webchat-c1", {"text": f"پیام {n}"}) for n in range(6)]
    tab_one, tab_two = await asyncio.gather(
        mailbox.collect("webchat-c1", set(ids[:2])), mailbox.collect("webchat-c1", set(ids[1:3]))
    )
    # Each tab sees at least what neither acknowledged; whatever one saw is shown there once.
    assert all({m["id"] for m in tab} >= set(ids[3:]) for tab in (tab_one, tab_two))
    assert [m["id"] for m in await mailbox.collect("webchat-c1")] == ids[3:]
    late = await mailbox.store("webchat-c1", {"text": "آخر"})
    assert [m["id"] for m in await mailbox.collect("webchat-c1", set(ids))] == [late]


async def test_a_full_mailbox_refuses_the_next_message_instead_of_dropping_one(
    memory: ChannelMemory,
) -> None:
    mailbox = Mailbox(memory, limit=3)
    ids = [await mailbox.store("webchat-c1", {"text": str(n)}) for n in range(3)]
    with pytest.raises(MailboxFull):
        await mailbox.store("webchat-c1", {"text": "one too many"})
    assert [m["text"] for m in await mailbox.collect("webchat-c1", {ids[0]})] == ["1", "2"]
    await mailbox.store("webchat-c1", {"text": "3"})  # room again once the person read one
    assert [m["text"] for m in await mailbox.collect("webchat-c1")] == ["1", "2", "3"]


async def test_many_processes_storing_at_once_never_pass_the_limit(memory: ChannelMemory) -> None:
    mailbox = Mailbox(memory, limit=MAILBOX_MESSAGES)

    async def store(n: int) -> bool:
        try:
            await mailbox.store("webchat-c1", {"text": str(n)})
        except MailboxFull:
            return False
        return True

    stored = await asyncio.gather(*(store(n) for n in range(MAILBOX_MESSAGES + 12)))
    assert sum(stored) == MAILBOX_MESSAGES
    assert len(await mailbox.collect("webchat-c1")) == MAILBOX_MESSAGES


async def test_messages_older_than_the_limit_are_not_shown_and_are_forgotten() -> None:
    clock = Clock()
    clock.now = 1_700_000_000.0  # wall time, as the mailbox reads it
    memory = ProcessMemory(clock=clock)
    mailbox = Mailbox(memory, keep_seconds=3600, clock=clock)
    await mailbox.store("webchat-c1", {"text": "old"})
    clock.now += 1800
    recent = await mailbox.store("webchat-c1", {"text": "recent"})
    clock.now += 1801
    assert await mailbox.collect("webchat-c1") == [{"id": recent, "text": "recent"}]
    [kept] = await memory.items("mailbox:webchat-c1")  # the old one is gone, not only hidden
    assert "recent" in kept
    clock.now += 1800  # the whole mailbox expires an hour after its last message
    assert await memory.items("mailbox:webchat-c1") == []


async def test_redis_keeps_mailboxes_under_the_prefix_and_forgets_them(
    redis_env: dict[str, str],
) -> None:
    from redis import asyncio as aioredis

    settings = RedisSettings.load(redis_env)
    assert settings is not None
    memory = RedisMemory.connect(settings)
    mailbox = Mailbox(memory, keep_seconds=3600)
    await mailbox.store(conversation_id("webchat", SENDER), {"text": "x"})
    await memory.close()
    client = aioredis.Redis(port=int(redis_env["REDIS_PORT"]), decode_responses=True)
    [key] = [k async for k in client.scan_iter(f"{redis_env['REDIS_KEY_PREFIX']}:*")]
    assert key.startswith(f"{redis_env['REDIS_KEY_PREFIX']}:channels:mailbox:webchat-")
    assert SENDER not in key  # the key holds the hashed id, never the page's secret
    assert 3500 < await client.ttl(key) <= 3600
    await client.close()


async def test_an_unreadable_stored_message_is_dropped_not_shown() -> None:
    memory = ProcessMemory()
    await memory.push("mailbox:webchat-c1", "not json", 10, 60)
    await memory.push("mailbox:webchat-c1", json.dumps({"id": "x", "at": "soon"}), 10, 60)
    mailbox = Mailbox(memory)
    kept = await mailbox.store("webchat-c1", {"text": "ok"})
    assert await mailbox.collect("webchat-c1") == [{"id": kept, "text": "ok"}]
    assert len(await memory.items("mailbox:webchat-c1")) == 1


# The output Rasa uses for trigger_intent?output_channel=webchat, and the page's fetch.


async def fetch(url: str, body: object) -> tuple[int, Any]:
    return await post(url, body, "mailbox")


async def test_rasas_output_puts_messages_in_the_persons_mailbox_for_their_page_only(
    serve: Serve,
) -> None:
    channel = WebchatInput()
    url = await serve(channel, replying())
    output = rasa_output_channel(channel)
    conversation = conversation_id("webchat", SENDER)
    buttons = [{"title": "منو", "payload": "/show_menu"}]
    await output.send_response(conversation, {"text": I_AM_BACK_PS, "buttons": buttons})
    await output.send_response(conversation, {"custom": {"anything": 1}})  # never shown as JSON

    assert await fetch(url, {"sender": OTHER_SENDER}) == (200, {"messages": []})
    # Someone who learnt the hashed id (a log line, the caseworkers' database) cannot use it.
    assert await fetch(url, {"sender": conversation[-40:]}) == (200, {"messages": []})
    status, answer = await fetch(url, {"sender": SENDER})
    assert status == 200
    [message] = answer["messages"]
    assert (message["text"], message["buttons"]) == (I_AM_BACK_PS, buttons)
    assert set(message) == {"id", "text", "buttons"}  # no recipient id, no time, no payload
    assert await fetch(url, {"sender": SENDER, "ack": [message["id"]]}) == (200, {"messages": []})


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        {},
        {"sender": "short"},
        {"sender": SENDER, "ack": "0123456789abcdef"},
        {"sender": SENDER, "ack": ["../../etc/passwd"]},
        {"sender": SENDER, "ack": [1]},
        {"sender": SENDER, "ack": ["0123456789abcdef"] * (MAX_ACKNOWLEDGED + 1)},
    ],
)
async def test_malformed_fetches_are_refused_with_400(serve: Serve, body: object) -> None:
    url = await serve(WebchatInput(), replying())
    status, answer = await fetch(url, body)
    assert status == 400 and answer["error"]


async def test_a_huge_fetch_is_refused(serve: Serve) -> None:
    url = await serve(WebchatInput(), replying())
    assert (await fetch(url, b"{" * 20_000))[0] == 413


async def test_a_mailbox_that_cannot_store_makes_rasa_fail_so_the_sender_retries(
    serve: Serve, caplog: pytest.LogCaptureFixture
) -> None:
    channel = WebchatInput(unreachable_redis())
    url = await serve(channel, replying())
    conversation = conversation_id("webchat", SENDER)
    with pytest.raises(AlertNotDelivered, match="webchat: mailbox unavailable"):
        await rasa_output_channel(channel).send_response(conversation, {"text": REPLY_PRS})
    assert await fetch(url, {"sender": SENDER}) == (503, {"error": "the mailbox is unavailable"})
    assert REPLY_PRS not in caplog.text and SENDER not in caplog.text


async def test_a_message_for_a_conversation_of_another_channel_is_refused() -> None:
    channel = WebchatInput()
    with pytest.raises(AlertNotDelivered, match="not a web chat conversation"):
        await rasa_output_channel(channel).send_response("telegram-c1", {"text": REPLY_PRS})
    assert await channel.mailbox.collect("telegram-c1") == []


async def test_a_full_mailbox_makes_rasa_fail_too() -> None:
    channel = WebchatInput()
    channel.mailbox = Mailbox(ProcessMemory(), limit=1)
    output = rasa_output_channel(channel)
    await output.send_response("webchat-c1", {"text": "first"})
    with pytest.raises(AlertNotDelivered, match="mailbox full"):
        await output.send_response("webchat-c1", {"text": "second"})


async def test_a_tagged_message_counts_as_delivered_once_it_is_in_the_mailbox(
    sqlite_address_book: AddressBook,
) -> None:
    queue_delivery(sqlite_address_book, 1)
    queue_delivery(sqlite_address_book, 2)
    channel = WebchatInput(addresses=sqlite_address_book)
    message = {"text": REPLY_PRS, "custom": {ALERT_DELIVERY: 1}}
    await rasa_output_channel(channel).send_response("webchat-c1", dict(message))
    assert state(sqlite_address_book, 1) == (True, True)
    await rasa_output_channel(channel).send_response("webchat-c1", dict(message))  # triggered again
    assert [m["text"] for m in await channel.mailbox.collect("webchat-c1")] == [REPLY_PRS]

    down = WebchatInput(unreachable_redis(), addresses=sqlite_address_book)
    with pytest.raises(AlertNotDelivered):
        await rasa_output_channel(down).send_response(
            "webchat-c1", {"text": REPLY_PRS, "custom": {ALERT_DELIVERY: 2}}
        )
    assert state(sqlite_address_book, 2) == (False, False)  # released: the retry can send it


@pytest.mark.parametrize("tag", [ALERT_DELIVERY, CASE_REPLY])
async def test_without_the_database_a_tagged_message_is_refused_not_stored_unrecorded(
    tag: str,
) -> None:
    channel = WebchatInput()  # no address book: no database to record deliveries in
    with pytest.raises(AlertNotDelivered, match="no database to record the delivery"):
        await rasa_output_channel(channel).send_response(
            "webchat-c1", {"text": REPLY_PRS, "custom": {tag: 7}}
        )
    assert await channel.mailbox.collect("webchat-c1") == []
    await rasa_output_channel(channel).send_response("webchat-c1", {"text": I_AM_BACK_PS})
    assert len(await channel.mailbox.collect("webchat-c1")) == 1  # untagged: no record needed


def test_the_channel_starts_without_any_key_and_uses_redis_when_configured(
    monkeypatch: pytest.MonkeyPatch, redis_env: dict[str, str]
) -> None:
    monkeypatch.delenv("ADDRESS_ENCRYPTION_KEY")
    channel = WebchatInput.from_credentials(None)
    assert channel.addresses is None
    assert isinstance(channel.mailbox._memory, RedisMemory)


async def test_deleting_my_data_in_the_web_chat_empties_the_mailbox(serve: Serve) -> None:
    deleted = {
        "text": "ستاسو معلومات زموږ له سرور څخه پاک شول.",
        "utter_action": "utter_data_deleted",
    }
    channel = WebchatInput()
    url = await serve(channel, replying([deleted]))
    conversation = conversation_id("webchat", SENDER)
    await channel.mailbox.store(conversation, {"text": REPLY_PRS})
    await channel.mailbox.store(conversation_id("webchat", OTHER_SENDER), {"text": REPLY_PRS})
    status, replies = await post(url, {"sender": SENDER, "message": "زما معلومات پاک کړه"})
    assert status == 200 and [reply["text"] for reply in replies] == [deleted["text"]]
    assert await fetch(url, {"sender": SENDER}) == (200, {"messages": []})
    assert len((await fetch(url, {"sender": OTHER_SENDER}))[1]["messages"]) == 1  # not theirs
