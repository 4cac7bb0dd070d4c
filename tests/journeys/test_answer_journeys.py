"""Editors teach the assistant a new answer, on make run's stack with the demo content.

People ask about the Torkham border, which no fixed topic answers (the demo's own Torkham answer
is withdrawn first, as if nobody had written it yet): a Dari reader on Telegram, who types «۱»
to be told once there is an answer, and four writers of romanised Dari and of Pashto over the
REST channel, two of each writing alike. Each is told honestly that there is no answer yet, never
the airport's status. Five people on two channels: an editor on her phone finds their messages
as one group on "What people ask", writes the answer in three languages from it (what two people
wrote alike is prefilled) and publishes. Within seconds a romanised Pashto writer asking
in new words gets it, and the Dari Telegram reader is told, once, in Dari.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

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

#: A published answer is found within this many seconds, in every process.
FOUND_WITHIN = 5.0
#: The notifier tells the Telegram reader within this many seconds.
TOLD_WITHIN = 60.0
NO_ANSWER = {
    "en": "do not have an answer",
    "prs": "هنوز جواب ندارم",
    "ps": "ځواب لا نه لرم",
}
AIRPORT = {"prs": "میدان هوایی بین‌المللی حامد کرزی", "en": "Hamid Karzai International Airport"}
ANSWER = {
    "en": "Torkham is open for people with a valid passport and Pakistani visa; it closes at "
    "times. Do not travel without papers.",
    "prs": "تورخم برای کسانی که پاسپورت و ویزهٔ پاکستان دارند باز است؛ گاهی بسته می‌شود. بدون "
    "اسناد سفر نکنید.",
    "ps": "تورخم د هغو کسانو لپاره خلاص دی چې پاسپورټ او د پاکستان ویزه لري؛ کله کله تړل کېږي. "
    "له اسنادو پرته سفر مه کوئ.",
}
QUESTION = {
    "en": "Is the Torkham border open?",
    "prs": "آیا سرحد تورخم باز است؟",
    "ps": "آیا د تورخم پوله خلاصه ده؟",
}


@pytest.fixture(scope="module")
def bot_api() -> Iterator[tuple[FakeProviders, str]]:
    faked = FakeProviders()
    serving = ProvidersInThread(faked)
    yield faked, serving.start(free_port())
    serving.stop()


@pytest.fixture(scope="module")
def running(
    tmp_path_factory: pytest.TempPathFactory, bot_api: tuple[FakeProviders, str]
) -> Iterator[Running]:
    """`make run`'s stack with Telegram to the fake Bot API, without the demo's Torkham answer."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    base = tmp_path_factory.mktemp("make-run-answers")
    credentials = base / "credentials.yml"
    credentials.write_text(
        (ROOT / "credentials.yml").read_text() + "bot.channels.telegram.TelegramInput:\n"
    )
    env = {**CHANNEL_SECRETS, **FakeProviders.environment(bot_api[1])}
    started = start_running(base, env, credentials)
    try:
        started.cli(
            "actions.content",
            "withdraw",
            "answer",
            "torkham-border",
            "--editor",
            "amina",
            "--note",
            "not written yet in this journey",
        )
        yield started
    finally:
        started.stack.stop()


def telegram(running: Running, providers: FakeProviders, chat: int, text: str) -> str:
    """A private chat's message as Telegram posts it; what the Bot API was asked to show."""
    time.sleep(1.1)  # Telegram sends at most one message a second to a chat
    before = len(providers.to("telegram", str(chat)))
    request = urllib.request.Request(
        f"{running.stack.rasa_url}/webhooks/telegram/webhook",
        json.dumps(telegram_update(chat, text, "fa")).encode(),
        {"Content-Type": "application/json", **TELEGRAM_SECRET_HEADER},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 200
    wait_for_the_line(running.stack)
    sent = providers.to("telegram", str(chat))[before:]
    return "\n".join(part for r in sent for part in (r.text, *r.buttons))


def said(running: Running, sender: str, text: str) -> str:
    return "\n".join(reply.get("text", "") for reply in running.say(sender, text))


def test_editors_answer_the_torkham_question_people_asked_and_those_waiting_are_told(
    running: Running, phone: Phone, bot_api: tuple[FakeProviders, str]
) -> None:
    providers, chat = bot_api[0], 740000077
    # Yesterday's askers: nobody has written an answer yet.
    reply = telegram(running, providers, chat, "سرحد تورخم باز است؟ کسی خبر داره")
    assert NO_ANSWER["prs"] in reply and AIRPORT["prs"] not in reply, reply
    assert "۱ بفرستید" in reply, reply
    reply = telegram(running, providers, chat, "۱")
    assert "یک بار همین‌جا برایتان خبر می‌دهم" in reply, reply
    for n in range(2):
        reply = said(running, f"journey-answers-prs-latn-{n}", "sarhad torkham baz ast ya basta?")
        assert NO_ANSWER["en"] in reply or NO_ANSWER["prs"] in reply, reply
        assert AIRPORT["en"] not in reply and AIRPORT["prs"] not in reply, reply
        reply = said(running, f"journey-answers-ps-{n}", "د تورخم سرحد خلاص دی که بند؟")
        assert NO_ANSWER["ps"] in reply or NO_ANSWER["prs"] in reply, reply

    # The editor, on her phone, finds them as one group and writes the answer from it.
    link = running.invite("amina")
    code = parse_qs(urlparse(link).query)["code"][0]
    page = phone()
    console = running.stack.admin_url
    page.goto(f"{console}/console/signin?code={code}&lang=en")
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{console}/console/questions")
    group = page.locator("ol.waiting > li").filter(has_text="تورخم").first
    expect(group).to_contain_text("5 people asked")
    expect(group).to_contain_text("sarhad torkham")
    expect(group).to_contain_text("د تورخم سرحد")
    screenshot(page, "answers-editor-questions-group")
    group.get_by_role("link", name="Write an answer").click()

    phrasings = page.locator('[name="phrasings"]')
    expect(phrasings).to_contain_text("sarhad torkham")
    page.locator('[name="key"]').fill("torkham-crossing")
    for language, text in QUESTION.items():
        page.locator(f'[name="question.{language}"]').fill(text)
    for language, text in ANSWER.items():
        page.locator(f'[name="answer.{language}"]').fill(text)
    page.locator('[name="source"]').select_option("iom")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("button", name="Preview").click()
    preview = page.locator("#preview")
    expect(preview.locator('[data-language="prs"] [data-channel="chat"]')).to_contain_text(
        "ویزهٔ پاکستان"
    )
    preview.scroll_into_view_if_needed()
    screenshot(page, "answers-editor-preview")
    page.get_by_role("button", name="Publish", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Published: answer torkham-crossing")
    published = time.monotonic()
    screenshot(page, "answers-editor-published")

    # A romanised Pashto writer asking in new words gets it within seconds.
    while True:
        reply = said(
            running,
            f"journey-answers-ps-latn-{time.monotonic_ns()}",
            "torkham pula nan khlasa da ka na?",
        )
        if "تورخم" in reply and "پاسپورټ" in reply:
            break
        assert time.monotonic() - published < FOUND_WITHIN, reply
        time.sleep(0.5)

    # The Dari reader who asked on Telegram is told, once, in Dari.
    deadline = time.monotonic() + TOLD_WITHIN
    told: list[str] = []
    while time.monotonic() < deadline and not told:
        told = [r.text for r in providers.to("telegram", str(chat)) if "ویزهٔ پاکستان" in r.text]
        time.sleep(1)
    assert len(told) == 1 and "شما پرسیده بودید" in told[0], told
    time.sleep(3)
    assert len([r for r in providers.to("telegram", str(chat)) if "ویزهٔ پاکستان" in r.text]) == 1
