"""The web chat on a phone, as an English and a Dari reader walk it on a plain `make run`.

An English reader taps every item of the menu in turn: the page stays English and left to right
(its language, direction, title and Send button) although the menu and the language question
name Dari and Pashto in their own letters, every answer is English, and those mixed lines read
in order. Reopening the page keeps the answers; "Clear this chat" and "delete my data" remove
them from the phone. A Dari reader who sends «۶» (the language question, which names «پښتو»)
is not switched to Pashto.
"""

from __future__ import annotations

import http.client
import json
import re
import uuid

from playwright.sync_api import Locator, Page, expect

from tests.journeys.conftest import Phone, Running, screenshot

REPLY_MS = 30_000
#: Bubbles answering the person (the first screen's greeting and menu are ``.welcome``).
ANSWER = ".msg.bot:not(.welcome)"
#: The only words in Arabic script an English answer may hold: the languages' own names.
LANGUAGE_NAMES = ("زبان", "ژبه", "دری", "پښتو")
ARABIC_LETTER = re.compile(r"[\u0600-\u06FF]")
#: Where each word starts on the screen, left to right: for checking a mixed line's order.
WORD_POSITIONS_JS = """(element, words) => words.map((word) => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(word);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    const box = range.getBoundingClientRect();
    return [Math.round(box.left), Math.round(box.top)];
  }
  return null;
})"""


def expect_page_in(page: Page, tag: str, direction: str, title: str, send: str) -> None:
    """The page as a whole is in one language: what the person reads around the chat."""
    expect(page.locator("html")).to_have_attribute("lang", tag)
    expect(page.locator("html")).to_have_attribute("dir", direction)
    expect(page).to_have_title(title)
    expect(page.locator("#title")).to_have_text(title)
    expect(page.locator("#send")).to_have_text(send)


def expect_english_page(page: Page) -> None:
    expect_page_in(page, "en", "ltr", "Evacuation information", "Send")
    expect(page.locator(".langs").get_by_role("button", name="English")).to_have_attribute(
        "aria-pressed", "true"
    )


def answers_after(page: Page, before: int) -> list[Locator]:
    """The bubbles that answered the person's last message, once all of them are in."""
    expect(page.locator(ANSWER).nth(before)).to_be_visible(timeout=REPLY_MS)
    expect(page.locator(".msg.user.pending")).to_have_count(0, timeout=REPLY_MS)
    page.wait_for_timeout(300)  # the answer's later bubbles are drawn in the same task
    return [page.locator(ANSWER).nth(i) for i in range(before, page.locator(ANSWER).count())]


def assert_english(bubble: Locator) -> None:
    text = bubble.inner_text()
    for name in LANGUAGE_NAMES:
        text = text.replace(name, "")
    assert not ARABIC_LETTER.search(text), f"not English: {bubble.inner_text()!r}"
    assert (bubble.get_attribute("lang"), bubble.get_attribute("dir")) == ("en", "ltr")
    assert bubble.evaluate("el => getComputedStyle(el).direction") == "ltr"


def left_to_right(bubble: Locator, *words: str) -> None:
    """``words`` appear on the screen in this order: left to right along a line, and a word
    on a later line (the bubble wraps at 360 px) after those above it."""
    found = bubble.evaluate(WORD_POSITIONS_JS, list(words))
    assert all(found), f"{words} not all in {bubble.inner_text()!r}"
    reading_order = sorted(found, key=lambda at: (at[1], at[0]))
    assert found == reading_order and len({tuple(at) for at in found}) == len(found), (
        f"{words} are shown out of order: {found}"
    )


def menu_button(page: Page, number: str) -> Locator:
    """The latest menu's button for ``number`` (earlier menus are disabled once used)."""
    return page.locator(".choices button:enabled", has_text=re.compile(rf"^{number} ")).last


def ask(page: Page, text: str) -> list[Locator]:
    before = page.locator(ANSWER).count()
    page.get_by_label(re.compile("Your question|سوال شما")).fill(text)
    page.keyboard.press("Enter")
    return answers_after(page, before)


def test_an_english_reader_taps_every_menu_item_and_the_page_stays_english(
    running: Running, phone: Phone
) -> None:
    page = phone(locale="en-US")
    page.goto(f"{running.stack.rasa_url}/webchat/")
    # The first screen: a greeting and the menu, before anything is written.
    expect(page.locator(".msg.welcome").first).to_contain_text("Hello!", timeout=REPLY_MS)
    expect(menu_button(page, "1")).to_have_text("1 Flights")
    assert page.locator(ANSWER).count() == 0 and page.locator(".msg.user").count() == 0
    menu = page.locator(".msg.welcome", has_text="Reply with a number")
    left_to_right(menu, "Language", "زبان", "ژبه")
    expect_english_page(page)

    seen: list[str] = []
    for number in "1234567":
        if number != "1":
            for bubble in ask(page, "9"):  # "9 This menu": the menu again
                assert_english(bubble)
            expect_english_page(page)
        before = page.locator(ANSWER).count()
        menu_button(page, number).click()
        answers = answers_after(page, before)
        assert answers, f"no answer to menu item {number}"
        for bubble in answers:
            assert_english(bubble)
        expect_english_page(page)
        assert (
            page.locator(".msg.user").last.evaluate("el => getComputedStyle(el).alignSelf")
            == "flex-end"
        )  # the person's own bubble stays on their side
        seen.append(answers[0].inner_text())
        if number == "6":
            prompt = answers[0]
            assert prompt.inner_text().startswith("Which language should I answer in?")
            left_to_right(prompt, "Dari", "دری", "Pashto", "پښتو")
            screenshot(page, "webchat-en-language-question")
    assert len(set(seen)) == 7, seen

    # Reopened: the earlier answers are still there, and the page is still English.
    # (The first screen's greeting is not part of the conversation: not kept.)
    shown = page.locator(".msg:not(.welcome)").count()
    page.reload()
    expect(page.locator(".msg")).to_have_count(shown, timeout=REPLY_MS)
    for answer in seen:
        expect(page.locator(ANSWER, has_text=answer[:40]).first).to_be_visible()
    expect_english_page(page)

    # "Clear this chat": nothing of the conversation is left on the phone, even reopened.
    page.get_by_role("button", name="Clear this chat").click()
    expect(page.locator(ANSWER)).to_have_count(1)
    expect(page.locator(ANSWER)).to_contain_text("This chat was cleared from this phone")
    assert page.locator(".msg.user").count() == 0
    page.reload()
    expect(page.locator(".msg.welcome").first).to_contain_text("Hello!", timeout=REPLY_MS)
    assert page.locator(ANSWER).count() == 0 and page.locator(".msg.user").count() == 0
    screenshot(page, "webchat-en-cleared")

    # "8 Delete my data" clears the phone too: only the confirmation is shown, and not kept.
    before = page.locator(ANSWER).count()
    menu_button(page, "8").click()
    [confirmation, *_] = answers_after(page, before)
    assert_english(confirmation)
    assert page.locator(".msg.user").count() == 0  # the request itself is gone as well
    page.reload()
    expect(page.locator(".msg.welcome").first).to_contain_text("Hello!", timeout=REPLY_MS)
    assert page.locator(ANSWER).count() == 0
    expect_english_page(page)


def test_a_dari_reader_who_sends_six_is_not_switched_to_pashto(
    running: Running, phone: Phone
) -> None:
    page = phone(locale="fa-AF")
    page.goto(f"{running.stack.rasa_url}/webchat/")
    expect(page.locator(".msg.welcome").first).to_contain_text("سلام", timeout=REPLY_MS)
    dari_page = ("fa-AF", "rtl", "معلومات تخلیه", "ارسال")
    expect_page_in(page, *dari_page)
    [answer, *_] = ask(page, "پرواز بعدی چه وقت است؟")
    assert answer.get_attribute("lang") == "fa-AF"
    [prompt, *_] = ask(page, "۶")
    assert prompt.inner_text().startswith("به کدام زبان جواب بدهم؟")
    assert (prompt.get_attribute("lang"), prompt.get_attribute("dir")) == ("fa-AF", "rtl")
    expect_page_in(page, *dari_page)
    expect(page.locator(".langs").get_by_role("button", name="دری")).to_have_attribute(
        "aria-pressed", "true"
    )
    screenshot(page, "webchat-prs-language-question")


def test_without_javascript_the_notice_comes_first_in_every_language(
    running: Running, phone: Phone
) -> None:
    page = phone(java_script_enabled=False)
    page.goto(f"{running.stack.rasa_url}/webchat/")
    notice = page.locator(".no-script")
    expect(notice).to_be_visible()
    box = notice.bounding_box()
    assert box is not None and box["y"] == 0  # at the top, not below a full-height chat
    for tag, words in (
        ("en", "needs JavaScript"),
        ("fa-AF", "جاوااسکریپت"),
        ("ps-AF", "جاوااسکریپټ"),
    ):
        paragraph = notice.locator(f'p[lang="{tag}"]')
        expect(paragraph).to_contain_text(words)
        paragraph_box = paragraph.bounding_box()
        assert paragraph_box is not None and paragraph_box["y"] < 740  # seen without scrolling
    screenshot(page, "webchat-no-javascript")


def test_a_flood_from_one_client_gets_429_while_another_client_is_answered(
    running: Running,
) -> None:
    """`make run`'s limits (60 web chat messages a minute per address): the 61st message from
    one address is answered 429 with the time to wait, while another address is answered.
    Each client writes from its own loopback address, as people do from their own."""

    def webchat(source: str, sender: str) -> tuple[int, str | None]:
        connection = http.client.HTTPConnection(
            "127.0.0.1", running.stack.rasa_port, timeout=60, source_address=(source, 0)
        )
        body = json.dumps({"sender": sender, "message": "when is the next flight?"})
        connection.request("POST", "/webchat/webhook", body, {"Content-Type": "application/json"})
        answer = connection.getresponse()
        answer.read()
        connection.close()
        return answer.status, answer.getheader("Retry-After")

    flooder = uuid.uuid4().hex
    admitted, refused = 0, None
    while refused is None and admitted <= 120:
        status, wait = webchat("127.0.0.3", flooder)
        if status == 200:
            admitted += 1
        else:
            refused = (status, wait)
    # 60 a minute, counted in whole minutes: a flood that starts late in one is let through up
    # to twice (60 before the minute turns, 60 after).
    assert 60 <= admitted <= 120 and refused is not None, admitted
    assert refused[0] == 429 and refused[1] is not None and 1 <= int(refused[1]) <= 60
    assert webchat("127.0.0.4", uuid.uuid4().hex)[0] == 200  # someone else, meanwhile
