"""Queued turns on real processes, as the production profile runs them by default: two Rasa
servers with two intake workers each, one line in Redis Streams, the fake Telegram Bot API.

Each person's messages are answered in the order they arrived and each once, whichever server
took the webhook; STOP goes before what waits; one person's flood waits behind another person's
question; a person kept waiting is told so in their language before the answer; a server
stopped (SIGTERM) in the middle of turns ends them before it goes; a server killed in the
middle of turns leaves them to the other, and each is answered exactly once; the web chat past
``SYNC_TURNS_WAITING`` answers a turn still under way after ``QUEUE_NOTICE_SECONDS`` with the
notice, and its mailbox brings the answer.

Turns are made slow where a test needs a backlog by a stand-in between Rasa and its action
server (``SlowActions``). Needs PostgreSQL and redis-server; skipped with the reason without
them, except in CI.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.channels.identity import conversation_id
from kernel.lang.texts import CATALOGUE
from kernel.partitions import partition_of
from scripts.chaos import http_ok
from scripts.fake_providers import FakeProviders, ProvidersInThread, send_telegram
from scripts.stack import free_port
from tests.integration.intake_support import SlowActions, until
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

#: The notice's first sentence, per language: the same whether it names minutes or "a moment".
NOTICE_STARTS = {
    code: text.split(".")[0] for code, text in CATALOGUE.entry("channels.in_line").items()
}


@dataclass
class Queued:
    servers: Servers
    actions: SlowActions

    @property
    def urls(self) -> list[str]:
        return self.servers.urls

    def depth(self) -> int:
        return self.servers.depth("telegram")

    def bot_texts(self, conversation: str, after: int = 0) -> list[str]:
        """What the assistant said in the conversation, from the ``after``-th message on."""
        texts, users = [], 0
        for event in stored_events(self.servers.database, conversation):
            users += event["event"] == "user"
            if event["event"] == "bot" and event.get("text") and users > after:
                texts.append(event["text"])
        return texts

    def user_texts(self, conversation: str) -> list[str]:
        events = stored_events(self.servers.database, conversation)
        return [e["text"] for e in events if e["event"] == "user"]

    def received(self, chat: int, after: int = 0) -> list[str]:
        return [r.text for r in self.servers.providers.to("telegram", str(chat))[after:]]


@pytest.fixture(scope="module")
def queued(services: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Queued]:  # noqa: F811
    # Bursts of one person go faster than Telegram's one message a second per chat.
    providers = FakeProviders(telegram_rate=None, sms_rate=None, telegram_per_chat=None)
    action_port = free_port()
    actions = SlowActions(f"http://127.0.0.1:{action_port}")
    slowing = ProvidersInThread(actions)
    try:
        with production_servers(
            tmp_path_factory.mktemp("intake"),
            providers,
            channels="bot.channels.webchat.WebchatInput:\n",
            env={
                # No CHANNEL_INTAKE: queued is the production profile's default.
                "INTAKE_WORKERS": "2",
                "QUEUE_NOTICE_SECONDS": "1",
                "INTAKE_CLAIM_IDLE_SECONDS": "3",
                "SYNC_TURNS_WAITING": "1",
                # A killed server's conversation locks free within seconds, not a minute.
                "TICKET_LOCK_LIFETIME": "8",
            },
            rasa_env={"ACTION_ENDPOINT_URL": f"{slowing.start(free_port())}/webhook"},
            action_port=action_port,
        ) as servers:
            yield Queued(servers, actions)
    finally:
        slowing.stop()


@pytest.fixture(autouse=True)
def fast_actions(queued: Queued) -> Iterator[None]:
    queued.actions.delay = 0.0
    yield
    queued.actions.delay = 0.0


def a_chat() -> int:
    return 720_000_000 + secrets.randbelow(10_000_000)


def notices(texts: list[str]) -> list[str]:
    return [t for t in texts if any(t.startswith(start) for start in NOTICE_STARTS.values())]


def answers(texts: list[str]) -> list[str]:
    return [t for t in texts if t not in notices(texts)]


async def answered(queued: Queued, chat: int, messages: int, timeout: float) -> None:
    """Waits until the line is empty and the conversation holds ``messages`` messages."""
    conversation = conversation_id("telegram", str(chat))
    await until(
        lambda: queued.depth() == 0 and len(queued.user_texts(conversation)) >= messages,
        timeout,
        f"{messages} messages of one person answered",
    )


async def test_a_burst_of_ten_through_two_servers_is_answered_in_order_each_once(
    queued: Queued,
) -> None:
    chat = a_chat()
    sent = ["سلام", "پرواز بعدی چی وقت است", "میدان هوایی باز است؟", "عفو", "تشکر"] * 2
    async with aiohttp.ClientSession() as http:
        for number, text in enumerate(sent):  # as a load balancer spreads them
            await send_telegram(http, queued.urls[number % 2], chat, text)
    early = len(queued.received(chat))  # every webhook answered already
    await answered(queued, chat, len(sent), timeout=60)

    conversation = conversation_id("telegram", str(chat))
    assert queued.user_texts(conversation) == sent  # in arrival order, each once
    # Every reply the assistant gave reached the person once, in the order of the turns.
    assert answers(queued.received(chat)) == queued.bot_texts(conversation)
    assert early < len(queued.received(chat))  # the webhooks did not wait for the turns


async def test_stop_jumps_ahead_of_the_questions_waiting(queued: Queued) -> None:
    chat = a_chat()
    async with aiohttp.ClientSession() as http:
        await send_telegram(http, queued.urls[0], chat, "hello", "en")
        await answered(queued, chat, 1, timeout=30)
        queued.actions.delay = 1.0
        questions = ["when is the next flight?", "is abbey gate open?", "what documents?"]
        for number, text in enumerate([*questions, "STOP"]):
            await send_telegram(http, queued.urls[number % 2], chat, text, "en")
    await answered(queued, chat, 5, timeout=60)

    told = queued.user_texts(conversation_id("telegram", str(chat)))[1:]
    assert sorted(told) == sorted([*questions, "STOP"])
    # The first question was being answered; STOP went before the two still waiting.
    assert told.index("STOP") <= 1, told


def same_line_as(chat: int) -> int:
    """Another chat whose conversation falls in ``chat``'s line (16, the default)."""
    line = partition_of(conversation_id("telegram", str(chat)), 16)
    while True:
        other = a_chat()
        if other != chat and partition_of(conversation_id("telegram", str(other)), 16) == line:
            return other


async def test_one_persons_flood_waits_behind_another_persons_question(queued: Queued) -> None:
    flooder = a_chat()
    other = same_line_as(flooder)
    flood = [f"when is the next flight to doha {n}" for n in range(1, 13)]
    queued.actions.delay = 0.3
    async with aiohttp.ClientSession() as http:
        for number, text in enumerate(flood):
            await send_telegram(http, queued.urls[number % 2], flooder, text, "en")
        await send_telegram(http, queued.urls[1], other, "is abbey gate open?", "en")
    await answered(queued, other, 1, timeout=60)
    await answered(queued, flooder, len(flood), timeout=120)

    def taken_at(chat: int) -> list[float]:
        events = stored_events(queued.servers.database, conversation_id("telegram", str(chat)))
        return [event["timestamp"] for event in events if event["event"] == "user"]

    # The other person's question was taken before the flood's third message: it waited
    # behind one or two turns of the flood, not twelve.
    assert taken_at(other)[0] < taken_at(flooder)[2]
    # The flood itself is answered whole, in the order sent.
    assert queued.user_texts(conversation_id("telegram", str(flooder))) == flood


async def test_a_person_waiting_is_told_in_pashto_before_the_answer(queued: Queued) -> None:
    chat = a_chat()
    conversation = conversation_id("telegram", str(chat))
    async with aiohttp.ClientSession() as http:
        await send_telegram(http, queued.urls[0], chat, "د کابل هوايي ډګر خلاص دی؟", "en")
        await answered(queued, chat, 1, timeout=30)
        before = len(queued.received(chat))
        queued.actions.delay = 2.5
        await send_telegram(http, queued.urls[0], chat, "الوتکه کله ده", "en")
        await send_telegram(http, queued.urls[1], chat, "د الوتکې وخت", "en")
    await answered(queued, chat, 3, timeout=60)

    got = queued.received(chat, before)
    [notice] = notices(got)
    assert notice.startswith(NOTICE_STARTS["ps"])  # the conversation's language, only it
    # Told while the second message waited, before its answer reached the person.
    assert got.index(notice) < len(got) - 1
    assert answers(got) == queued.bot_texts(conversation, after=1)


async def webchat(url: str, path: str, body: dict[str, Any]) -> Any:
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as http,
        http.post(f"{url}/webchat/{path}", json=body) as response,
    ):
        assert response.status == 200, await response.text()
        return await response.json()


async def test_the_web_chat_past_its_limit_answers_the_notice_and_the_mailbox_the_answer(
    queued: Queued,
) -> None:
    url = queued.urls[0]
    first, second = (f"page-{uuid.uuid4().hex[:16]}" for _ in range(2))
    queued.actions.delay = 2.0
    calls = queued.actions.calls
    slow = asyncio.create_task(
        webchat(url, "webhook", {"sender": first, "message": "when is the next flight?"})
    )
    await until(lambda: queued.actions.calls > calls, 30, "the first turn reached its action")

    [notice] = await webchat(url, "webhook", {"sender": second, "message": "پرواز بعدی چی وقت است"})
    assert notice["waiting"] is True
    assert notice["text"].startswith(NOTICE_STARTS["prs"])  # Dari, from its letters
    assert notice["language"] == "prs"

    replies = await slow  # the turn within the limit: its answer in its response
    assert replies and not notices([r.get("text", "") for r in replies])

    async def mailbox() -> list[dict[str, Any]]:
        fetched = await webchat(url, "mailbox", {"sender": second, "ack": []})
        return list(fetched["messages"])

    later = conversation_id("webchat", second)
    # Rasa stores a turn after its replies went out: then the mailbox has all of them.
    await until(lambda: queued.bot_texts(later), 30, "the second turn answered")
    got = await until(mailbox, 5, "the answer in the mailbox")
    # As in an answer given at once, each paragraph is a message of its own (Rasa's collector).
    paragraphs = [part for text in queued.bot_texts(later) for part in text.strip().split("\n\n")]
    assert [m["text"] for m in got if m.get("text")] == paragraphs


async def test_telegram_down_for_seconds_delays_the_answers_and_loses_none(
    queued: Queued,
) -> None:
    """Telegram's API answers 502 for six seconds while people write: every answer reaches
    its person once Telegram is back, and each message is in its conversation once."""
    chats = [a_chat() for _ in range(3)]
    providers = queued.servers.providers
    providers.down_until = time.monotonic() + 6.0
    refused_before = providers.down_refused["telegram"]
    async with aiohttp.ClientSession() as http:
        for number, chat in enumerate(chats):
            text = ["is abbey gate open?", "پرواز بعدی چی وقت است", "د کابل میدان پرانیستی دی؟"][
                number
            ]
            await send_telegram(http, queued.urls[number % 2], chat, text)
    for chat in chats:
        await answered(queued, chat, 1, timeout=60)
    assert providers.down_refused["telegram"] > refused_before  # the replies did meet the outage
    for chat in chats:
        conversation = conversation_id("telegram", str(chat))
        assert len(queued.user_texts(conversation)) == 1
        got = answers(queued.received(chat))
        assert got and got == queued.bot_texts(conversation)  # every reply, once, in order


async def test_a_server_stopped_mid_turn_ends_its_turns_before_it_goes(queued: Queued) -> None:
    """A restart in a surge (SIGTERM, as ``docker stop`` and ``make run``'s stack send it):
    the turns under way in the server that stops end there, each answered once; none is cut
    off to be run again by the other server, which answers the rest."""
    chats = [a_chat() for _ in range(8)]
    async with aiohttp.ClientSession() as http:
        for chat in chats:
            await send_telegram(http, queued.urls[0], chat, "hello", "en")
        for chat in chats:
            await answered(queued, chat, 1, timeout=60)
        before = {chat: len(queued.received(chat)) for chat in chats}
        calls = queued.actions.calls
        queued.actions.delay = 2.0
        for chat in chats:
            await send_telegram(http, queued.urls[0], chat, "is abbey gate open?", "en")
    # Four workers, two in each server, each in the middle of a turn (in its action).
    await until(lambda: queued.actions.in_flight >= 4, 30, "four turns in flight at once")
    os.killpg(queued.servers.stack.processes()["rasa-2"].pid, signal.SIGTERM)
    try:
        for chat in chats:
            await answered(queued, chat, 2, timeout=60)
        assert queued.actions.calls - calls == len(chats)  # no turn was run a second time
        for chat in chats:
            conversation = conversation_id("telegram", str(chat))
            assert queued.user_texts(conversation) == ["hello", "is abbey gate open?"]
            got = answers(queued.received(chat, before[chat]))
            assert got and got == queued.bot_texts(conversation, after=1)
    finally:
        await started_again(queued, "rasa-2")  # for the tests after this one


async def started_again(queued: Queued, name: str) -> None:
    """Starts the server ``name`` again once it has exited, as ``make run``'s stack does,
    and waits until it answers."""
    stack = queued.servers.stack
    await until(lambda: stack.processes()[name].poll() is not None, 30, f"{name} exited")

    def restarted() -> bool:
        stack.restart_dead()  # the first call sets when, a later one starts it
        return stack.processes()[name].poll() is None

    await until(restarted, 30, f"{name} started again")
    url = queued.urls[[server for server, *_ in stack.rasa_servers()].index(name)]
    async with aiohttp.ClientSession() as http:
        await until(lambda: http_ok(http, f"{url}/"), 120, f"{name} answers again")


async def test_a_server_killed_mid_turn_leaves_each_message_to_the_other_answered_once(
    queued: Queued,
) -> None:
    chats = [a_chat() for _ in range(8)]
    async with aiohttp.ClientSession() as http:
        for number, chat in enumerate(chats):
            await send_telegram(http, queued.urls[number % 2], chat, "hello", "en")
        for chat in chats:
            await answered(queued, chat, 1, timeout=60)
        before = {chat: len(queued.received(chat)) for chat in chats}
        queued.actions.delay = 4.0
        for number, chat in enumerate(chats):
            await send_telegram(http, queued.urls[number % 2], chat, "is abbey gate open?", "en")
    # Four workers, two in each server, each in the middle of a turn (in its action).
    await until(lambda: queued.actions.in_flight >= 4, 30, "four turns in flight at once")
    second = queued.servers.stack.processes()["rasa-2"]
    os.killpg(second.pid, signal.SIGKILL)
    second.wait(10)
    queued.actions.delay = 0.0

    for chat in chats:
        await answered(queued, chat, 2, timeout=60)
    for chat in chats:
        conversation = conversation_id("telegram", str(chat))
        assert queued.user_texts(conversation) == ["hello", "is abbey gate open?"]
        got = answers(queued.received(chat, before[chat]))
        assert got and got == queued.bot_texts(conversation, after=1)  # once, none lost
