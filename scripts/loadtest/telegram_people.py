"""People writing to the Telegram bot, and what each of their messages got.

Each person is a private chat; each message an update posted to Rasa's Telegram webhook with
the secret header Telegram sends (``X-Telegram-Bot-Api-Secret-Token``). The fake Bot API
(scripts/fake_providers.py) records every ``sendMessage`` with its time; afterwards each
person's sends are matched with their turns as the tracker store holds them (a turn's answer
is the turn's bot messages, in order), which tells for every message when its answer arrived,
whether it never came or came twice, and whether a notice of the wait came before it; and for
each notice, how long the person then waited beside the wait it promised.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import random
import re
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import aiohttp
import psycopg
from aiohttp import web

from bot.channels.waits import SOON_SECONDS
from kernel.lang import texts
from kernel.lang.codes import LANGUAGES
from kernel.lang.letters import to_ascii_digits
from scripts.fake_providers import CHANNEL_SECRETS, FakeProviders, Received
from scripts.loadtest.traffic import SLICES, conversation

#: Telegram waits this long for a webhook's answer before it counts a failure and sends again.
WEBHOOK_TIMEOUT_SECONDS = 60.0
#: Telegram's default ``max_connections`` of a webhook: requests it has open at once.
TELEGRAM_CONNECTIONS = 40
#: The Telegram app's interface language of a person writing in each slice's language.
APP_LANGUAGE = {"en": "en", "prs": "fa", "ps": "ps"}
#: A wait after which a person should have been told (``QUEUE_NOTICE_SECONDS``' default).
LONG_WAIT_SECONDS = 10.0
_update_ids = itertools.count(10_000_000)


def notice_openings() -> tuple[str, ...]:
    """How the notice of the wait begins in each language (``channels.in_line``)."""
    openings = []
    for code in LANGUAGES:
        whole = texts.render("channels.in_line", code, minutes="\u0000")
        openings.append(whole.split("\u0000")[0][:24])
    return tuple(openings)


@dataclass
class Message:
    """One message of a person: when it was due, what the webhook answered."""

    chat: int
    text: str
    due: float
    status: int | None = None
    #: Seconds from ``due`` to the webhook's answer (waiting for a connection included).
    webhook_seconds: float | None = None
    error: str | None = None
    #: When the first message of its answer reached the Bot API; None: never.
    answered_at: float | None = None
    answers: int = 0
    #: A notice of the wait reached the person between ``due`` and the answer.
    noticed: bool = False
    #: When a worker took it (its turn's stored user event), on ``due``'s clock; None: never.
    taken_at: float | None = None

    @property
    def accepted(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


@dataclass
class Person:
    chat: int
    slice_name: str
    messages: list[Message] = field(default_factory=list)

    @property
    def language(self) -> str:
        return self.slice_name.split("_")[0]


class RecordingTelegram(FakeProviders):
    """The fake Bot API without rate limits, waking whoever waits for a chat's next answer."""

    def __init__(self) -> None:
        super().__init__(telegram_rate=None, whatsapp_rate=None, telegram_per_chat=None)
        self.notices = notice_openings()
        self._waiting: dict[str, asyncio.Future[Received]] = {}

    def is_notice(self, text: str) -> bool:
        return any(opening in text for opening in self.notices)

    async def telegram(self, request: web.Request) -> web.Response:
        answer = await super().telegram(request)
        if self.received:
            last = self.received[-1]
            waiter = self._waiting.get(last.to)
            if waiter is not None and not waiter.done() and not self.is_notice(last.text):
                waiter.set_result(last)
        return answer

    def waiter(self, chat: int) -> asyncio.Future[Received]:
        """The chat's next send that is not a notice of the wait, once it reaches the Bot API
        (its ``at`` is when it did, however late the waiting task wakes up)."""
        future: asyncio.Future[Received] = asyncio.get_running_loop().create_future()
        self._waiting[str(chat)] = future
        return future

    def sends(self, prefix: Iterable[int]) -> dict[int, list[Received]]:
        chats = set(prefix)
        found: dict[int, list[Received]] = defaultdict(list)
        for record in self.received:
            if record.channel == "telegram" and record.to.lstrip("-").isdigit():
                chat = int(record.to)
                if chat in chats:
                    found[chat].append(record)
        return found


def update(chat: int, text: str, slice_name: str) -> dict[str, object]:
    """A private chat's text message as Telegram posts it to the webhook."""
    return {
        "update_id": next(_update_ids),
        "message": {
            "message_id": next(_update_ids),
            "date": int(time.time()),
            "chat": {"id": chat, "type": "private"},
            "from": {
                "id": chat,
                "is_bot": False,
                "first_name": "A",
                "language_code": APP_LANGUAGE[slice_name.split("_")[0]],
            },
            "text": text,
        },
    }


async def post(http: aiohttp.ClientSession, url: str, message: Message, slice_name: str) -> Message:
    """The webhook call of ``message``; its answer's status and time are noted on it."""
    headers = {"X-Telegram-Bot-Api-Secret-Token": CHANNEL_SECRETS["TELEGRAM_SECRET_TOKEN"]}
    try:
        async with http.post(
            f"{url}/webhooks/telegram/webhook",
            json=update(message.chat, message.text, slice_name),
            headers=headers,
        ) as response:
            await response.read()
            message.status = response.status
    except (aiohttp.ClientError, asyncio.TimeoutError) as error:
        message.error = type(error).__name__
    message.webhook_seconds = time.monotonic() - message.due
    return message


def session() -> aiohttp.ClientSession:
    """Telegram's side: at most ``TELEGRAM_CONNECTIONS`` requests open, a new connection each."""
    connector = aiohttp.TCPConnector(limit=TELEGRAM_CONNECTIONS, force_close=True)
    timeout = aiohttp.ClientTimeout(total=WEBHOOK_TIMEOUT_SECONDS)
    return aiohttp.ClientSession(connector=connector, timeout=timeout)


def distinct_texts(
    rng: random.Random, slice_name: str, messages: dict[str, list[str]], count: int
) -> list[str]:
    """``count`` different messages a person of ``slice_name`` might send, in order."""
    chosen: list[str] = []
    while len(chosen) < count:
        for text in conversation(rng, slice_name, messages):
            if text not in chosen:
                chosen.append(text)
    return chosen[:count]


def surge_people(
    rng: random.Random,
    messages: dict[str, dict[str, list[str]]],
    rate: float,
    seconds: float,
    first_chat: int,
    start: float,
) -> list[Person]:
    """People arriving at random for ``seconds`` so that about ``rate`` messages a second
    come in: most write once, some two to four times a few seconds apart."""
    people: list[Person] = []
    planned = 0.0
    chat = first_chat
    while planned < rate * seconds:
        slice_name = SLICES[chat % len(SLICES)]
        count = rng.choices((1, 2, 3, 4), weights=(70, 18, 8, 4))[0]
        person = Person(chat, slice_name)
        at = start + rng.uniform(0, seconds)
        for text in distinct_texts(rng, slice_name, messages[slice_name], count):
            person.messages.append(Message(chat, text, at))
            at += rng.uniform(2.0, 8.0)
        people.append(person)
        planned += count
        chat += 1
    return people


def conversation_ids(chats: Iterable[int], key: bytes) -> dict[str, int]:
    """The sender id Rasa stores each chat under (bot/channels/identity.py), to its chat."""
    found = {}
    for chat in chats:
        digest = hmac.new(key, f"telegram:{chat}".encode(), hashlib.sha256).hexdigest()
        found[f"telegram-{digest[:40]}"] = chat
    return found


def stored_messages(db: str, senders: list[str]) -> int:
    """How many of these conversations' messages the tracker store holds."""
    with psycopg.connect(db) as connection:
        found = connection.execute(
            "SELECT count(*) FROM events WHERE sender_id = ANY(%s) AND type_name = 'user'",
            (senders,),
        ).fetchone()
    return int(found[0]) if found else 0


#: One stored turn: what the person wrote, the bot messages after it, when it was taken
#: (the user event's time, on ``time.monotonic``'s clock like ``Message.due``).
StoredTurn = tuple[str, int, float]


def stored_turns(db: str, senders: dict[str, int]) -> dict[int, list[StoredTurn]]:
    """Each chat's turns in the tracker store, in order."""
    turns: dict[int, list[StoredTurn]] = defaultdict(list)
    to_monotonic = time.monotonic() - time.time()
    with psycopg.connect(db) as connection:
        rows = connection.execute(
            "SELECT sender_id, type_name, data, timestamp FROM events "
            "WHERE sender_id = ANY(%s) AND type_name IN ('user', 'bot') ORDER BY id",
            (list(senders),),
        )
        for sender, kind, data, at in rows:
            chat = senders[sender]
            if kind == "user":
                text = str(json.loads(data).get("text") or "")
                turns[chat].append((text, 0, float(at) + to_monotonic))
            elif turns[chat]:
                text, bots, taken = turns[chat][-1]
                turns[chat][-1] = (text, bots + 1, taken)
    return turns


@dataclass
class Tally:
    """What the people's messages got, counted over every message of a phase."""

    messages: int = 0
    accepted: int = 0
    refused: int = 0
    #: Accepted and never answered; answered more than once.
    lost: int = 0
    twice: int = 0
    #: Messages sent to Rasa but refused or timed out that were never answered either.
    refused_unanswered: int = 0
    #: People whose sends and stored turns do not line up (their answers counted as far as they do).
    unmatched_people: int = 0
    waited_long: int = 0
    waited_long_noticed: int = 0
    #: People whose message waited more than 10 s before a worker took it (what the notice
    #: is promised for), and of them those told before their answer.
    waited_long_in_line: int = 0
    waited_long_in_line_noticed: int = 0
    #: Of those who waited long and were not told first: seconds in line, and until the answer.
    untold_in_line: list[float] = field(default_factory=list)
    untold_answered: list[float] = field(default_factory=list)
    notices: int = 0
    #: For each notice that named minutes: the wait it promised over the wait that followed
    #: (to the person's next answer); for each "in a moment": the wait that followed, s.
    promised_over_waited: list[float] = field(default_factory=list)
    waited_after_a_moment: list[float] = field(default_factory=list)

    def note_promise(self, text: str, waited: float) -> None:
        """What a notice promised (``text``) beside the ``waited`` seconds that followed it."""
        minutes = re.search(r"\d+", to_ascii_digits(text))
        if minutes is None:
            self.waited_after_a_moment.append(waited)
        elif waited > 0:
            self.promised_over_waited.append(int(minutes.group()) * 60.0 / waited)

    def promises_kept(self) -> tuple[int, int, int, int]:
        """(notices naming minutes within a factor of two of the wait that followed, of how
        many; "in a moment" notices followed by an answer within twice ``SOON_SECONDS``, of
        how many)."""
        ratios, moments = self.promised_over_waited, self.waited_after_a_moment
        within = sum(0.5 <= ratio <= 2.0 for ratio in ratios)
        soon = sum(waited <= 2 * SOON_SECONDS for waited in moments)
        return within, len(ratios), soon, len(moments)


def account(
    people: list[Person], providers: RecordingTelegram, turns: dict[int, list[StoredTurn]]
) -> Tally:
    """Matches each person's sends with their stored turns and fills in every message."""
    tally = Tally()
    sends = providers.sends(p.chat for p in people)
    for person in people:
        answers = [r for r in sends.get(person.chat, []) if not providers.is_notice(r.text)]
        told = [r for r in sends.get(person.chat, []) if providers.is_notice(r.text)]
        notices = [r.at for r in told]
        tally.notices += len(notices)
        for notice in told:
            following = next((r.at for r in answers if r.at >= notice.at), None)
            if following is not None:
                tally.note_promise(notice.text, following - notice.at)
        stored = turns.get(person.chat, [])
        position = 0
        for text, bots, taken in stored:
            # The stored text is what the person sent, or the payload of a button whose title
            # they typed: then the turn is the earliest message still without a turn.
            mine = [m for m in person.messages if m.text == text]
            target = next((m for m in mine if m.answers == 0), mine[0] if mine else None)
            if target is None:
                target = next((m for m in person.messages if m.answers == 0), None)
            given = answers[position : position + bots]
            position += bots
            if target is None:
                continue
            if target.taken_at is None:
                target.taken_at = taken
            if given:
                target.answers += 1
                if target.answered_at is None:
                    target.answered_at = given[0].at
        if position != len(answers):
            tally.unmatched_people += 1
        first_long: Message | None = None
        first_long_in_line: Message | None = None
        for message in person.messages:
            tally.messages += 1
            tally.accepted += message.accepted
            tally.refused += not message.accepted
            if message.answers == 0:
                if message.accepted:
                    tally.lost += 1
                else:
                    tally.refused_unanswered += 1
            if message.answers > 1:
                tally.twice += 1
            end = message.answered_at if message.answered_at is not None else float("inf")
            # A person is told once in ten minutes: a notice for an earlier message counts.
            since = person.messages[0].due
            message.noticed = any(since <= at <= end for at in notices)
            if first_long is None and end - message.due > LONG_WAIT_SECONDS:
                first_long = message
            taken = message.taken_at if message.taken_at is not None else float("inf")
            if first_long_in_line is None and taken - message.due > LONG_WAIT_SECONDS:
                first_long_in_line = message
        if first_long is not None:
            tally.waited_long += 1
            tally.waited_long_noticed += first_long.noticed
            if not first_long.noticed and first_long.answered_at is not None:
                taken = first_long.taken_at if first_long.taken_at is not None else float("nan")
                tally.untold_in_line.append(taken - first_long.due)
                tally.untold_answered.append(first_long.answered_at - first_long.due)
        if first_long_in_line is not None:
            tally.waited_long_in_line += 1
            tally.waited_long_in_line_noticed += first_long_in_line.noticed
    return tally
