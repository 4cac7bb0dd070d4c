"""The REST channel of the README's examples: replies as Rasa's, the apology as every channel's."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from rasa.core.channels.channel import UserMessage

from bot.channels.rest import RestInput
from bot.channels.settings import DEFAULT_SYNC_TURNS_WAITING, sync_turns_waiting
from bot.channels.sync_turns import SyncTurns
from bot.channels.waits import SOON_SECONDS
from kernel.lang.texts import CATALOGUE
from kernel.notices import in_line, try_again
from kernel.settings_values import SettingsError
from tests.channels import channel_support
from tests.channels.channel_support import KnowingBot, Serve, replying
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


@dataclass
class HeldBot(KnowingBot):
    """Answers "answer: <text>"; a message "slow …" is held until ``release`` is set."""

    release: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.respond = lambda message: [{"text": f"answer: {message.text}"}]

    async def handle_message(self, message: UserMessage) -> None:
        if message.text.startswith("slow"):
            await self.release.wait()
        await super().handle_message(message)


async def until(check: Callable[[], Awaitable[Any]], timeout: float = 10.0) -> Any:
    """What ``check`` returns once it is something, polled until ``timeout``."""
    deadline = time.monotonic() + timeout
    while not (result := await check()):
        assert time.monotonic() < deadline, "the condition never came"
        await asyncio.sleep(0.02)
    return result


async def fetch(url: str, sender: str, acknowledged: list[str] | None = None) -> Any:
    body = {"sender": sender, "ack": acknowledged or []}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{url}/mailbox", json=body) as reply,
    ):
        assert reply.status == 200
        return (await reply.json())["messages"]


async def test_past_the_limit_a_turn_still_under_way_gets_the_notice_and_the_mailbox_its_reply(
    serve: Serve,
) -> None:
    bot = HeldBot()
    bot.tracker_store.trackers["zarmina"] = channel_support.Tracker(language="ps")
    turns = SyncTurns(1, notice_seconds=0.2)
    url = await serve(RestInput(turns=turns), bot)
    first = asyncio.create_task(post(url, {"sender": "amina", "message": "slow question"}))
    await until(lambda: asyncio.sleep(0, turns.taking))  # the first turn is in progress

    status, replies = await post(url, {"sender": "zarmina", "message": "slow الوتکه کله ده"})
    assert status == 200
    [notice] = replies
    assert notice["waiting"] is True and notice["recipient_id"] == "zarmina"
    # Pashto, from the conversation; two turns ahead at the assumed pace: "in a moment".
    assert notice["text"] == in_line("ps", None)
    # STOP is no one's to wait behind: answered in the response, over the limit too.
    assert await post(url, {"sender": "zarmina", "message": "STOP"}) == (
        200,
        [{"recipient_id": "zarmina", "text": "answer: STOP"}],
    )
    assert await fetch(url, "zarmina") == []  # still under way

    bot.release.set()
    [later] = await until(lambda: fetch(url, "zarmina"))
    assert later["text"] == "answer: slow الوتکه کله ده"
    assert await fetch(url, "zarmina", [later["id"]]) == []  # acknowledged: once only
    assert (await first)[1] == [{"recipient_id": "amina", "text": "answer: slow question"}]
    assert await fetch(url, "amina") == []  # answered in its response, not twice


@dataclass
class BusyBot(KnowingBot):
    """Answers "answer: <text>" after ``seconds``, ``at_once`` turns at a time (the others
    wait their turn, in order), and records when each answer was ready."""

    seconds: float = 0.02
    at_once: int = 1000
    answered_at: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.respond = lambda message: [{"text": f"answer: {message.text}"}]
        self._serving = asyncio.Semaphore(self.at_once)

    async def handle_message(self, message: UserMessage) -> None:
        async with self._serving:
            await asyncio.sleep(self.seconds)
            self.answered_at[message.sender_id] = time.monotonic()
            await super().handle_message(message)

    async def parse_message(self, text: str) -> dict[str, Any]:
        """The NLU's reading of a first message in romanized Dari."""
        latin = {"code": "prs", "script": "Latn", "confidence": 0.99, "shared": False, "words": 3}
        return {"text": text, "language": latin}


async def test_a_rush_answered_within_seconds_gets_its_answers_and_no_notice(
    serve: Serve,
) -> None:
    """120 people at once, as the web chat sends them: all answered in about a second, so
    nobody is told "the answer comes in about 21 minutes" (nor "2")."""
    bot = BusyBot(seconds=0.05)
    url = await serve(RestInput(turns=SyncTurns(4)), bot)
    people = [f"person{number}" for number in range(120)]
    answers = await asyncio.gather(
        *(post(url, {"sender": who, "message": f"question of {who}"}) for who in people)
    )
    for who, (status, replies) in zip(people, answers, strict=True):
        assert status == 200
        assert replies == [{"recipient_id": who, "text": f"answer: question of {who}"}]


async def test_a_person_kept_waiting_is_told_once_in_one_language(serve: Serve) -> None:
    """A new conversation in romanized Dari, no tracker, no hint: the notice in Dari, as the
    turn will answer (not in all three languages); their next message that waits is
    answered with nothing, and both answers come by the mailbox."""
    bot = HeldBot()
    bot.parse_message = BusyBot.parse_message.__get__(bot)  # type: ignore[method-assign]
    turns = SyncTurns(1)
    turns.notice_seconds = 0.2
    url = await serve(RestInput(turns=turns), bot)
    first = asyncio.create_task(post(url, {"sender": "amina", "message": "slow question"}))
    await until(lambda: asyncio.sleep(0, turns.taking))

    status, [notice] = await post(url, {"sender": "nadia", "message": "slow parwaz ba doha"})
    assert status == 200 and notice["text"] == in_line("prs", None)
    assert await post(url, {"sender": "nadia", "message": "slow kabul?"}) == (200, [])
    bot.release.set()
    later = await until(lambda: fetch(url, "nadia"))
    while len(later) < 2:
        later = await fetch(url, "nadia")
    assert sorted(m["text"] for m in later) == [
        "answer: slow kabul?",
        "answer: slow parwaz ba doha",
    ]
    await first


async def test_the_wait_said_is_within_twice_the_wait_measured(serve: Serve) -> None:
    """A line answered one turn at a time, 0.1 s a turn, seen on a clock that runs 100 times
    faster: the waits are minutes on it. Every notice's minutes, or its "in a moment" (up to
    a minute and a half), are within a factor of two of how long its answer then took
    (in Dari: the bot's NLU reads the question as romanized Dari)."""
    speed = 100.0
    bot = BusyBot(seconds=0.1, at_once=1)
    turns = SyncTurns(1, notice_seconds=0.45, clock=lambda: time.monotonic() * speed)
    url = await serve(RestInput(turns=turns), bot)
    people = [f"person{number}" for number in range(24)]

    async def ask(who: str) -> tuple[str, float, list[dict[str, Any]]]:
        _, replies = await post(url, {"sender": who, "message": "when is the next flight?"})
        return who, time.monotonic(), replies

    asked = await asyncio.gather(*(ask(who) for who in people))
    await until(lambda: asyncio.sleep(0, len(bot.answered_at) == len(people)))
    promised = {
        who: (at, replies[0]["text"]) for who, at, replies in asked if replies[0].get("waiting")
    }
    assert len(promised) >= 15  # most were told
    minutes = {in_line("prs", n): n for n in range(2, 10)}
    for who, (told_at, text) in promised.items():
        took = (bot.answered_at[who] - told_at) * speed
        if text == in_line("prs", None):
            assert took <= 2 * SOON_SECONDS, (who, took)
        else:
            said = minutes[text] * 60.0
            assert 0.5 <= said / took <= 2.0, (who, said, took)
    assert any(text != in_line("prs", None) for _, text in promised.values())


async def test_a_mailbox_fetch_without_a_sender_is_a_400(serve: Serve) -> None:
    url = await serve(RestInput(), replying())
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{url}/mailbox", data=b"[]") as reply,
    ):
        assert reply.status == 400


def test_the_limit_of_turns_taken_at_once_is_a_whole_number_above_zero() -> None:
    assert sync_turns_waiting({}) == DEFAULT_SYNC_TURNS_WAITING
    assert sync_turns_waiting({"SYNC_TURNS_WAITING": "4"}) == 4
    for wrong in ("0", "-1", "many"):
        with pytest.raises(SettingsError, match="SYNC_TURNS_WAITING"):
            sync_turns_waiting({"SYNC_TURNS_WAITING": wrong})
