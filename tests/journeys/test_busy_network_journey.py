"""Many people behind one network address, on a plain `make run` (its web chat limits on).

A hotel's Wi-Fi or a carrier's NAT gives many phones one address. Here the address may open one
conversation an hour without more ado and three at most (WEBCHAT_CONVERSATIONS_PER_HOUR=1,
..._WITH_WORK=3), so that a few pages walk what 300 people meet under the defaults: the first
conversation is free, the next pages do a little work before their question goes and are
answered, a page past the ceiling is told the true wait in its own language with the SMS number
and the help line, and a page that has its ticket goes on writing all the same.
"""

from __future__ import annotations

import json
import math
import time
import urllib.request
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, Response, expect

from tests.journeys.conftest import MODEL, Phone, Running, screenshot, start_running

REPLY_MS = 30_000
ANSWER = ".msg.bot:not(.welcome)"
SMS = "+93 700 000 000"
HOTLINE = "+93 700 000 100"
QUESTION = "پرواز بعدی چه وقت است؟"
DARI_DIGITS = "۰۱۲۳۴۵۶۷۸۹"


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """`make run`'s stack with an SMS number and a help line, and a tight hourly limit."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    env = {
        "WEBCHAT_SMS_NUMBER": SMS,
        "EMERGENCY_HOTLINE": HOTLINE,
        "WEBCHAT_CONVERSATIONS_PER_HOUR": "1",
        "WEBCHAT_CONVERSATIONS_PER_HOUR_WITH_WORK": "3",
    }
    started = start_running(tmp_path_factory.mktemp("make-run-busy-network"), env)
    try:
        yield started
    finally:
        started.stack.stop()


def in_dari_digits(number: int) -> str:
    return "".join(DARI_DIGITS[int(digit)] for digit in str(number))


def ask_in_dari(page: Page, running: Running) -> list[Response]:
    """A Dari page asks the question; the webhook's answers to it, as they come."""
    answers: list[Response] = []
    page.on("response", lambda r: answers.append(r) if r.url.endswith("/webhook") else None)
    page.goto(f"{running.stack.rasa_url}/webchat/")
    expect(page.locator("html")).to_have_attribute("lang", "fa-AF")
    page.get_by_label("سوال شما").fill(QUESTION)
    page.keyboard.press("Enter")
    return answers


def test_people_behind_one_address_are_answered_and_told_the_true_wait(
    running: Running, phone: Phone
) -> None:
    if 3600 - time.time() % 3600 < 120:
        time.sleep(3600 - time.time() % 3600 + 1)  # the hour's count must not turn mid-journey
    # Someone on a page too old to know tickets opens the address's free conversation.
    body = json.dumps({"sender": uuid.uuid4().hex, "message": "hello"}).encode()
    request = urllib.request.Request(
        f"{running.stack.rasa_url}/webchat/webhook", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 200

    # Two more people: each page works a moment first, then is answered in Dari.
    first = phone(locale="fa-AF")
    for page in (first, phone(locale="fa-AF")):
        answers = ask_in_dari(page, running)
        reply = page.locator(ANSWER).first
        expect(reply).to_be_visible(timeout=REPLY_MS)
        assert reply.get_attribute("lang") == "fa-AF"
        assert [a.status for a in answers] == [401, 200]
        assert page.evaluate("localStorage.getItem('evacuee-webchat.ticket')")

    # The fourth is past the address's ceiling: told the wait the server gave, in Dari, with
    # the other ways meanwhile; the message stays, waiting to be sent.
    late = phone(locale="fa-AF")
    answers = ask_in_dari(late, running)
    status = late.get_by_role("status")
    expect(status).to_contain_text("از این شبکه پیام‌های زیادی می‌آید", timeout=REPLY_MS)
    [refused] = answers
    wait = int(refused.headers["retry-after"])
    assert refused.status == 429 and 60 < wait <= 3600
    said = f"پس از {in_dari_digits(math.ceil(wait / 60))} دقیقه" if wait >= 120 else "ثانیه"
    expect(status).to_contain_text(said)
    for number in (SMS, HOTLINE):
        shown = status.locator("bdi.number", has_text=number)  # kept whole, left to right
        expect(shown).to_have_attribute("dir", "ltr")
    assert status.evaluate("el => getComputedStyle(el).direction") == "rtl"
    box = status.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    expect(late.locator(".msg.user.pending")).to_have_count(1)
    assert late.locator(".msg.failed").count() == 0
    screenshot(late, "webchat-prs-busy-network-wait")

    # The first person writes again: their page has its ticket, the address's count is no
    # matter to a conversation already open.
    before = first.locator(ANSWER).count()
    first.get_by_label("سوال شما").fill("میدان هوایی باز است؟")
    first.keyboard.press("Enter")
    expect(first.locator(ANSWER).nth(before)).to_be_visible(timeout=REPLY_MS)
    expect(first.locator(".msg.user.pending")).to_have_count(0)
