"""A caseworker's replies reach the person on their own channel: real Rasa, action server,
notifier and console processes, fake Telegram and SMS providers, a caseworker signed in over
HTTP with a real session.

A Dari Telegram user and a Pashto SMS user each ask for a person; the caseworker takes the
case and replies from the console; the provider gets the reply in that chat exactly once; the
person writes twice more and the assistant stays silent (both lines are in the case); closing
the case sends "I am back" in the person's language at once, and the next question is answered.
A reply with no address left shows as not delivered.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.channels import identity
from bot.channels.identity import conversation_id
from scripts.fake_providers import (
    CHANNEL_SECRETS,
    CREDENTIALS,
    SMS_SECRET,
    FakeProviders,
    ProvidersInThread,
    send_telegram,
    send_whatsapp,
)
from scripts.stack import ROOT, Stack, free_port
from tests.actions.console_support import csrf_in, visible
from tests.integration.console_forms import ConsoleForms
from tests.integration.test_alerts import ACTIONS_PYTHON, API_TOKEN, KEYS, MODEL, NOTIFIER


@dataclass
class CaseStack:
    stack: Stack
    providers: FakeProviders
    db_path: Path
    env: dict[str, str]

    def rows(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.db_path) as connection:
            return connection.execute(query, params).fetchall()

    def invite(self, name: str) -> str:
        """The sign-in code ``invite --role caseworker`` prints in its link."""
        done = subprocess.run(
            [
                str(ACTIONS_PYTHON),
                *("-m", "actions.admin", "invite", name, "--role", "caseworker"),
                *("--organisation", "kabul-aid-network"),
            ],
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        found = re.search(r"/console/signin\?code=([\w-]+)", done.stdout)
        assert found is not None, done.stdout
        return found.group(1)


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseStack]:
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    base = tmp_path_factory.mktemp("cases")
    db_path = base / "content.db"
    db_url = f"sqlite:///{db_path}"
    env = {**os.environ, "CONTENT_DB_URL": db_url, "PYTHONPATH": str(ROOT)}
    for command in ("migrate", "seed"):
        subprocess.run(
            [str(ACTIONS_PYTHON), "-m", "actions.content", command],
            env=env,
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
    with sqlite3.connect(db_path) as connection:  # caseworkers at any hour: no clock in the test
        connection.execute(
            "UPDATE organisations SET case_hours = '00:00-00:00' WHERE slug = 'kabul-aid-network'"
        )
    credentials = base / "credentials.yml"
    credentials.write_text(CREDENTIALS + "bot.channels.webchat.WebchatInput:\n")
    # People here write faster than Telegram's one message a second in a chat: not the test.
    providers = FakeProviders(sms_rate=10, telegram_per_chat=None)
    serving = ProvidersInThread(providers)
    provider_url = serving.start(free_port())
    stack = Stack(
        model=MODEL,
        content_db_url=db_url,
        log_dir=base / "logs",
        rasa_port=free_port(),
        action_port=free_port(),
        admin_port=free_port(),
        with_notifier=True,
        extra_env={
            **KEYS,
            **CHANNEL_SECRETS,
            **FakeProviders.environment(provider_url),
            **NOTIFIER,
            "RASA_CREDENTIALS": str(credentials),
            "RASA_API_TOKEN": API_TOKEN,
        },
    )
    with pytest.MonkeyPatch.context() as patch:
        # This process computes the same conversation ids as Rasa, to look rows up.
        patch.setenv("CONVERSATION_ID_KEY", KEYS["CONVERSATION_ID_KEY"])
        identity.forget_key()  # read once per process: take this one
        stack.start()
        try:
            yield CaseStack(stack, providers, db_path, env)
        finally:
            stack.stop()
            serving.stop()


Send = Callable[[str], Awaitable[list[str]]]


@dataclass(frozen=True)
class Person:
    """Someone writing on one channel; ``send`` returns what the provider got for them."""

    channel: str
    address: str
    send: Send

    @property
    def conversation(self) -> str:
        return conversation_id(self.channel, self.address)


def on_telegram(cases: CaseStack) -> Person:
    chat = 720000000 + uuid.uuid4().int % 1_000_000

    async def send(text: str) -> list[str]:
        before = len(cases.providers.to("telegram", str(chat)))
        async with aiohttp.ClientSession() as session:
            await send_telegram(session, cases.stack.rasa_url, chat, text)
        return [r.text for r in cases.providers.to("telegram", str(chat))[before:]]

    return Person("telegram", str(chat), send)


def on_sms(cases: CaseStack) -> Person:
    number = f"+93700{uuid.uuid4().int % 1_000_000:06d}"

    async def send(text: str) -> list[str]:
        before = len(cases.providers.to("sms_gateway", number))
        body = {"from": number, "text": text, "id": uuid.uuid4().hex}
        async with aiohttp.ClientSession() as session:
            url = f"{cases.stack.rasa_url}/webhooks/sms_gateway/webhook"
            async with session.post(url, json=body, headers={"X-Gateway-Secret": SMS_SECRET}) as r:
                assert r.status == 200, await r.text()
        return [r.text for r in cases.providers.to("sms_gateway", number)[before:]]

    return Person("sms_gateway", number, send)


def on_whatsapp(cases: CaseStack) -> Person:
    number = f"93700{uuid.uuid4().int % 1_000_000:06d}"

    async def send(text: str) -> list[str]:
        before = len(cases.providers.to("whatsapp", number))
        async with aiohttp.ClientSession() as session:
            await send_whatsapp(session, cases.stack.rasa_url, number, text)
        return [r.text for r in cases.providers.to("whatsapp", number)[before:]]

    return Person("whatsapp", number, send)


class Caseworker(ConsoleForms):
    """A caseworker in a browser without JavaScript, on the stack's console."""

    def __init__(self, cases: CaseStack, session: aiohttp.ClientSession) -> None:
        super().__init__(cases.stack.admin_url, session)

    async def post(self, path: str, **fields: str) -> str:
        """Posts a form of the page it is on, as its button does; the page it lands on."""
        page = await self.page(path.rsplit("/", 1)[0])
        async with self.session.post(
            f"{self.url}{path}", data={"csrf": csrf_in(page), **fields}
        ) as response:
            assert response.status == 200, await response.text()
            return await response.text()


async def until(condition: Callable[[], Any], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        await asyncio.sleep(0.2)
    raise AssertionError("timed out waiting")


def case_of(cases: CaseStack, conversation: str) -> int:
    [(case_id,)] = cases.rows(
        "SELECT id FROM cases WHERE conversation_id = ? AND status != 'closed'", conversation
    )
    return int(case_id)


async def replies_settled(cases: CaseStack, case_id: int) -> None:
    """Until no reply of the case is queued or being sent: after that the notifier sends
    nothing more for it, so what the provider got can be counted once."""
    query = (
        "SELECT count(*) FROM case_replies WHERE case_id = ? AND status IN ('queued', 'sending')"
    )
    await until(lambda: cases.rows(query, case_id) == [(0,)])


def lines(cases: CaseStack, case_id: int) -> list[tuple[str, str]]:
    return cases.rows(
        "SELECT author, text FROM case_messages WHERE case_id = ? ORDER BY id", case_id
    )


@dataclass(frozen=True)
class Words:
    """What one language's person writes and gets in the test."""

    greeting: str
    ask_human: str
    soon: str
    reply: str
    reply_heading: str
    more: tuple[str, str]
    back: str
    question: str
    #: The one line a message for the caseworker gets (one for a burst typed in one go).
    received: str


DARI = Words(
    greeting="سلام",
    ask_human="میخواهم با یک انسان صحبت کنم",
    soon="یک کارمند",
    reply="سلام، من فریده هستم. اسناد تان را آماده نگهدارید.",
    reply_heading="پیام کارمند شما",
    more=("ویزه‌ام رد شده، حالا چه کنم", "پرواز بعدی به دوحه چی وقت است"),
    back="من دوباره اینجا هستم",
    question="پرواز بعدی به دوحه چی وقت است",
    received="پیام شما رسید و برای کارمند نگه داشته شد.",
)
PASHTO = Words(
    greeting="سلام",
    ask_human="زه له یو انسان سره خبرې کول غواړم",
    soon="یو کارکوونکی",
    reply="سلام، زه فریده یم. خپل اسناد چمتو وساتئ.",
    reply_heading="ستاسو د کارکوونکي ځواب",
    more=("زما ویزه رد شوه", "راتلونکې الوتکه کله ځي"),
    back="زه بیا دلته یم",
    question="راتلونکې الوتکه کله ځي",
    received="ستاسو پیغام راورسېد او کارکوونکي ته وساتل شو.",
)
ENGLISH = Words(
    greeting="hello",
    ask_human="I need to talk to a real person",
    soon="A caseworker",
    reply="Hello, I am Farida. Keep your documents ready.",
    reply_heading="From your caseworker",
    more=("my visa was refused, what now", "when is the next flight to Doha"),
    back="I am back",
    question="when is the next flight to Doha",
    received="Received: your message is kept for the caseworker.",
)


@pytest.mark.parametrize(
    ("channel", "words", "language"),
    [(on_telegram, DARI, "prs"), (on_sms, PASHTO, "ps"), (on_whatsapp, ENGLISH, "en")],
    ids=["telegram-dari", "sms-pashto", "whatsapp-english"],
)
async def test_a_caseworker_reply_reaches_the_person_once_and_closing_says_i_am_back(
    cases: CaseStack, channel: Callable[[CaseStack], Person], words: Words, language: str
) -> None:
    person = channel(cases)
    assert await person.send(words.greeting)
    told = await person.send(words.ask_human)
    assert any(words.soon in text for text in told), told
    case_id = case_of(cases, person.conversation)
    [(sealed,)] = cases.rows(
        "SELECT sealed FROM alert_addresses WHERE conversation_id = ?", person.conversation
    )
    assert person.address.lstrip("+") not in sealed  # the address is kept, sealed

    jar = aiohttp.CookieJar(unsafe=True)  # the console runs on 127.0.0.1
    async with aiohttp.ClientSession(cookie_jar=jar) as session:
        farida = Caseworker(cases, session)
        await farida.sign_in(cases.invite(f"farida-{language}"))
        queue = visible(await farida.page("/console/cases")).lower()
        assert words.ask_human.lower() in queue  # (the assistant reads Latin in lower case)
        await farida.post(f"/console/cases/{case_id}/take")
        len_before = len(cases.providers.to(person.channel, person.address))
        page = await farida.post(
            f"/console/cases/{case_id}/reply", text=words.reply, language=language
        )
        assert "Your reply is on its way to the person." in visible(page)

        def replies() -> list[str]:
            got = cases.providers.to(person.channel, person.address)
            return [r.text for r in got if words.reply_heading in r.text]

        await until(replies)
        await replies_settled(cases, case_id)
        [reply] = replies()
        assert words.reply in reply
        # Only the reply: nothing else of the assistant's on the person's channel.
        assert cases.providers.to(person.channel, person.address)[len_before:][0].text == reply
        assert len(cases.providers.to(person.channel, person.address)) == len_before + 1
        assert cases.rows("SELECT status FROM case_replies WHERE case_id = ?", case_id) == [
            ("sent",)
        ]
        page = visible(await farida.page(f"/console/cases/{case_id}?lang=prs"))
        assert f"{words.reply}" in page and "رسید" in page  # delivered, in Dari
        await farida.page(f"/console/cases/{case_id}?lang=en")  # back to English

        # The person writes on: "received" for the line for the caseworker; the flight question
        # is answered as while a case waits at night, and the caseworker reads both.
        answers = [await person.send(text) for text in words.more]
        assert len(answers[0]) == 1 and words.received in answers[0][0], answers
        assert any("RCH871" in text for text in answers[1]), answers
        assert lines(cases, case_id)[-3:] == [
            ("caseworker", words.reply),
            ("person", words.more[0]),
            ("person", words.more[1]),
        ]

        before = len(cases.providers.to(person.channel, person.address))
        page = await farida.post(f"/console/cases/{case_id}/close")
        assert "the assistant answers this person again" in visible(page)
        assert "could not be told" not in visible(page)
    back = [r.text for r in cases.providers.to(person.channel, person.address)[before:]]
    assert len(back) == 1 and words.back in back[0], back  # out of turn, in their language
    assert await person.send(words.question)  # the assistant answers again
    # The address is kept only briefly after the case, for replies still on their way.
    [(expires_at,)] = cases.rows(
        "SELECT expires_at FROM alert_addresses WHERE conversation_id = ?", person.conversation
    )
    assert expires_at < time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(time.time() + 3600))


async def test_a_reply_that_cannot_reach_the_person_shows_as_not_delivered(
    cases: CaseStack,
) -> None:
    person = on_telegram(cases)
    await person.send(DARI.ask_human)
    case_id = case_of(cases, person.conversation)
    # The address is gone (as after it expired): nothing can reach the person.
    with sqlite3.connect(cases.db_path) as connection:
        connection.execute(
            "DELETE FROM alert_addresses WHERE conversation_id = ?", (person.conversation,)
        )
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as session:
        wahid = Caseworker(cases, session)
        await wahid.sign_in(cases.invite("wahid"))
        await wahid.post(f"/console/cases/{case_id}/take")
        await wahid.post(f"/console/cases/{case_id}/reply", saved="full_name", language="prs")
        await until(
            lambda: (
                cases.rows("SELECT status FROM case_replies WHERE case_id = ?", case_id)
                == [("failed",)]
            )
        )
        page = visible(await wahid.page(f"/console/cases/{case_id}"))
        assert "نام مکمل‌تان" in page and "not delivered" in page
        assert "the person can no longer be reached on their channel" in page  # and why
        assert "نرسید" in visible(await wahid.page(f"/console/cases/{case_id}?lang=prs"))
        await wahid.page(f"/console/cases/{case_id}?lang=en")
        # Closing still gives the conversation back, though "I am back" cannot be sent now.
        page = await wahid.post(f"/console/cases/{case_id}/close")
        assert "could not be told now" in visible(page)
    assert not [r for r in cases.providers.to("telegram", person.address) if "نام مکمل" in r.text]
    assert await person.send(DARI.question)


async def test_a_long_reply_by_sms_comes_in_pages_the_person_asks_for(cases: CaseStack) -> None:
    person = on_sms(cases)
    await person.send(PASHTO.ask_human)
    case_id = case_of(cases, person.conversation)
    long_reply = " ".join(
        f"{n}. خپل پاسپورټ، تذکره او د کار لیکونه له ځانه سره راوړئ او په دروازه کې انتظار وکړئ."
        for n in range(1, 7)
    )
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        zarghuna = Caseworker(cases, session)
        await zarghuna.sign_in(cases.invite("zarghuna"))
        await zarghuna.post(f"/console/cases/{case_id}/take")
        before = len(cases.providers.to("sms_gateway", person.address))
        await zarghuna.post(f"/console/cases/{case_id}/reply", text=long_reply, language="ps")
        await until(lambda: len(cases.providers.to("sms_gateway", person.address)) > before)
        await replies_settled(cases, case_id)
    [first] = [r.text for r in cases.providers.to("sms_gateway", person.address)[before:]]
    assert first.startswith("ستاسو د کارکوونکي ځواب") and first.endswith("«نور» ولیکئ.")
    assert "6. " not in first  # the rest waits for the person's MORE
    pages = [first]
    while pages[-1].endswith("«نور» ولیکئ.") and len(pages) < 8:
        [page] = await person.send("نور")  # MORE: the next page of this reply
        pages.append(page)
    whole = " ".join(pages)
    assert all(f"{n}. خپل پاسپورټ" in whole for n in range(1, 7)), pages
    assert not pages[-1].endswith("«نور» ولیکئ.")
    assert lines(cases, case_id)[-1] == ("caseworker", long_reply)  # MORE is not a line
    assert cases.rows("SELECT status FROM case_replies WHERE case_id = ?", case_id) == [("sent",)]


async def test_a_reply_to_a_web_chat_case_waits_in_its_mailbox_once(cases: CaseStack) -> None:
    """The web chat keeps no address: the reply goes to the conversation's mailbox, which only
    the person's page (its sender secret) can fetch."""
    sender = f"page-{uuid.uuid4().hex[:24]}"
    url = cases.stack.rasa_url

    async def write(session: aiohttp.ClientSession, text: str) -> list[dict[str, Any]]:
        body = {"sender": sender, "message": text}
        async with session.post(f"{url}/webchat/webhook", json=body) as response:
            assert response.status == 200, await response.text()
            return list(await response.json())

    async def mailbox(session: aiohttp.ClientSession) -> list[str]:
        async with session.post(f"{url}/webchat/mailbox", json={"sender": sender}) as response:
            assert response.status == 200, await response.text()
            return [str(m.get("text", "")) for m in (await response.json())["messages"]]

    async with aiohttp.ClientSession() as person:
        assert await write(person, PASHTO.ask_human)
        case_id = case_of(cases, conversation_id("webchat", sender))
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
            gul = Caseworker(cases, browser)
            await gul.sign_in(cases.invite("gul"))
            await gul.post(f"/console/cases/{case_id}/take")
            await gul.post(f"/console/cases/{case_id}/reply", text=PASHTO.reply, language="ps")
            await until(
                lambda: (
                    cases.rows("SELECT status FROM case_replies WHERE case_id = ?", case_id)
                    == [("sent",)]
                )
            )
        waiting = await mailbox(person)
        assert [text for text in waiting if PASHTO.reply in text] == [
            f"{PASHTO.reply_heading}:\n{PASHTO.reply}"
        ]
        # Still with the caseworker: the line goes to the case, "received".
        written = await write(person, PASHTO.more[0])
        assert [m.get("text") for m in written] == [PASHTO.received]


def test_no_address_or_reply_text_in_the_logs(cases: CaseStack) -> None:
    """Runs after the others (same module): what they wrote stays out of every log."""
    for log in cases.stack.log_dir.glob("*.log"):
        text = log.read_text(errors="replace")
        assert DARI.reply not in text and PASHTO.reply not in text, log.name
        assert not re.search(r"\b72\d{7}\b|\+?93700\d{6}", text), log.name  # chat ids, numbers
