"""People who heard a rumour ask whether it is true, on make run's stack with the demo content.

A Dari mother on the web chat of her phone heard that Canada takes everyone with a tazkira, a
Pashto father that the US Embassy collects names on Facebook (he is also told how the embassy
really reaches people, from its contacts record); a
Dari, a Pashto, an English and two Latin-letter writers ask the same over the REST channel;
someone asks about a rumour nobody has checked. Each gets, in their own language, the editors'
verdict with its source — never their own message quoted back — or, for the unknown one, "not
checked yet" and what to do meanwhile; the unknown rumour is kept masked for the editors. On
Telegram, a Dari reader forwards a chain message and is told it is false, forwards one nobody
checked and types «۱» to be told when editors know.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, select

from actions.content.asks import Ask
from kernel.lang import tags
from kernel.lang.letters import PASHTO_LETTERS
from scripts.fake_providers import (
    CHANNEL_SECRETS,
    TELEGRAM_SECRET_HEADER,
    FakeProviders,
    ProvidersInThread,
    telegram_update,
)
from scripts.stack import ROOT, free_port
from tests.journeys.conftest import (
    MODEL,
    Phone,
    Running,
    screenshot,
    start_running,
    wait_for_the_line,
)

REPLY_TIMEOUT_MS = 60_000
#: The demo's source for the Canada rumour, named in every language.
IRCC = "IRCC"
FALSE = {"en": "False", "prs": "نادرست", "ps": "ناسمه"}


@pytest.fixture(scope="module")
def bot_api() -> Iterator[tuple[FakeProviders, str]]:
    """The fake Bot API the Telegram channel sends to, and its address."""
    faked = FakeProviders()
    serving = ProvidersInThread(faked)
    yield faked, serving.start(free_port())
    serving.stop()


@pytest.fixture(scope="module")
def running(
    tmp_path_factory: pytest.TempPathFactory, bot_api: tuple[FakeProviders, str]
) -> Iterator[Running]:
    """`make run`'s stack with its web chat and REST channels, and Telegram to the fake."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    base = tmp_path_factory.mktemp("make-run-rumours")
    credentials = base / "credentials.yml"
    credentials.write_text(
        (ROOT / "credentials.yml").read_text() + "bot.channels.telegram.TelegramInput:\n"
    )
    env = {**CHANNEL_SECRETS, **FakeProviders.environment(bot_api[1])}
    started = start_running(base, env, credentials)
    try:
        yield started
    finally:
        started.stack.stop()


def telegram(
    running: Running, providers: FakeProviders, chat: int, text: str, forwarded: bool = False
) -> str:
    """A message of a private chat as Telegram posts it; what the Bot API was asked to show."""
    time.sleep(1.1)  # Telegram sends at most one message a second to a chat
    before = len(providers.to("telegram", str(chat)))
    request = urllib.request.Request(
        f"{running.stack.rasa_url}/webhooks/telegram/webhook",
        json.dumps(telegram_update(chat, text, "fa", forwarded)).encode(),
        {"Content-Type": "application/json", **TELEGRAM_SECRET_HEADER},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 200
    wait_for_the_line(running.stack)
    sent = providers.to("telegram", str(chat))[before:]
    return "\n".join(part for r in sent for part in (r.text, *r.buttons))


def texts_of(replies: list[dict[str, Any]]) -> str:
    return "\n".join(reply["text"] for reply in replies if reply.get("text"))


def ask(page: Page, text: str) -> list[str]:
    before = page.locator(".msg.bot").count()
    page.locator("#input").fill(text)
    page.keyboard.press("Enter")
    expect(page.locator(".msg.bot").nth(before)).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    return page.locator(".msg.bot").all_inner_texts()[before:]


def on_the_web_chat(running: Running, phone: Phone, locale: str, question: str) -> tuple[Page, str]:
    """The web chat opened on a phone set to ``locale``, ``question`` asked; its answers."""
    page = phone(locale=locale)
    page.goto(f"{running.stack.rasa_url}/webchat/")
    return page, "\n".join(ask(page, question))


def test_a_dari_mother_hears_canada_takes_everyone_and_is_told_it_is_false(
    running: Running, phone: Phone
) -> None:
    question = "راست است که کانادا هر افغان را که تذکره دارد می‌برد؟"
    page, replies = on_the_web_chat(running, phone, "fa-AF", question)
    assert FALSE["prs"] in replies and IRCC in replies, replies
    assert question not in replies  # a searched phone never shows the rumour as she typed it
    assert page.evaluate("document.documentElement.lang") == tags.tag("prs")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    screenshot(page, "rumour-dari-canada-false")


def test_a_pashto_father_is_told_the_facebook_list_is_false_and_how_the_embassy_calls(
    running: Running, phone: Phone
) -> None:
    question = "وايي د امریکا سفارت په فېسبوک کې د الوتنو لپاره نومونه راټولوي، رښتیا ده؟"
    page, replies = on_the_web_chat(running, phone, "ps-AF", question)
    assert FALSE["ps"] in replies and question not in replies, replies
    # The embassy's own number, from its contacts record, not from the fake page.
    assert "په کابل کې د امریکا سفارت یوازې" in replies and "700 000 131" in replies, replies
    assert page.evaluate("document.documentElement.dir") == "rtl"
    screenshot(page, "rumour-pashto-facebook-false")


def test_a_dari_reader_hears_all_gates_open_tonight_and_reads_false_before_the_gates(
    running: Running, phone: Phone
) -> None:
    # The gates' record is newer than the verdict; the verdict is still shown, first.
    question = "راست است که امشب همه دروازه‌ها برای زنان و اطفال باز می‌شوند؟"
    page, replies = on_the_web_chat(running, phone, "fa-AF", question)
    assert FALSE["prs"] in replies and "چنین چیزی اعلام نشده است" in replies, replies
    assert replies.index(FALSE["prs"]) < replies.index("معلومات فعلی منابع ما"), replies
    assert replies.index("معلومات فعلی منابع ما") < replies.index("دروازهٔ شمالی"), replies
    screenshot(page, "rumour-dari-gates-tonight-false")


def test_a_dari_reader_pays_for_a_seat_rumour_is_told_nobody_may_charge_first(
    running: Running, phone: Phone
) -> None:
    question = "شنیدم که در میدان هوایی به کسانی که پول بدهند جای میدهند"
    page, replies = on_the_web_chat(running, phone, "fa-AF", question)
    assert "هیچ کس حق ندارد برای جای در پرواز" in replies, replies
    assert replies.index("هیچ کس حق ندارد") < replies.index("هنوز بررسی نکرده‌ایم"), replies
    assert "نمی‌توانیم بگوییم" not in replies, replies
    screenshot(page, "rumour-dari-pay-for-a-seat")


@pytest.mark.parametrize(
    ("language", "question"),
    [
        ("en", "is it true that Canada takes every Afghan who has a tazkira?"),
        ("prs", "راست است که کانادا هر افغان را که تذکره دارد می‌برد؟"),
        ("ps", "رښتیا ده چې کاناډا هر افغان چې تذکره لري له ځانه سره وړي؟"),
        ("prs", "rast ast ke kanada har afghan ra ke tazkira dara mibara?"),
        ("ps", "reshtia da che canada har afghan che tazkira lari wari?"),
    ],
    ids=["en", "prs-Arab", "ps-Arab", "prs-Latn", "ps-Latn"],
)
def test_the_same_rumour_in_every_slice_gets_the_verdict_and_its_source(
    running: Running, language: str, question: str
) -> None:
    reply = texts_of(running.say(f"journey-rumour-{hash(question) & 0xFFFF}", question))
    assert FALSE[language] in reply and IRCC in reply, reply
    if language == "ps":
        assert set(reply) & PASHTO_LETTERS, reply


def test_a_rumour_nobody_checked_is_said_so_and_kept_masked_for_the_editors(
    running: Running,
) -> None:
    sender = "journey-rumour-unknown"
    question = (
        "I heard the Turkish embassy gives visas at the airport road tonight, call 0799123456"
    )
    reply = texts_of(running.say(sender, question))
    assert "not checked" in reply.lower() and "0799123456" not in reply, reply
    engine = create_engine(running.db_url)
    with engine.connect() as connection:
        texts = list(connection.execute(select(Ask.masked_text)).scalars())
    engine.dispose()
    assert any("turkish embassy" in text.lower() for text in texts), texts
    assert not any("0799123456" in text for text in texts), texts


def test_a_dari_telegram_reader_forwards_two_rumours_and_types_one_to_be_told(
    running: Running, bot_api: tuple[FakeProviders, str]
) -> None:
    providers, chat = bot_api[0], 740000001
    chain = "امریکا از طریق فیسبوک نام‌ها را جمع میکند، نام خود را در این صفحه بنویسید"
    reply = telegram(running, providers, chat, chain, forwarded=True)
    assert FALSE["prs"] in reply and "فیسبوک یا واتساپ" in reply and chain not in reply, reply
    # How the embassy the chain letter names really reaches people, from its contacts record.
    assert "سفارت امریکا در کابل تنها از راه" in reply and "700 000 131" in reply, reply

    unknown = "ازبکستان فردا سرحد حیرتان را برای همه خانواده‌ها باز میکند"
    reply = telegram(running, providers, chat, unknown, forwarded=True)
    assert "هنوز بررسی نکرده‌ایم" in reply and "۱ بفرستید" in reply, reply
    reply = telegram(running, providers, chat, "۱")
    assert "همین‌جا برایتان خبر می‌دهیم" in reply, reply
