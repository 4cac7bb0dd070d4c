"""The webhook intake: providers answered at once, each person in order, urgent messages first,
the wait said; in this process's line, in the same kept in a SQLite journal (`make run`'s) and
in Redis Streams (the tests' own Redis server)."""

from __future__ import annotations

import asyncio
import collections
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
import sqlalchemy as sa
from aiohttp import web
from rasa.core.channels.channel import UserMessage

from bot.channels.addresses import AddressBook
from bot.channels.identity import conversation_id
from bot.channels.intake.jumping import jumps_the_line
from bot.channels.intake.kept_line import JournaledLine
from bot.channels.intake.ledger import language_key, told_key
from bot.channels.intake.line import Job, Line, ProcessLine
from bot.channels.intake.worker import Intake
from bot.channels.kannel import KannelInput
from bot.channels.redis_memory import RedisMemory
from bot.channels.settings import (
    IntakeSettings,
    KannelSettings,
    LineShare,
    RedisSettings,
    TelegramSettings,
    WhatsAppSettings,
)
from bot.channels.telegram import SECRET_HEADER, Incoming, TelegramInput
from bot.channels.waits import SOON_SECONDS, ServicePace
from bot.channels.whatsapp import WhatsAppInput
from kernel.contract import DELETED_CONFIRMATION, language_metadata
from kernel.lang.texts import CATALOGUE
from kernel.memory import ChannelMemory, MemoryUnavailable, ProcessMemory
from kernel.notices import in_line
from kernel.settings_values import SettingsError
from tests.channels.channel_support import (
    FakeProvider,
    Serve,
    as_rasa_sends,
    fixture,
    serve_channel,
)
from tests.channels.test_deliveries import queue_delivery
from tests.channels.test_delivery_statuses import WAMID, alert_through, notify, row
from tests.channels.test_kannel import DARI_QUERY, FakeSmsbox
from tests.channels.test_kannel import SECRET as KANNEL_SECRET
from tests.channels.test_whatsapp import (
    ACCESS_TOKEN,
    APP_SECRET,
    PHONE_NUMBER_ID,
    USER,
    VERIFY_TOKEN,
)

TOKEN = "123456:TEST-token"
SECRET = "test_secret-token"


def update(update_id: int, chat_id: int, text: str, language: str = "en") -> dict[str, Any]:
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private"},
            "from": {"id": chat_id, "is_bot": False, "language_code": language},
            "text": text,
        },
    }


async def post(url: str, body: dict[str, Any]) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{url}/webhook", data=json.dumps(body).encode(), headers={SECRET_HEADER: SECRET}
        ) as answer,
    ):
        return answer.status


@dataclass
class EchoBot:
    """Answers each message with its own text, after ``delay(text)`` seconds; holds each
    message whose text is in ``held`` until ``go`` is set. Records what it was given, and
    wakes those waiting for a turn to start or end (``until_started``, ``until_answered``)."""

    delay: Callable[[str], float] = lambda text: 0.0
    held: set[str] = field(default_factory=set)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    messages: list[str] = field(default_factory=list)
    started: list[str] = field(default_factory=list)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def handle_message(self, message: UserMessage) -> None:
        await self.note(self.started, message.text or "")
        if message.text in self.held:
            await self.go.wait()
        await asyncio.sleep(self.delay(message.text or ""))
        await self.note(self.messages, message.text or "")
        reply = as_rasa_sends({"text": f"re: {message.text}"})
        await message.output_channel.send_response(message.sender_id, reply)

    async def note(self, into: list[str], text: str) -> None:
        """Adds ``text`` to ``into`` (``started`` or ``messages``) and wakes who waits."""
        async with self.changed:
            into.append(text)
            self.changed.notify_all()

    async def until_started(self, text: str | None = None, timeout: float = 10.0) -> None:
        """Until a turn (``text``'s, or any) has started: woken by the turn itself."""
        await self._until(lambda: text in self.started if text else bool(self.started), timeout)

    async def until_answered(self, timeout: float = 10.0) -> None:
        """Until a turn has made its answer (before the provider was handed it)."""
        await self._until(lambda: bool(self.messages), timeout)

    async def _until(self, condition: Callable[[], bool], timeout: float) -> None:
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(condition), timeout)


class SteppedClock:
    """The intake's wall clock, moved on by the test: a notice's wait passes when the test says
    so, not after real seconds that a loaded machine stretches past a test's window."""

    def __init__(self) -> None:
        self.now = time.time()
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []
        self._asleep = asyncio.Condition()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Until the test has moved the clock ``seconds`` on."""
        ending = asyncio.get_running_loop().create_future()
        async with self._asleep:
            self._sleepers.append((self.now + seconds, ending))
            self._asleep.notify_all()
        await ending

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for end, ending in self._sleepers:
            if end <= self.now and not ending.done():
                ending.set_result(None)
        self._sleepers = [(end, ending) for end, ending in self._sleepers if not ending.done()]

    def sleeping(self) -> int:
        """How many wait on the clock (a chosen notice waits for its message's wait)."""
        return sum(not ending.done() for _, ending in self._sleepers)

    async def until_sleeping(self, count: int, timeout: float = 10.0) -> None:
        """Until ``count`` wait on the clock, woken as each begins to."""
        async with self._asleep:
            await asyncio.wait_for(self._asleep.wait_for(lambda: self.sleeping() == count), timeout)


def stepped(lines: Lines, clock: SteppedClock, **changes: Any) -> Intake:
    """An intake on ``lines`` whose notices read ``clock`` and wait on it."""
    return Intake(lines.make(), settings(**changes), lines.memory(), clock=clock, sleep=clock.sleep)


def opening(code: str) -> str:
    """How the notice of the wait begins in ``code``, whether it names minutes or "a moment"."""
    return CATALOGUE.entry("channels.in_line")[code].split(".", 1)[0]


def sent_texts(provider: FakeProvider) -> list[str]:
    return [
        request.json()["text"]
        for request in provider.requests
        if request.path.endswith("/sendMessage")
    ]


@dataclass
class Lines:
    """Makes the lines of one storage: a second one is another process's view of it."""

    make_line: Callable[[int], Line]
    memory: Callable[[], ChannelMemory]

    def make(self, partitions: int = 4) -> Line:
        return self.make_line(partitions)


@pytest.fixture(params=["process", "journal", "redis"])
async def lines(request: pytest.FixtureRequest) -> AsyncIterator[Lines]:
    if request.param in ("process", "journal"):
        made: dict[int, Line] = {}
        memory = ProcessMemory()
        journal = request.getfixturevalue("tmp_path") / "intake.db"

        def make(n: int) -> Line:
            if n not in made:
                kept = request.param == "journal"
                made[n] = JournaledLine(f"telegram{n}", journal, n) if kept else ProcessLine(n)
            return made[n]

        yield Lines(make, lambda: memory)
        for line in made.values():
            await line.close()
        return
    from bot.channels.intake.redis_line import RedisLine

    env = request.getfixturevalue("redis_env")  # the tests' Redis, a key prefix of its own
    redis = RedisSettings.load(env)
    assert redis is not None
    yield Lines(
        lambda n: RedisLine.connect(f"telegram{n}", n, redis), lambda: RedisMemory.connect(redis)
    )


def settings(**changes: Any) -> IntakeSettings:
    base = {
        "mode": "queue",
        "workers": 2,
        "partitions": 4,
        "notice_seconds": 30.0,
        "claim_idle_seconds": 5.0,
        "retry_seconds": (0.0,),
    }
    return IntakeSettings(**{**base, **changes})


@pytest.fixture
async def channel(provider: FakeProvider) -> AsyncIterator[TelegramInput]:
    channel = TelegramInput(TelegramSettings(TOKEN, SECRET, provider.url))
    yield channel
    await channel.api.close()


def with_intake(provider: FakeProvider, intake: Intake) -> TelegramInput:
    return TelegramInput(TelegramSettings(TOKEN, SECRET, provider.url), intake=intake)


async def test_the_provider_is_answered_before_the_turn_ends(
    lines: Lines, provider: FakeProvider, serve: Serve
) -> None:
    intake = Intake(lines.make(), settings(), lines.memory())
    channel = with_intake(provider, intake)
    bot = EchoBot(held={"when is the next flight?"})
    url = await serve(channel, bot)  # type: ignore[arg-type]
    started = time.monotonic()
    assert await post(url, update(1, 700, "when is the next flight?")) == 200
    assert time.monotonic() - started < 2.0
    assert sent_texts(provider) == []  # the turn has not ended, the provider has its 200
    bot.go.set()
    await intake.drained()
    assert sent_texts(provider) == ["re: when is the next flight?"]
    # Telegram's retry of the same update is answered 200 and never reaches the bot again.
    assert await post(url, update(1, 700, "when is the next flight?")) == 200
    await intake.drained()
    assert bot.messages == ["when is the next flight?"]


async def test_one_persons_burst_is_answered_in_the_order_sent_by_two_workers(
    lines: Lines, provider: FakeProvider, serve: Serve
) -> None:
    intake = Intake(lines.make(), settings(workers=2), lines.memory())
    channel = with_intake(provider, intake)
    # The first messages take longest: without one line per person the later ones would win.
    bot = EchoBot(delay=lambda text: 0.25 if text.endswith(("1", "2")) else 0.0)
    url = await serve(channel, bot)  # type: ignore[arg-type]
    burst = [f"question {n}" for n in range(1, 6)]
    other = ["another person 1", "another person 2"]
    for number, text in enumerate(burst, start=1):
        assert await post(url, update(100 + number, 701, text)) == 200
    for number, text in enumerate(other, start=1):
        assert await post(url, update(200 + number, 702, text)) == 200
    await intake.drained()
    replies = sent_texts(provider)
    assert [reply for reply in replies if "question" in reply] == [f"re: {t}" for t in burst]
    assert [reply for reply in replies if "another" in reply] == [f"re: {t}" for t in other]


async def test_a_worker_stopped_mid_turn_leaves_the_message_to_the_next_once(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    first = Intake(lines.make(), settings(workers=1), lines.memory())
    bot = EchoBot(held={"is the gate open?"})
    await first.start(channel, bot, bot.handle_message)
    await put(first, channel, 703, "is the gate open?")
    await bot.until_started()
    await first.stop(grace=0)  # the worker dies in the middle of the turn: nothing was sent
    assert sent_texts(provider) == []

    second = Intake(lines.make(), settings(workers=1), lines.memory())  # another process
    bot.held.clear()
    await second.start(channel, bot, bot.handle_message)
    await second.drained()
    await second.stop()
    assert sent_texts(provider) == ["re: is the gate open?"]


async def test_a_server_that_stops_ends_the_turn_under_way_and_takes_no_other(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    """A restart during a surge: the person whose answer is being made gets it (and the
    conversation stores it) before the process goes; the next message waits for the next
    process instead of being cut off in the middle."""
    first = Intake(lines.make(1), settings(workers=1, partitions=1), lines.memory())
    bot = EchoBot(held={"is the gate open?"})
    await first.start(channel, bot, bot.handle_message)
    await put(first, channel, 706, "is the gate open?")
    await put(first, channel, 707, "which documents do I need?")
    await bot.until_started()
    stopping = asyncio.create_task(first.stop())
    while first.workers:  # a turn of the loop, no clock, until the stop has begun
        await asyncio.sleep(0)
    # A stop that did not wait for the turn under way would have cut it off by now.
    assert not stopping.done()
    bot.go.set()
    await asyncio.wait_for(stopping, 5)
    assert sent_texts(provider) == ["re: is the gate open?"]
    assert await lines.make(1).depth() == 1  # the second message waits in line

    second = Intake(lines.make(1), settings(workers=1, partitions=1), lines.memory())
    await second.start(channel, bot, bot.handle_message)
    await second.drained()
    await second.stop()
    assert sent_texts(provider) == ["re: is the gate open?", "re: which documents do I need?"]
    assert bot.started == ["is the gate open?", "which documents do I need?"]


@dataclass
class ReplyThenHang(EchoBot):
    """Answers in Dari, then hangs before its turn ends (the tracker not yet stored) until
    ``go``."""

    async def handle_message(self, message: UserMessage) -> None:
        await self.note(self.started, message.text or "")
        reply = as_rasa_sends({"text": f"re: {message.text}", "metadata": language_metadata("prs")})
        await message.output_channel.send_response(message.sender_id, reply)
        await self.note(self.messages, message.text or "")
        await self.go.wait()


async def test_a_worker_killed_after_its_first_reply_does_not_run_the_turn_again_and_says_so(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    first = Intake(lines.make(), settings(workers=1), lines.memory())
    bot = ReplyThenHang()
    await first.start(channel, bot, bot.handle_message)
    await put(first, channel, 705, "is the gate open?")
    await bot.until_answered()
    await first.stop(grace=0)  # killed: the person has a first reply; the turn never ended
    assert sent_texts(provider) == ["re: is the gate open?"]

    second = Intake(lines.make(), settings(workers=1), lines.memory())  # another process
    bot.go.set()
    await second.start(channel, bot, bot.handle_message)
    await second.drained()
    await second.stop()
    # Not run again (its actions would do their work twice): told once, in the language
    # its first reply named, which only that reply's record kept.
    cut_off = CATALOGUE.entry("channels.cut_off")["prs"]
    assert sent_texts(provider) == ["re: is the gate open?", cut_off]
    assert bot.started == ["is the gate open?"]

    third = Intake(lines.make(), settings(workers=1), lines.memory())
    await third.start(channel, bot, bot.handle_message)
    await third.drained()
    await third.stop()
    assert len(sent_texts(provider)) == 2
    assert await third.line.depth() == 0


async def test_a_turn_that_breaks_after_its_first_reply_is_not_run_again_and_says_so(
    lines: Lines, provider: FakeProvider, channel: TelegramInput, monkeypatch: pytest.MonkeyPatch
) -> None:
    intake = Intake(lines.make(1), settings(workers=1, partitions=1), lines.memory())
    bot = EchoBot()
    take = channel.take

    async def breaking_after_its_answer(message: Incoming, *args: Any) -> Any:
        await take(message, *args)
        raise RuntimeError("a bug after the answer went out")

    monkeypatch.setattr(channel, "take", breaking_after_its_answer)
    await put(intake, channel, 706, "د ابی دروازه خلاصه ده؟", "ps")
    await served_until_drained(intake, channel, bot)
    cut_off = CATALOGUE.entry("channels.cut_off")["ps"]
    assert sent_texts(provider) == ["re: د ابی دروازه خلاصه ده؟", cut_off]
    assert bot.started == ["د ابی دروازه خلاصه ده؟"]
    assert await intake.line.depth() == 0


async def test_a_message_answered_before_its_worker_stopped_is_not_answered_again(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    line = lines.make()
    never, acking = asyncio.Event(), asyncio.Event()

    async def ack_that_never_comes(*_: Any) -> None:
        acking.set()
        await never.wait()  # the worker dies after the replies went out, before XACK

    real_ack = line.ack
    line.ack = ack_that_never_comes  # type: ignore[method-assign]
    first = Intake(line, settings(workers=1), lines.memory())
    bot = EchoBot()
    await first.start(channel, bot, bot.handle_message)
    await put(first, channel, 704, "is the gate open?")
    # Stopped once the turn is over (its replies out, its record kept) and only XACK is left.
    await asyncio.wait_for(acking.wait(), 10)
    await first.stop(grace=0)
    line.ack = real_ack  # type: ignore[method-assign]

    second = Intake(lines.make(), settings(workers=1), lines.memory())
    await second.start(channel, bot, bot.handle_message)
    await second.drained()
    await second.stop()
    assert sent_texts(provider) == ["re: is the gate open?"]
    assert bot.messages == ["is the gate open?"]


async def answered_in_order(
    line: Line,
    memory: ChannelMemory,
    channel: TelegramInput,
    first: tuple[int, str],
    behind: list[tuple[int, str]],
) -> list[str]:
    """What one worker answers, in order, when the message ``first`` (chat, text) holds it and
    the messages ``behind`` are put in line meanwhile, each chat's numbered as they come."""
    intake = Intake(line, settings(workers=1, partitions=1), memory)
    bot = EchoBot(held={first[1]})
    await intake.start(channel, bot, bot.handle_message)
    sent = collections.Counter([first[0]])
    await put(intake, channel, *first, number=1)
    await bot.until_started()
    for chat, text in behind:
        sent[chat] += 1
        await put(intake, channel, chat, text, number=sent[chat])
    bot.go.set()
    await intake.drained()  # parked messages count: it waits for them too
    await intake.stop()
    return bot.messages


async def test_stop_delete_and_urgent_words_jump_the_line(
    lines: Lines, channel: TelegramInput
) -> None:
    waiting = [
        (802, "what flights leave today?"),
        (803, "STOP"),
        (804, "where is the office?"),
        (805, "/delete_my_data"),
        (806, "my child is injured, urgent"),
    ]
    answered = await answered_in_order(
        lines.make(1), lines.memory(), channel, (801, "first question"), waiting
    )
    assert answered == [
        "first question",
        "STOP",
        "/delete_my_data",
        "my child is injured, urgent",
        "what flights leave today?",
        "where is the office?",
    ]


async def test_a_persons_burst_waits_behind_everyone_elses_first_message(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    flood = [f"flood {n}" for n in range(1, 21)]
    others = [(902, "is abbey gate open?"), (903, "when is the next flight?")]
    behind = [(901, text) for text in flood[1:]] + others
    answered = await answered_in_order(
        lines.make(1), lines.memory(), channel, (901, flood[0]), behind
    )
    # One turn of the flood, then everyone else's first message, then the rest of it, in order.
    assert answered == [flood[0], "is abbey gate open?", "when is the next flight?", *flood[1:]]
    assert sent_texts(provider) == [f"re: {text}" for text in answered]


async def test_only_a_persons_first_urgent_messages_jump_and_stop_passes_them_all(
    lines: Lines, channel: TelegramInput
) -> None:
    flood = [f"my child is bleeding help us {n}" for n in range(1, 11)]
    others = [
        (803, "where is the office?"),
        (804, "my brother is injured at the gate, urgent"),
        (805, "STOP"),
        (806, "/delete_my_data"),
    ]
    behind = [(802, text) for text in flood] + others
    answered = await answered_in_order(
        lines.make(1), lines.memory(), channel, (801, "first question"), behind
    )
    assert (
        answered
        == [
            "first question",
            "STOP",
            "/delete_my_data",
            *flood[:3],  # the flooder's three jumps
            "my brother is injured at the gate, urgent",
            "where is the office?",
            *flood[3:],  # the rest of the flood waits its turn, in order
        ]
    )


async def test_a_share_of_zero_lets_every_message_in_line_as_before(
    lines: Lines, channel: TelegramInput
) -> None:
    line = lines.make(1)
    line.share = LineShare(in_line=0, jumps=0)
    behind = [(901, "flood 2"), (901, "flood 3"), (902, "is abbey gate open?")]
    answered = await answered_in_order(line, lines.memory(), channel, (901, "flood 1"), behind)
    assert answered == ["flood 1", "flood 2", "flood 3", "is abbey gate open?"]


async def test_many_short_turns_in_a_row_do_not_outlast_the_lease_and_run_twice(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    # Two processes' workers on one line; a lease of 1 s, turns of 0.2 s: ten of them in a row
    # outlast it unless it is renewed between turns (a turn renews it only after a third of it).
    line = lines.make(1)
    quick = settings(workers=1, partitions=1, claim_idle_seconds=1.0)
    here, there = Intake(line, quick, lines.memory()), Intake(lines.make(1), quick, lines.memory())
    bot = EchoBot(delay=lambda text: 0.2)
    burst = [f"question {n}" for n in range(1, 11)]
    for number, text in enumerate(burst, start=1):
        await put(here, channel, 905, text, number=number)
    await here.start(channel, bot, bot.handle_message)
    await bot.until_started()  # the first worker holds the line
    await there.start(channel, bot, bot.handle_message)
    await here.drained(timeout=20)
    await here.stop()
    await there.stop()
    assert bot.messages == burst  # each once, in order


async def test_a_count_left_behind_in_redis_does_not_park_a_person_for_good(
    provider: FakeProvider, channel: TelegramInput, redis_env: dict[str, str]
) -> None:
    from bot.channels.intake.redis_line import RedisLine

    redis = RedisSettings.load(redis_env)
    assert redis is not None
    line = RedisLine.connect("telegram-heal", 1, redis)
    await line.open()
    job = Job("telegram:1", "telegram:999", {}, text="is the gate open?")
    # An entry that was taken and never acknowledged, then lost, left its count behind.
    await line._redis.hincrby(line._people(0), job.conversation, 1)
    await line.put(job)
    assert await line.depth() == 1
    assert await line.lease(0, "worker", 5.0)
    assert await line.take(0, "worker") is None  # nothing in line: the counts are made again
    taken = await line.take(0, "worker")
    assert taken is not None and taken.job == job
    await line.ack(0, taken)
    assert await line.depth() == 0
    await line.close()


def test_each_persons_share_is_set_by_the_operator() -> None:
    assert IntakeSettings.load({}).share == LineShare(in_line=1, jumps=3)
    loaded = IntakeSettings.load(
        {"INTAKE_IN_LINE_PER_PERSON": "0", "INTAKE_JUMPS_PER_PERSON": "5"}
    ).share
    assert (loaded.in_line, loaded.jumps) == (0, 5)
    with pytest.raises(SettingsError, match="INTAKE_JUMPS_PER_PERSON"):
        IntakeSettings.load({"INTAKE_JUMPS_PER_PERSON": "-1"})


def test_what_jumps_the_line() -> None:
    assert jumps_the_line("STOP!")
    assert jumps_the_line("توقف")
    assert jumps_the_line("/delete_my_data")
    assert jumps_the_line("safety")
    assert jumps_the_line("خوندیتوب")
    assert not jumps_the_line("when does the next flight leave?")
    assert not jumps_the_line(None)


async def one_worker_telling(
    lines: Lines, provider: FakeProvider, serve: Serve, bot: EchoBot, clock: SteppedClock
) -> tuple[Intake, TelegramInput, str]:
    """Telegram served with one intake worker, telling of the wait after 30 s on ``clock``;
    its channel and URL."""
    intake = stepped(lines, clock, workers=1)
    channel = with_intake(provider, intake)
    url = await serve(channel, bot)  # type: ignore[arg-type]
    return intake, channel, url


def told_in(provider: FakeProvider, code: str) -> list[str]:
    return [text for text in sent_texts(provider) if text.startswith(opening(code))]


async def test_a_person_waiting_is_told_once_in_their_language(
    lines: Lines, provider: FakeProvider, serve: Serve
) -> None:
    bot, clock = EchoBot(held={"blocking question"}), SteppedClock()
    intake, channel, url = await one_worker_telling(lines, provider, serve, bot, clock)
    assert await post(url, update(1, 710, "blocking question")) == 200
    await bot.until_started()
    # A Dari speaker writes twice while the only worker is busy.
    assert await post(url, update(2, 711, "پرواز بعدی چه وقت است؟", "fa")) == 200
    assert await post(url, update(3, 711, "میدان هوایی باز است؟", "fa")) == 200
    clock.advance(31.0)  # past the notice time: the next check tells them
    await provider.until(lambda: bool(told_in(provider, "prs")))
    for _ in range(3):  # and the checks after it do not
        clock.advance(1.0)
        assert await intake.tell_the_wait(channel, bot) == 0
    # Once, in Dari only; one message ahead of theirs: "in a moment", not "2 minutes".
    assert told_in(provider, "prs") == [in_line("prs", None)]
    bot.go.set()
    await intake.drained()
    replies = [text for text in sent_texts(provider) if text.startswith("re:")]
    assert replies == [
        "re: blocking question",
        "re: پرواز بعدی چه وقت است؟",
        "re: میدان هوایی باز است؟",
    ]


@dataclass
class PashtoBot(EchoBot):
    """Answers in Pashto, as Rasa names a reply's language; its tracker store must not be read."""

    tracker_reads: int = 0

    @property
    def tracker_store(self) -> PashtoBot:
        return self

    async def retrieve(self, conversation: str) -> None:
        self.tracker_reads += 1

    async def handle_message(self, message: UserMessage) -> None:
        await self.note(self.started, message.text or "")
        if message.text in self.held:
            await self.go.wait()
        reply = as_rasa_sends({"text": f"re: {message.text}", "metadata": language_metadata("ps")})
        await message.output_channel.send_response(message.sender_id, reply)


async def test_the_notice_is_in_the_language_of_the_last_answer_without_reading_the_tracker(
    lines: Lines, provider: FakeProvider, serve: Serve
) -> None:
    bot, clock = PashtoBot(held={"blocking question"}), SteppedClock()
    intake, _, url = await one_worker_telling(lines, provider, serve, bot, clock)
    # Answered in Pashto once; then, in Latin letters on an English phone, while the only
    # worker is busy: the letters and the phone's language would both say English.
    assert await post(url, update(1, 712, "salam", "en")) == 200
    await intake.drained()
    assert await post(url, update(2, 710, "blocking question")) == 200
    await bot.until_started("blocking question")
    assert await post(url, update(3, 712, "parwaz kala da", "en")) == 200
    clock.advance(31.0)
    await provider.until(lambda: bool(told_in(provider, "ps")))
    assert not told_in(provider, "en")
    assert bot.tracker_reads == 0
    bot.go.set()
    await intake.drained()


class ForgettingBot(EchoBot):
    """Answers in Pashto with a numbered menu; "delete my data" with the deletion's confirmation."""

    async def handle_message(self, message: UserMessage) -> None:
        await self.note(self.messages, message.text or "")
        if message.text == "/delete_my_data":
            said = {"text": "Deleted.", "utter_action": DELETED_CONFIRMATION}
        else:
            said = {"text": "re", "buttons": [{"title": "1. Flights", "payload": "/ask_flights"}]}
        reply = as_rasa_sends({**said, "metadata": language_metadata("ps")})
        await message.output_channel.send_response(message.sender_id, reply)


async def test_delete_my_data_leaves_neither_buttons_nor_language_in_the_channels_memory(
    lines: Lines, provider: FakeProvider
) -> None:
    memory = lines.memory()
    intake = Intake(lines.make(1), settings(workers=1, partitions=1), memory)
    settings_ = TelegramSettings(TOKEN, SECRET, provider.url)
    telegram = TelegramInput(settings_, memory=memory, intake=intake)
    conversation = conversation_id("telegram", "730")
    bot = ForgettingBot()
    await put(intake, telegram, 730, "salam", number=1)
    await served_until_drained(intake, telegram, bot)
    assert await memory.get(language_key(conversation)) == "ps"
    assert await memory.get(f"keyboard:{conversation}") is not None

    await put(intake, telegram, 730, "/delete_my_data", number=2)
    await served_until_drained(intake, telegram, bot)
    assert bot.messages == ["salam", "/delete_my_data"]
    assert await memory.get(language_key(conversation)) is None
    assert await memory.get(f"keyboard:{conversation}") is None
    assert await memory.get(f"numbers:{conversation}") is None
    await telegram.api.close()


async def test_a_message_whose_turn_always_fails_leaves_the_line_with_an_apology(
    lines: Lines, provider: FakeProvider, channel: TelegramInput, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One line: the people behind the broken message wait for it, unless it gives way.
    intake = Intake(lines.make(1), settings(workers=1, partitions=1), lines.memory())
    bot = EchoBot()
    take = channel.take

    async def breaking_on_one_message(message: Incoming, *args: Any) -> Any:
        if message.text == "د ابی دروازه خلاصه ده؟":
            raise RuntimeError("a bug in this message's turn")
        return await take(message, *args)

    monkeypatch.setattr(channel, "take", breaking_on_one_message)
    await put(intake, channel, 720, "د ابی دروازه خلاصه ده؟", "ps")
    await put(intake, channel, 721, "when is the next flight?")
    await served_until_drained(intake, channel, bot)
    # Tried three times, then the Pashto speaker is told in Pashto, once; the next person is
    # answered.
    apology = CATALOGUE.entry("channels.try_again")["ps"]
    assert sent_texts(provider) == [apology, "re: when is the next flight?"]


async def test_a_message_that_cannot_be_read_back_does_not_hold_its_line(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    # Put in line by another version of the server, in a form this one does not know.
    intake = Intake(lines.make(1), settings(workers=1, partitions=1), lines.memory())
    await intake.put("c-unknown", {"form": "of another version"}, key="telegram:730", text="hi")
    await put(intake, channel, 731, "is the airport open?")
    await served_until_drained(intake, channel, EchoBot())
    assert sent_texts(provider) == ["re: is the airport open?"]
    assert await intake.line.depth() == 0


async def put(
    intake: Intake,
    channel: TelegramInput,
    chat_id: int,
    text: str,
    language: str | None = None,
    number: int = 0,
) -> None:
    """A Telegram message put in line as the webhook puts it, with a delivery id (the
    ``number``-th of the chat's); with the language hint of the sender's app when
    ``language`` is given."""
    queued = channel.to_queue(Incoming(chat_id, text, language or "en", sent_at=int(time.time())))
    await intake.put(
        queued.conversation,
        queued.data,
        key=f"telegram:{chat_id}:{number}" if number else f"telegram:{chat_id}",
        text=queued.text,
        hint=queued.hint if language else None,
    )


async def served_until_drained(intake: Intake, channel: TelegramInput, bot: EchoBot) -> None:
    """``intake``'s workers answer what waits in its line, then stop."""
    await intake.start(channel, bot, bot.handle_message)
    try:
        await intake.drained(timeout=20)
    finally:
        await intake.stop()


def test_messages_wait_in_line_by_default_in_the_production_profile_only() -> None:
    # The production profile (its Redis) queues; the embedded one, whose line would be lost
    # with its one process, takes each turn before it answers.
    assert IntakeSettings.load({"REDIS_HOST": "redis"}).mode == "queue"
    assert IntakeSettings.load({}).mode == "direct"
    assert IntakeSettings.load({"CHANNEL_INTAKE": "queue"}).mode == "queue"
    assert IntakeSettings.load({"REDIS_HOST": "redis", "CHANNEL_INTAKE": "direct"}).mode == "direct"
    with pytest.raises(SettingsError, match="CHANNEL_INTAKE"):
        IntakeSettings.load({"CHANNEL_INTAKE": "later"})


async def test_a_whatsapp_status_is_recorded_at_once_while_the_persons_message_waits(
    provider: FakeProvider, address_book: AddressBook, serve: Serve
) -> None:
    with address_book.engine.begin() as connection:
        for table in ("alert_deliveries", "alert_broadcasts", "revisions", "alert_addresses"):
            connection.execute(sa.text(f"DELETE FROM {table}"))
    queue_delivery(address_book)
    provider.reply = {"messaging_product": "whatsapp", "messages": [{"id": WAMID}]}
    intake = Intake(ProcessLine(4), settings(workers=1))
    whatsapp_settings = WhatsAppSettings(
        APP_SECRET, VERIFY_TOKEN, ACCESS_TOKEN, PHONE_NUMBER_ID, provider.url
    )
    channel = WhatsAppInput(whatsapp_settings, addresses=address_book, intake=intake)
    question = "د کابل هوايي ډګر خلاص دی؟"
    bot = EchoBot(held={question})
    url = await serve(channel, bot)  # type: ignore[arg-type]
    await alert_through(channel, address_book, conversation_id("whatsapp", USER), USER)
    alert_sent = len(provider.requests)

    assert await notify(url, fixture("whatsapp_text.json")) == 200
    await bot.until_started()
    # The only worker is busy with the person's turn: the status cannot be waiting behind it.
    assert await notify(url, fixture("whatsapp_status_failed.json")) == 200
    assert row(address_book)["provider_status"] == "failed"
    assert len(provider.requests) == alert_sent

    bot.go.set()
    await intake.drained()
    [reply] = provider.requests[alert_sent:]
    assert reply.json()["to"] == USER and reply.json()["text"]["body"] == f"re: {question}"
    assert bot.started == [question]


async def test_a_kannel_sms_waits_in_line_after_smsbox_has_its_empty_answer() -> None:
    smsbox = FakeSmsbox()
    app = web.Application()
    app.router.add_get("/cgi-bin/sendsms", smsbox.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    kannel_settings = KannelSettings(
        secret=KANNEL_SECRET,
        username="assistant",
        password="pw",
        send_url=f"http://{host}:{port}/cgi-bin/sendsms",
        sender="1234",
    )
    intake = Intake(ProcessLine(4), settings(workers=1))
    question = "پرواز به ثابت\nدو"
    bot = EchoBot(held={question})
    try:
        async with serve_channel(KannelInput(kannel_settings, intake=intake), bot) as base_url:
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"{base_url}/webhooks/kannel/receive?{DARI_QUERY}") as answer,
            ):
                assert (answer.status, await answer.text()) == (200, "")
            await bot.until_started()
            assert smsbox.texts() == []  # smsbox has its answer, the turn has not ended
            bot.go.set()
            await intake.drained()
            assert smsbox.texts() == [f"re: {question}"]
    finally:
        await runner.cleanup()


async def test_the_wait_is_reckoned_from_what_every_process_answered(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    # Two processes on one line: each answers half, and the line counts both halves.
    first = Intake(lines.make(), settings(workers=1), lines.memory())
    second = Intake(lines.make(), settings(workers=1), lines.memory())
    bot = EchoBot()
    for number in range(6):
        await put(first, channel, 740 + number, f"question {number}")
    await first.start(channel, bot, bot.handle_message)
    await second.start(channel, bot, bot.handle_message)
    try:
        await first.drained()
        await second.drained()
    finally:
        await first.stop()
        await second.stop()
    assert await lines.make().answered() == 6


@dataclass
class CountedMemory(ProcessMemory):
    """The channel memory, counting how often the notices ask it whether someone was told."""

    asked: int = 0

    def __post_init__(self) -> None:
        super().__init__()

    async def add(self, key: str, ttl: float) -> bool:
        self.asked += key.startswith("intake:told:")
        return await super().add(key, ttl)


async def test_the_people_told_are_not_asked_about_again_on_every_check(
    provider: FakeProvider, channel: TelegramInput
) -> None:
    # In a surge thousands wait at once; each check must not ask the memory about every one
    # of them again (a round trip each to Redis), or the newly waiting are told too late.
    memory = CountedMemory()
    intake = Intake(ProcessLine(4), settings(notice_seconds=0.0), memory)
    bot = EchoBot()
    for number in range(30):
        await put(intake, channel, 760 + number, f"question {number}")
    assert await intake.tell_the_wait(channel, bot) == 30
    assert memory.asked == 30
    await put(intake, channel, 790, "one more question")
    assert await intake.tell_the_wait(channel, bot) == 1
    assert memory.asked == 31
    assert len([text for text in sent_texts(provider) if opening("en") in text]) == 31


async def test_a_notice_goes_when_its_wait_is_reached_not_a_check_later(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    """A check looks ahead to the next one: whoever crosses the wait before it is told at
    that moment, not up to a check later, when their answer may already be out."""
    clock = SteppedClock()
    intake = stepped(lines, clock)
    await put(intake, channel, 770, "when is the next flight?")
    clock.advance(26.0)  # its wait of 30 s is reached within the check's 5 s ahead
    telling = asyncio.create_task(intake.tell_the_wait(channel, EchoBot(), ahead=5.0))
    await clock.until_sleeping(1)  # chosen, and waiting for its time
    assert not told_in(provider, "en")  # not before the wait was reached
    clock.advance(4.0)
    assert await telling == 1
    assert told_in(provider, "en") != []


async def test_no_notice_for_a_message_answered_before_its_wait_was_reached(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    clock = SteppedClock()
    intake = stepped(lines, clock, workers=1)
    bot = EchoBot()
    await put(intake, channel, 771, "is the airport open?")
    clock.advance(26.0)
    telling = asyncio.create_task(intake.tell_the_wait(channel, bot, ahead=5.0))
    await clock.until_sleeping(1)  # the check has chosen whom to tell, at 30 s
    await intake.start(channel, bot, bot.handle_message)
    await intake.drained()
    clock.advance(4.0)
    assert await telling == 0
    await intake.stop()
    assert sent_texts(provider) == ["re: is the airport open?"]
    # Not marked as told either: a long wait for their next message gets its notice.
    assert await intake.memory.get(told_key(conversation_id("telegram", "771"))) is None


async def test_a_notice_chosen_late_is_not_sent_after_its_answer(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    """In a surge a notice may wait for the ones before it; if the answer went out
    meanwhile, "your question is in line" would come after it and confuse."""
    clock = SteppedClock()
    intake = stepped(lines, clock, workers=1)
    bot = EchoBot()
    await put(intake, channel, 772, "is the airport open?")
    clock.advance(31.0)
    chosen = await intake._to_tell(ahead=0.0)  # the wait is reached: it is chosen
    assert [job.conversation for job, _ in chosen] == [conversation_id("telegram", "772")]
    await intake.start(channel, bot, bot.handle_message)  # and answered before it goes
    await intake.drained()
    assert await intake._tell(channel, bot, chosen) == 0
    await intake.stop()
    assert sent_texts(provider) == ["re: is the airport open?"]


DOWN = {"ok": False, "error_code": 502, "description": "Bad Gateway"}
BLOCKED = {"ok": False, "error_code": 403, "description": "Forbidden: bot was blocked by the user"}


def provider_back(provider: FakeProvider) -> int:
    """The provider answers again; how many requests it refused until now (the fake provider
    runs in the tests' event loop, so no request is half answered at this moment)."""
    provider.status, provider.reply = 200, {"ok": True, "result": True}
    return len(provider.requests)


async def attempts(provider: FakeProvider, at_least: int) -> None:
    """Until the provider was asked ``at_least`` times to send a message."""
    await provider.until(lambda: len(sent_texts(provider)) >= at_least)


async def test_a_reply_the_provider_could_not_take_reaches_the_person_when_it_is_back(
    lines: Lines, provider: FakeProvider, serve: Serve
) -> None:
    """Telegram is down when the answer is ready: the answer waits with the message, goes
    out once Telegram is back, and the turn ran once (the conversation has the message once)."""
    intake = Intake(lines.make(), settings(reply_retry_seconds=(0.05,)), lines.memory())
    channel = with_intake(provider, intake)
    bot = EchoBot()
    url = await serve(channel, bot)  # type: ignore[arg-type]
    provider.status, provider.reply = 502, DOWN
    assert await post(url, update(1, 710, "is the airport open?")) == 200
    await attempts(provider, 3)  # refused, and refused again after a pause
    kept = await intake.held_replies("telegram").kept("telegram:1")
    assert kept is not None and [reply.get("text") for reply in kept] == [
        "re: is the airport open?"
    ]
    refused = provider_back(provider)
    await intake.drained()
    assert sent_texts(provider)[refused:] == ["re: is the airport open?"]
    assert bot.messages == ["is the airport open?"]
    assert await intake.held_replies("telegram").kept("telegram:1") is None


async def test_a_worker_stopped_while_an_answer_waits_for_the_provider_leaves_it_to_the_next(
    lines: Lines, provider: FakeProvider, channel: TelegramInput
) -> None:
    first = Intake(lines.make(), settings(workers=1, reply_retry_seconds=(0.05,)), lines.memory())
    bot = EchoBot()
    provider.status, provider.reply = 502, DOWN
    await first.start(channel, bot, bot.handle_message)
    await put(first, channel, 711, "which documents do I need?")
    await attempts(provider, 2)
    await first.stop(grace=0)  # the process dies while Telegram is down
    refused = provider_back(provider)

    second = Intake(lines.make(), settings(workers=1), lines.memory())  # another process
    await second.start(channel, bot, bot.handle_message)
    await second.drained()
    await second.stop()
    assert sent_texts(provider)[refused:] == ["re: which documents do I need?"]
    assert bot.started == ["which documents do I need?"]  # the turn was not run again


async def test_a_reply_refused_for_the_person_is_not_held_and_holds_nobody(
    lines: Lines, provider: FakeProvider, serve: Serve
) -> None:
    """A person who blocked the bot: the refusal stays one, so the reply is not tried again
    and the next person in the line is answered at once."""
    intake = Intake(
        lines.make(partitions=1), settings(workers=1, reply_retry_seconds=(5.0,)), lines.memory()
    )
    channel = with_intake(provider, intake)
    bot = EchoBot()
    url = await serve(channel, bot)  # type: ignore[arg-type]
    provider.status, provider.reply = 403, BLOCKED
    assert await post(url, update(1, 712, "salam")) == 200
    await attempts(provider, 1)
    refused = provider_back(provider)
    assert await post(url, update(2, 713, "is the gate open?")) == 200
    await intake.drained(timeout=3.0)
    assert sent_texts(provider) == ["re: salam", "re: is the gate open?"]
    assert refused == 1


async def test_held_replies_are_given_up_after_the_hold_and_the_line_goes_on(
    lines: Lines, provider: FakeProvider, serve: Serve
) -> None:
    intake = Intake(
        lines.make(),
        settings(reply_retry_seconds=(0.05,), reply_hold_seconds=0.3),
        lines.memory(),
    )
    channel = with_intake(provider, intake)
    bot = EchoBot()
    url = await serve(channel, bot)  # type: ignore[arg-type]
    provider.status, provider.reply = 502, DOWN
    assert await post(url, update(1, 714, "next flight?")) == 200
    await intake.drained(timeout=3.0)  # the message left its line although nothing went out
    assert len(sent_texts(provider)) >= 3
    assert await intake.held_replies("telegram").kept("telegram:1") is None
    assert bot.messages == ["next flight?"]


@dataclass
class CutBeforeReply(EchoBot):
    """Cuts Redis off (``cut``) just before its first answer: the reply reaches the provider,
    the turn's record and the message's ``XACK`` do not reach Redis."""

    cut: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle_message(self, message: UserMessage) -> None:
        if not self.started:
            self.cut.set()
        await super().handle_message(message)


async def test_redis_cut_off_between_a_reply_and_its_ack_does_not_run_the_turn_again(
    lines: Lines, provider: FakeProvider, channel: TelegramInput, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A partition from Redis while the answer goes out: the worker takes its own message
    back once Redis answers, and acknowledges it without answering it a second time (which
    would also store the message twice in the conversation)."""
    line, memory = lines.make(), lines.memory()
    bot = CutBeforeReply()
    refused: list[str] = []
    real_put, real_get, real_ack = memory.put, memory.get, line.ack

    async def cut_put(*args: Any, **kwargs: Any) -> None:
        if bot.cut.is_set():
            raise MemoryUnavailable("Redis cannot be reached")
        await real_put(*args, **kwargs)

    async def cut_get(key: str) -> str | None:
        if bot.cut.is_set():
            raise MemoryUnavailable("Redis cannot be reached")
        return await real_get(key)

    async def cut_ack(partition: int, taken: Any) -> None:
        if bot.cut.is_set():
            refused.append(taken.job.key)
            bot.cut.clear()  # the partition heals after the worker failed to acknowledge
            raise ConnectionError("Redis cannot be reached")
        await real_ack(partition, taken)

    monkeypatch.setattr(memory, "put", cut_put)
    monkeypatch.setattr(memory, "get", cut_get)
    monkeypatch.setattr(line, "ack", cut_ack)
    intake = Intake(line, settings(workers=1), memory)
    await intake.start(channel, bot, bot.handle_message)
    await put(intake, channel, 715, "is the gate open?")
    await intake.drained()
    await intake.stop()
    assert refused == ["telegram:715"]
    assert sent_texts(provider) == ["re: is the gate open?"]
    assert bot.started == ["is the gate open?"]  # the turn ran once
    assert await memory.get("intake:answered:telegram:715") == "answered"


async def test_a_put_that_timed_out_but_reached_the_line_is_not_answered_twice(
    lines: Lines, provider: FakeProvider, serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis took the message but its answer did not come back in time: the webhook answers
    at once (the line looked unreachable), and the worker that later takes the message from
    the line lets it go instead of answering it a second time."""
    line = lines.make()
    real_put = line.put

    async def put_without_its_answer(job: Any) -> None:
        await real_put(job)
        raise TimeoutError("Redis did not answer in time")

    monkeypatch.setattr(line, "put", put_without_its_answer)
    intake = Intake(line, settings(), lines.memory())
    channel = with_intake(provider, intake)
    bot = EchoBot()
    url = await serve(channel, bot)  # type: ignore[arg-type]
    assert await post(url, update(1, 716, "is the airport open?")) == 200
    assert sent_texts(provider) == ["re: is the airport open?"]  # answered at once
    await intake.drained()
    assert await line.depth() == 0
    assert sent_texts(provider) == ["re: is the airport open?"]
    assert bot.messages == ["is the airport open?"]


@dataclass
class TimedBot(EchoBot):
    """Records when each conversation's answer was ready."""

    answered_at: dict[str, float] = field(default_factory=dict)

    async def handle_message(self, message: UserMessage) -> None:
        await super().handle_message(message)
        self.answered_at[message.sender_id] = time.monotonic()


class TimedTelegram(TelegramInput):
    """Records when each chat was told of the wait, and what."""

    told: dict[str, tuple[float, str]]

    async def say(self, incoming: Incoming, text: str) -> None:
        await super().say(incoming, text)
        self.told[conversation_id("telegram", str(incoming.chat_id))] = (time.monotonic(), text)


@pytest.mark.serial  # turns of 0.1 s of real time: others' load on the cores stretches them
async def test_the_wait_said_is_within_twice_the_wait_measured(
    lines: Lines, provider: FakeProvider
) -> None:
    """One worker, 0.1 s a turn, a line of 24 people, seen on a clock 100 times faster, on
    which the waits are minutes: every notice's minutes, or its "in a moment" (up to a minute
    and a half), are within a factor of two of how long its answer then took.

    One partition: with several, a worker serves a partition up to ``BATCH`` messages before
    the next, so a person's place is known to within one round of them (partitions × 20
    messages), which in a surge long enough to name minutes is small beside the wait."""
    speed = 100.0
    intake = Intake(
        lines.make(partitions=1),
        settings(workers=1, notice_seconds=0.45),
        lines.memory(),
        notice_check_seconds=0.05,
    )
    intake.pace = ServicePace(clock=lambda: time.monotonic() * speed)
    channel = TimedTelegram(TelegramSettings(TOKEN, SECRET, provider.url), intake=intake)
    channel.told = {}
    bot = TimedBot(delay=lambda text: 0.1)
    for number in range(24):
        await put(intake, channel, 800 + number, f"question {number}")
    await intake.start(channel, bot, bot.handle_message)
    try:
        await intake.drained(timeout=20.0)
    finally:
        await intake.stop()
        await channel.api.close()
    assert len(channel.told) >= 15  # most waited long enough to be told
    minutes = {in_line("en", n): n for n in range(2, 10)}
    for conversation, (told_at, text) in channel.told.items():
        took = (bot.answered_at[conversation] - told_at) * speed
        if text == in_line("en", None):
            assert took <= 2 * SOON_SECONDS, (conversation, took)
        else:
            assert 0.5 <= minutes[text] * 60.0 / took <= 2.0, (conversation, text, took)
    assert any(text != in_line("en", None) for _, text in channel.told.values())
