"""People on Telegram during `make cluster`: their turns go through the intake's Redis Streams.

The web chat's turns are synchronous: the front's HTTP request carries the answer. Telegram's
are not: the webhook is answered 200 at once, the message waits in a line in Redis Streams
(``CHANNEL_INTAKE=queue``, the production profile's default) and whichever Rasa host's worker
holds that line takes its turn, then sends the answer through the Bot API. These people write
through the same nginx front; the fake Bot API runs on this machine's address on the bridge,
where both Rasa hosts reach it as they would reach api.telegram.org.

Each person writes, waits for the answer to reach the Bot API (a notice of the wait is not
one), takes a moment, writes again, as in the web chat. A webhook answered with an error is
sent again a second later with the same update id, as Telegram does; a message whose answer
has not come after ``give_up`` seconds counts as lost. Afterwards every chat is read back from
the tracker store: each message once, in order, with the replies the Bot API got.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import asdict, dataclass, field
from typing import Any

import aiohttp

from bot.channels.identity import conversation_id
from scripts.fake_providers import TELEGRAM_SECRET_HEADER
from scripts.loadtest.telegram_people import RecordingTelegram, update
from scripts.loadtest.traffic import MENU_NUMBERS, Turn, squeeze
from scripts.loadtest.webchat_people import ANSWERED, Message, People, classify

#: Telegram sends a webhook again after an error; here a second later each time.
RESEND_SECONDS = 1.0
#: Telegram waits this long for a webhook's answer.
WEBHOOK_TIMEOUT_SECONDS = 60.0
#: The people's chat ids: a range of their own, a new chat for each conversation.
_chats = itertools.count(880_000_000)


@dataclass
class TelegramPeople(People):
    """``People`` writing to the bot on Telegram through the front (``balancer``'s one URL)
    until ``until`` seconds after ``start``; ``api`` is the fake Bot API the Rasa hosts send
    the answers to. Each message's ``sender`` is its chat id, a new chat for each conversation."""

    api: RecordingTelegram = field(default_factory=RecordingTelegram)
    seed: int = 23

    def session(self) -> aiohttp.ClientSession:
        connector = aiohttp.TCPConnector(limit=0, force_close=True)
        timeout = aiohttp.ClientTimeout(total=WEBHOOK_TIMEOUT_SECONDS)
        return aiohttp.ClientSession(connector=connector, timeout=timeout)

    def new_sender(self) -> str:
        return str(next(_chats))

    async def send(self, session: aiohttp.ClientSession, message: Message, slice_name: str) -> None:
        chat = int(message.sender)
        body = update(chat, message.text, slice_name)
        answered = self.api.waiter(chat)
        deadline = message.written + self.give_up
        while True:
            try:
                async with session.post(
                    f"{self.balancer.urls[0]}/webhooks/telegram/webhook",
                    json=body,
                    headers=TELEGRAM_SECRET_HEADER,
                ) as response:
                    await response.read()
                    if response.status < 300:
                        break
                    message.fail(f"webhook HTTP {response.status}", self.clock())
            except (aiohttp.ClientError, asyncio.TimeoutError) as error:
                message.fail(f"webhook {type(error).__name__}", self.clock())
            if self.clock() + RESEND_SECONDS >= deadline:
                message.settled = self.clock()
                return
            await asyncio.sleep(RESEND_SECONDS)
        try:
            reply = await asyncio.wait_for(answered, max(0.1, deadline - self.clock()))
        except asyncio.TimeoutError:
            message.fail(f"no answer in {self.give_up:g} s", self.clock())
            message.settled = self.clock()
            return
        message.answered_at = reply.at - self.start
        message.settled = self.clock()
        message.outcome = ANSWERED

    def read_replies(self) -> None:
        """Each message's replies as the Bot API got them (notices of the wait left out): what
        reached the chat from the send that woke its person (``answered_at``) until the chat's
        next message; its outcome from them (an apology is one)."""
        by_chat: dict[int, list[Message]] = {}
        for message in self.messages:
            by_chat.setdefault(int(message.sender), []).append(message)
        sends = self.api.sends(by_chat)
        for chat, own in by_chat.items():
            received = [r for r in sends.get(chat, []) if not self.api.is_notice(r.text)]
            for message, following in zip(own, [*own[1:], None], strict=True):
                if message.answered_at is None:
                    continue
                until = following.written if following is not None else float("inf")
                message.texts = [
                    r.text for r in received if message.answered_at <= r.at - self.start < until
                ]
                message.outcome = classify(message.texts, self.apology)

    def details(self) -> dict[str, Any]:
        """Every message and every send the Bot API got for its chat, on the load's clock: to
        find out afterwards what happened to one message (results/cluster-telegram.json)."""
        chats = {int(m.sender) for m in self.messages}
        return {
            "messages": [asdict(m) for m in self.messages],
            "sends": {
                str(chat): [
                    {"at": round(r.at - self.start, 3), "text": r.text[:80]} for r in received
                ]
                for chat, received in sorted(self.api.sends(chats).items())
            },
        }

    def stored_turns(self) -> list[Turn]:
        """The messages as the tracker-store check reads them (``chaos.stored_turns``), a
        menu number as ``MENU`` (``menu_folded``)."""
        return [
            Turn(
                conversation_id("telegram", m.sender),
                MENU if is_menu_number(m.text) else m.text,
                m.written,
                0.0,
                len(m.texts) if m.outcome == ANSWERED else None,
                None if m.outcome == ANSWERED else "not answered",
                squeeze(m.texts),
            )
            for m in self.messages
        ]


#: A menu number as sent and as stored, for the check: Telegram's connector stores the number
#: a person types after a menu as the payload of that menu's item (``typed_numbers``).
MENU = "<menu number>"


def is_menu_number(text: str) -> bool:
    return len(text) == 1 and any(text in digits for digits in MENU_NUMBERS.values())


def menu_folded(events: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """``events`` with each stored menu number, or the payload it became, as ``MENU``."""
    folded: dict[str, list[dict[str, Any]]] = {}
    for sender, own in events.items():
        folded[sender] = [
            {**event, "text": MENU}
            if event.get("event") == "user"
            and (
                is_menu_number(str(event.get("text") or ""))
                or str(event.get("text") or "").startswith("/")
            )
            else event
            for event in own
        ]
    return folded
