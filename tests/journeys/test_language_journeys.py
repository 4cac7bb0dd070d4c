"""A Pashto speaker's conversation stays Pashto, even on the words Dari shares with Pashto.

«سلام» is the same word in Dari and Pashto, and the language identifier, weighing the Dari
training data's many greetings, calls it Dari with 0.83. It used to move a Pashto conversation
to Dari: greeting, menu and every later answer. Here a Pashto speaker on the web chat of a
phone set to Pashto greets, asks about flights and the airport, follows up and greets again;
over the REST channel (no hint at all) another one does the same after a first question, and
sends menu numbers. Every answer must be Pashto: Pashto-only letters, and the page right to left
in Pashto.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from kernel.lang import tags
from kernel.lang.letters import PASHTO_LETTERS
from tests.journeys.conftest import Phone, Running, screenshot

REPLY_TIMEOUT_MS = 60_000


def is_pashto(text: str) -> bool:
    """A reply a Pashto reader recognises as Pashto: it has letters only Pashto writes."""
    return bool(set(text) & PASHTO_LETTERS)


def texts_of(replies: list[dict[str, Any]]) -> list[str]:
    """The texts of REST replies (a reply may also be buttons or an image alone)."""
    return [reply["text"] for reply in replies if reply.get("text")]


def ask(page: Page, text: str) -> list[str]:
    """Type ``text`` into the web chat, send it, and return the texts of the replies to it."""
    before = page.locator(".msg.bot").count()
    page.locator("#input").fill(text)
    page.keyboard.press("Enter")
    expect(page.locator(".msg.bot").nth(before)).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    return page.locator(".msg.bot").all_inner_texts()[before:]


def test_a_pashto_speaker_on_the_web_chat_is_answered_in_pashto_throughout(
    running: Running, phone: Phone
) -> None:
    page = phone(locale="ps-AF")
    page.goto(f"{running.stack.rasa_url}/webchat/")
    turns = [
        "سلام",
        "بله الوتنه کله ده؟",
        "د کابل هوايي ډګر خلاص دی؟",
        "او سبا؟",
        "سلام",
    ]
    answers = {text: ask(page, text) for text in turns[:-1]}
    first_greeting = answers["سلام"]
    again = ask(page, turns[-1])
    for text, replies in [*answers.items(), ("سلام (again)", again)]:
        assert replies, f"no answer to {text!r}"
        assert all(is_pashto(reply) for reply in replies), f"{text!r} answered: {replies!r}"
    assert again[0] == first_greeting[0]  # the same Pashto greeting, not a Dari one
    assert page.evaluate("document.documentElement.lang") == tags.tag("ps")  # ps-AF
    assert page.evaluate("document.documentElement.dir") == "rtl"
    screenshot(page, "language-pashto-greets-again")


def test_a_pashto_conversation_without_a_hint_stays_pashto_on_shared_words(
    running: Running,
) -> None:
    sender = "journey-pashto-rest"
    texts = ["د دوحې الوتنې کله دي؟", "سلام", "۲", "دوحه", "امنیت", "سلام"]
    for text in texts:
        replies = texts_of(running.say(sender, text))
        assert replies, f"no answer to {text!r}"
        assert all(is_pashto(reply) for reply in replies), f"{text!r} answered: {replies!r}"


def test_a_dari_message_still_moves_the_conversation_to_dari(running: Running) -> None:
    """Shared words keep the language; a message in the other language still changes it."""
    sender = "journey-pashto-then-dari"
    assert all(map(is_pashto, texts_of(running.say(sender, "الوتکه کله ځي؟"))))
    replies = texts_of(running.say(sender, "میدان هوایی باز است؟"))
    assert replies and not any(is_pashto(reply) for reply in replies), replies
