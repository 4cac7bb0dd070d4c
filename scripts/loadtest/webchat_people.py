"""People in the web chat, sending their messages as the page (bot/channels/webchat/widget.js)
and a load balancer in front of several Rasa processes do, and what each message got.

* A refused connection goes to the next Rasa process at once (the load balancer).
* A dropped connection or a 5xx is sent again after 1, 2, 4 ... s (the page's outbox), until the
  caller's ``give_up`` seconds after the message was written; a browser's fetch itself waits
  minutes for an answer.
* A reply is *answered*, *apologised* (it has the assistant's ``channels.try_again`` text in one
  of the three languages) or *lost* (no reply, a 4xx, or a reply with no message in it).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from scripts.loadtest.traffic import SLICES, conversation, read_messages, squeeze

WEBHOOK = "/webchat/webhook"
ANSWERED, APOLOGISED, LOST = "answered", "apologised", "lost"
#: The page's outbox: first retry after 1 s, doubling (widget.js, ``retryLater``).
FIRST_RETRY_SECONDS = 1.0
#: A browser's fetch waits minutes for an answer; only connecting has to be quick.
CONNECT_TIMEOUT_SECONDS = 2.0


# --- what a reply is ------------------------------------------------------------------------------


def apology_patterns(sentences: Mapping[str, str]) -> list[re.Pattern[str]]:
    """A pattern per language for the apology, white space ignored; a ``{placeholder}`` in it
    (a hotline number, say) matches anything."""
    patterns = []
    for sentence in sentences.values():
        pieces = re.split(r"\{[^{}]*\}", sentence)
        patterns.append(re.compile(".*?".join(re.escape(squeeze([piece])) for piece in pieces)))
    return patterns


def sentences(entry: str) -> Mapping[str, str]:
    """A text of the bot's catalogue, by language, from the bot's own code."""
    from kernel.lang.texts import CATALOGUE

    return {str(language): str(sentence) for language, sentence in CATALOGUE.entry(entry).items()}


def try_again_sentences() -> Mapping[str, str]:
    """The apology the assistant sends when it failed, by language."""
    return sentences("channels.try_again")


def apologies() -> Mapping[str, str]:
    """Every apology: "sorry, something went wrong, try again", and, on a channel whose turns
    come from a line, "my answer may be incomplete, send it again" (a turn cut off)."""
    return {
        f"{entry}:{language}": sentence
        for entry in ("channels.try_again", "channels.cut_off")
        for language, sentence in sentences(entry).items()
    }


def classify(texts: list[str], apology: list[re.Pattern[str]]) -> str:
    """answered, apologised, or lost (a reply with no text in it)."""
    if not any(text.strip() for text in texts):
        return LOST
    joined = squeeze(texts)
    return APOLOGISED if any(p.search(joined) for p in apology) else ANSWERED


# --- the people -----------------------------------------------------------------------------------


@dataclass
class Message:
    """One message a person wrote, and what became of it."""

    sender: str
    language: str
    text: str
    #: Seconds since the load began, when the person pressed send.
    written: float
    answered_at: float | None = None
    #: When the page got its last answer for it, or stopped waiting.
    settled: float = 0.0
    outcome: str = LOST
    #: Why it was lost, or why a try failed before the last one.
    failures: list[str] = field(default_factory=list)
    #: When the first try failed (None: none did).
    troubled_at: float | None = None
    texts: list[str] = field(default_factory=list)

    def fail(self, reason: str, now: float) -> None:
        self.failures.append(reason)
        if self.troubled_at is None:
            self.troubled_at = now

    @property
    def counted_at(self) -> float:
        """Where it counts: its first failure, else its answer (one in flight at a kill counts
        for that fault; one that a kill held up counts for it even if answered much later)."""
        return self.troubled_at if self.troubled_at is not None else self.settled

    @property
    def retried(self) -> bool:
        return bool(self.failures) and self.outcome != LOST


class Refused(Exception):
    """Every Rasa process refused the connection."""


@dataclass
class Balancer:
    """Round robin over the Rasa processes; a refused connection tries the next at once."""

    urls: list[str]
    _next: int = 0
    #: Requests each Rasa process is answering right now (a fault waits for one).
    in_flight: Counter[str] = field(default_factory=Counter)

    async def post(
        self, session: aiohttp.ClientSession, body: dict[str, Any], seconds: float
    ) -> tuple[int, Any]:
        """POST ``body`` to one process; wait at most ``seconds`` for its answer."""
        start = self._next
        self._next = (self._next + 1) % len(self.urls)
        timeout = aiohttp.ClientTimeout(total=max(0.1, seconds), connect=CONNECT_TIMEOUT_SECONDS)
        for step in range(len(self.urls)):
            url = self.urls[(start + step) % len(self.urls)]
            self.in_flight[url] += 1
            try:
                async with session.post(url + WEBHOOK, json=body, timeout=timeout) as response:
                    return response.status, await response.json(content_type=None)
            except aiohttp.ClientConnectorError:
                continue
            finally:
                self.in_flight[url] -= 1
        raise Refused


async def deliver(
    session: aiohttp.ClientSession,
    balancer: Balancer,
    message: Message,
    apology: list[re.Pattern[str]],
    clock: Callable[[], float],
    give_up: float,
) -> None:
    """Send one message as the web chat page does, until it is answered or ``give_up``."""
    body = {
        "sender": message.sender,
        "message": message.text,
        "metadata": {"language_hint": message.language},
    }
    delay = FIRST_RETRY_SECONDS
    while True:
        try:
            status, replies = await balancer.post(
                session, body, message.written + give_up - clock()
            )
        except Refused:
            failure = "connection refused"
        except (aiohttp.ClientError, asyncio.TimeoutError, ValueError) as error:
            failure = type(error).__name__
        else:
            if status >= 500:
                failure = f"HTTP {status}"
            elif status != 200:
                message.fail(f"HTTP {status}", clock())
                message.settled = clock()
                return  # the page shows "could not be sent" and gives up on it
            else:
                texts = [str(r.get("text") or "") for r in replies if isinstance(r, dict)]
                message.texts = texts if isinstance(replies, list) else []
                message.outcome = classify(message.texts, apology)
                if message.outcome == LOST:
                    message.fail("200, no reply", clock())
                else:
                    message.answered_at = clock()
                message.settled = clock()
                return
        message.fail(failure, clock())
        if clock() + delay > message.written + give_up:
            message.fail(f"no answer in {give_up:.0f} s", clock())
            message.settled = clock()
            return
        await asyncio.sleep(delay)
        delay = min(2 * delay, 30.0)


@dataclass
class People:
    """``count`` people chatting until ``until`` seconds after ``start``, one language each."""

    balancer: Balancer
    count: int
    think_time: float
    give_up: float
    apology: list[re.Pattern[str]]
    start: float
    until: float
    seed: int = 11
    messages: list[Message] = field(default_factory=list)

    def clock(self) -> float:
        return time.monotonic() - self.start

    async def run(self) -> None:
        phrases = read_messages()
        async with self.session() as session:
            await asyncio.gather(*(self._person(session, i, phrases) for i in range(self.count)))

    def session(self) -> aiohttp.ClientSession:
        """Where the people's requests go out: a new connection each, as phones make them."""
        connector = aiohttp.TCPConnector(limit=0, force_close=True)
        return aiohttp.ClientSession(connector=connector)

    def new_sender(self) -> str:
        """Whom a new conversation comes from: a web chat's sender id."""
        return f"chaos{uuid.uuid4().hex}"

    async def send(self, session: aiohttp.ClientSession, message: Message, slice_name: str) -> None:
        """Sends ``message`` and notes on it what became of it."""
        await deliver(session, self.balancer, message, self.apology, self.clock, self.give_up)

    async def _person(
        self, session: aiohttp.ClientSession, index: int, phrases: dict[str, dict[str, list[str]]]
    ) -> None:
        rng = random.Random(self.seed * 1000 + index)
        slice_name = SLICES[index % len(SLICES)]
        language = slice_name.split("_")[0]
        while self.clock() < self.until:
            sender = self.new_sender()
            for text in conversation(rng, slice_name, phrases[slice_name]):
                if self.clock() >= self.until:
                    return
                message = Message(sender, language, text, self.clock())
                self.messages.append(message)
                await self.send(session, message, slice_name)
                await asyncio.sleep(min(5.0, rng.expovariate(1 / self.think_time)))
