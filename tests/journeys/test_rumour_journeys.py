"""People who heard a rumour ask whether it is true, on make run's stack with the demo content.

A Dari mother on the web chat of her phone heard that Canada takes everyone with a tazkira; a
Pashto, an English and two Latin-letter writers ask the same over the REST channel; someone
asks about a rumour nobody has checked. Each gets, in their own language, the editors' verdict
with its source — never their own message quoted back — or, for the unknown one, "not checked
yet" and what to do meanwhile; the unknown rumour is kept masked for the editors.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, select

from actions.claims.models import ClaimAsk
from bot.lang import tags
from bot.lang.letters import PASHTO_LETTERS
from tests.journeys.conftest import Phone, Running, screenshot

REPLY_TIMEOUT_MS = 60_000
#: The demo's source for the Canada rumour, named in every language.
IRCC = "IRCC"
FALSE = {"en": "False", "prs": "نادرست", "ps": "ناسمه"}


def texts_of(replies: list[dict[str, Any]]) -> str:
    return "\n".join(reply["text"] for reply in replies if reply.get("text"))


def ask(page: Page, text: str) -> list[str]:
    before = page.locator(".msg.bot").count()
    page.locator("#input").fill(text)
    page.keyboard.press("Enter")
    expect(page.locator(".msg.bot").nth(before)).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    return page.locator(".msg.bot").all_inner_texts()[before:]


def test_a_dari_mother_hears_canada_takes_everyone_and_is_told_it_is_false(
    running: Running, phone: Phone
) -> None:
    page = phone(locale="fa-AF")
    page.goto(f"{running.stack.rasa_url}/webchat/")
    question = "راست است که کانادا هر افغان را که تذکره دارد می‌برد؟"
    replies = "\n".join(ask(page, question))
    assert FALSE["prs"] in replies and IRCC in replies, replies
    assert question not in replies  # a searched phone never shows the rumour as she typed it
    assert page.evaluate("document.documentElement.lang") == tags.tag("prs")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    screenshot(page, "rumour-dari-canada-false")


@pytest.mark.parametrize(
    ("language", "question"),
    [
        ("en", "is it true that Canada takes every Afghan who has a tazkira?"),
        ("ps", "رښتیا ده چې کاناډا هر افغان چې تذکره لري له ځانه سره وړي؟"),
        ("prs", "rast ast ke kanada har afghan ra ke tazkira dara mibara?"),
        ("ps", "reshtia da che canada har afghan che tazkira lari wari?"),
    ],
    ids=["en", "ps-Arab", "prs-Latn", "ps-Latn"],
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
        texts = list(connection.execute(select(ClaimAsk.masked_text)).scalars())
    engine.dispose()
    assert any("turkish embassy" in text.lower() for text in texts), texts
    assert not any("0799123456" in text for text in texts), texts
