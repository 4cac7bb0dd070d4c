"""The web chat page in a real browser (Debian's Chromium driven by Playwright) against the
whole stack: Rasa with the webchat channel and the action server as real processes."""

import hashlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect, sync_playwright

from kernel.lang.letters import PASHTO_LETTERS
from scripts.browser import CHROMIUM, CHROMIUM_ARGS
from scripts.stack import Stack
from tests.screenshots import for_docs

pytestmark = pytest.mark.integration

PASHTO_ONLY = PASHTO_LETTERS
ARABIC = set(chr(code) for code in range(0x0600, 0x0700))
REPLY_TIMEOUT_MS = 30_000
#: A bubble answering the person (the first screen's greeting and menu are ``.welcome``).
REPLY = ".msg.bot:not(.welcome)"
MAX_WIDGET_BYTES = 100 * 1024
WIDGET_FILES = {"", "widget.js", "work.js", "widget.css"}  # "" is the page itself, /webchat/
#: Every letter, digit and mark Dari and Pashto text uses, Pashto's own letters first.
DARI_AND_PASHTO = (
    "ټډړږښګڼېۍځڅئیکگپچژ"
    "ءآأؤإابتثجحخدذرزسشصضطظعغفقلمنوهيةۀ"
    "۰۱۲۳۴۵۶۷۸۹،؛؟«»\u064b\u064e\u064f\u0650\u0651\u0652"
)
#: A private-use code point no font has: it renders as the missing-glyph box (.notdef).
NO_GLYPH = "\U0010fffd"
#: Draws each character alone with the element's own font and lists those that come out as the
#: very same pixels as the missing-glyph box: an empty box for a letter, whatever its width.
MISSING_GLYPHS_JS = """([element, characters, noGlyph]) => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 96;
  const context = canvas.getContext("2d", {willReadFrequently: true});
  context.font = `64px ${getComputedStyle(element).fontFamily}`;
  context.textAlign = "center";
  context.textBaseline = "middle";
  const draw = (text) => {
    context.clearRect(0, 0, 96, 96);
    context.fillText(text, 48, 48);
    return context.getImageData(0, 0, 96, 96).data;
  };
  const box = draw(noGlyph);
  const same = (a, b) => a.every((value, i) => value === b[i]);
  return [...characters].filter((c) => same(draw(c), box));
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make deps` (as root)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, stack: Stack) -> Iterator[Page]:
    """A phone-sized page (360 px) with its own storage, so each test is a new conversation."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
    opened = context.new_page()
    outside: list[str] = []
    opened.on(
        "request",
        lambda request: (
            None if request.url.startswith(stack.rasa_url) else outside.append(request.url)
        ),
    )
    yield opened
    context.close()
    assert outside == [], "the widget must not load anything from elsewhere"


def ask(page: Page, text: str) -> str:
    """Type ``text``, send it, and return the text of the first reply."""
    before = page.locator(REPLY).count()
    page.get_by_label("Your question").fill(text)
    page.keyboard.press("Enter")
    reply = page.locator(REPLY).nth(before)
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    return reply.inner_text()


def test_a_pashto_question_gets_a_pashto_answer_laid_out_right_to_left(
    page: Page, stack: Stack
) -> None:
    page.goto(f"{stack.rasa_url}/webchat/")
    expect(page.get_by_role("log")).to_have_attribute("aria-live", "polite")
    answer = ask(page, "د کابل هوايي ډګر خلاص دی؟")
    assert set(answer) & PASHTO_ONLY, f"not Pashto: {answer!r}"
    reply = page.locator(REPLY).first
    assert reply.evaluate("el => getComputedStyle(el).direction") == "rtl"
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate("document.documentElement.lang") == "ps-AF"
    # The page stays within a phone's width: nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    transferred = page.evaluate(
        """() => [...performance.getEntriesByType("navigation"),
                 ...performance.getEntriesByType("resource")]
              .filter(e => !/[/](webhook|mailbox|welcome)([?]|$)/.test(e.name))
              .map(e => [e.name, e.transferSize])"""
    )
    assert {name.rsplit("/", 1)[-1] for name, _ in transferred} == WIDGET_FILES, transferred
    assert all(size > 0 for _, size in transferred), transferred
    assert sum(size for _, size in transferred) < MAX_WIDGET_BYTES
    page.screenshot(path=str(for_docs("webchat.png")))


def test_the_language_switcher_changes_the_layout_and_the_answers(page: Page, stack: Stack) -> None:
    page.goto(f"{stack.rasa_url}/webchat/")
    page.get_by_role("button", name="پښتو").click()
    reply = page.locator(REPLY).first
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    assert set(reply.inner_text()) & PASHTO_ONLY
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.get_by_role("button", name="پښتو")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("textbox")).to_be_focused()

    # The first turn also brings the safety offer: the answer to the click is the next message.
    expect(page.locator(REPLY)).to_have_count(2, timeout=REPLY_TIMEOUT_MS)
    before = page.locator(REPLY).count()
    page.get_by_role("button", name="English").click()
    reply = page.locator(REPLY).nth(before)
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    assert not set(reply.inner_text()) & ARABIC
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.get_by_label("Your question")).to_be_visible()


def test_a_dropped_connection_shows_reconnecting_and_the_message_is_not_lost(
    page: Page, stack: Stack
) -> None:
    dropped: list[str] = []

    def drop_first(route: Route) -> None:
        if not dropped:
            dropped.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/webhook", drop_first)
    page.goto(f"{stack.rasa_url}/webchat/")
    page.get_by_label("Your question").fill("is abbey gate open?")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_contain_text("Reconnecting")
    reply = page.locator(REPLY).first
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    assert dropped and reply.inner_text().startswith("• Abbey Gate:")  # the gate asked about
    expect(page.get_by_role("status")).to_be_hidden()
    assert page.locator(".msg.user").count() == 1  # sent once, shown once


def missing_glyphs(page: Page, stack: Stack) -> list[str]:
    """The Dari and Pashto characters that a Pashto reply's font stack cannot draw."""
    page.goto(f"{stack.rasa_url}/webchat/")
    page.get_by_role("button", name="پښتو").click()
    reply = page.locator(REPLY).first
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    assert reply.get_attribute("lang") == "ps-AF"
    return reply.evaluate(
        "(element, args) => (" + MISSING_GLYPHS_JS + ")([element, ...args])",
        [DARI_AND_PASHTO, NO_GLYPH],
    )


def test_every_dari_and_pashto_letter_renders(page: Page, stack: Stack) -> None:
    """No empty boxes: ۍ once showed as one in Debian's Chromium (make deps installs the
    fonts that cover every letter, widget.css names them)."""
    assert missing_glyphs(page, stack) == []


def test_a_missing_letter_is_noticed(browser: Browser, stack: Stack, tmp_path: Path) -> None:
    """The check above can fail: with only DejaVu Sans, which has no ۍ, it finds that letter."""
    fonts = tmp_path / "fonts.conf"
    fonts.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        f"<dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>{tmp_path}/cache</cachedir>"
        "</fontconfig>"
    )
    dejavu_only = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        env={**os.environ, "FONTCONFIG_FILE": str(fonts)},
    )
    try:
        page = dejavu_only.new_context(viewport={"width": 360, "height": 740}).new_page()
        missing = missing_glyphs(page, stack)
    finally:
        dejavu_only.close()
    assert "ۍ" in missing
    assert "ې" not in missing  # DejaVu has it: the check names only what is really missing


#: What the mailbox answers when a caseworker's reply waits (in Pashto: right to left).
WAITING = {"id": "0123456789abcdef", "text": "زه ستاسو قضیه ګورم، لږ صبر وکړئ.", "language": "ps"}


def mailbox_answer(route: Route, messages: list[dict[str, str]]) -> None:
    route.fulfill(
        status=200, content_type="application/json", body=json.dumps({"messages": messages})
    )


def test_a_waiting_message_is_shown_once_and_acknowledged_until_the_server_forgets_it(
    page: Page, stack: Stack
) -> None:
    fetches: list[dict[str, object]] = []

    def mailbox(route: Route) -> None:
        fetches.append(json.loads(route.request.post_data or "{}"))
        # The first two acknowledgements are lost on the way: the server still has the message.
        mailbox_answer(route, [WAITING] if len(fetches) <= 3 else [])

    page.route("**/mailbox", mailbox)
    page.goto(f"{stack.rasa_url}/webchat/")
    shown = page.locator(REPLY, has_text=WAITING["text"])
    expect(shown).to_have_count(1, timeout=REPLY_TIMEOUT_MS)
    assert (shown.get_attribute("lang"), shown.get_attribute("dir")) == ("ps-AF", "rtl")
    page.wait_for_function(
        "() => localStorage.getItem('evacuee-webchat.acks') === '[]'", timeout=REPLY_TIMEOUT_MS
    )
    sender = page.evaluate("localStorage.getItem('evacuee-webchat.sender')")
    assert [f["sender"] for f in fetches] == [sender] * len(fetches)
    assert fetches[0]["ack"] == []
    assert [f["ack"] for f in fetches[1:4]] == [[WAITING["id"]]] * 3
    expect(shown).to_have_count(1)  # shown once, though it came three times


def test_a_hidden_page_does_not_ask_and_asks_at_once_when_it_is_shown(
    page: Page, stack: Stack
) -> None:
    page.add_init_script(
        "Object.defineProperty(document, 'hidden', {get: () => Boolean(window.hiddenForTest)})"
    )
    asked: list[float] = []

    def mailbox(route: Route) -> None:
        asked.append(time.monotonic())
        mailbox_answer(route, [])

    page.route("**/mailbox", mailbox)
    page.goto(f"{stack.rasa_url}/webchat/")
    deadline = time.monotonic() + 10
    while not asked and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert asked, "the page asks its mailbox when it opens"
    page.evaluate(
        "window.hiddenForTest = true; document.dispatchEvent(new Event('visibilitychange'))"
    )
    before = len(asked)
    page.wait_for_timeout(8_000)  # longer than the first interval (5 s)
    assert len(asked) == before
    page.evaluate(
        "window.hiddenForTest = false; document.dispatchEvent(new Event('visibilitychange'))"
    )
    shown_at = time.monotonic()
    while len(asked) == before and time.monotonic() < shown_at + 5:
        page.wait_for_timeout(100)
    assert len(asked) == before + 1 and asked[-1] - shown_at < 2


def dari_page(browser: Browser, stack: Stack) -> Page:
    """A phone whose browser speaks Dari: the page opens in Dari."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fa-AF")
    opened = context.new_page()
    opened.goto(f"{stack.rasa_url}/webchat/")
    expect(opened.locator("html")).to_have_attribute("lang", "fa-AF")
    return opened


def test_a_dari_status_line_counts_the_seconds_in_persian_digits(
    browser: Browser, stack: Stack
) -> None:
    page = dari_page(browser, stack)
    page.route("**/webhook", lambda route: route.abort("connectionreset"))
    page.get_by_label("سوال شما").fill("میدان هوایی باز است؟")
    page.keyboard.press("Enter")
    status = page.get_by_role("status")
    expect(status).to_contain_text("کوشش بعدی پس از ۱ ثانیه")
    expect(status).to_contain_text("پس از ۲ ثانیه", timeout=REPLY_TIMEOUT_MS)
    assert not any(digit in status.inner_text() for digit in "0123456789")
    page.context.close()


def test_too_many_messages_the_page_waits_as_told_says_so_and_then_sends(
    browser: Browser, stack: Stack
) -> None:
    page = dari_page(browser, stack)
    crowded: list[float] = []

    def crowded_once(route: Route) -> None:
        if crowded:
            route.continue_()
            return
        crowded.append(time.monotonic())
        route.fulfill(
            status=429,
            headers={"Retry-After": "3"},
            content_type="application/json",
            body=json.dumps({"error": "too many messages per minute", "retry_after": 3}),
        )

    page.route("**/webhook", crowded_once)
    page.get_by_label("سوال شما").fill("میدان هوایی باز است؟")
    page.keyboard.press("Enter")
    status = page.get_by_role("status")
    expect(status).to_contain_text("از این شبکه پیام‌های زیادی می‌آید")
    expect(status).to_contain_text("پس از ۳ ثانیه")
    reply = page.locator(REPLY).first
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    assert reply.get_attribute("lang") == "fa-AF"
    assert page.locator(".msg.failed").count() == 0 and page.locator(".msg.user").count() == 1
    expect(status).to_be_hidden()
    page.context.close()


def test_told_to_wait_half_an_hour_the_dari_page_says_so_and_sends_it_then(
    browser: Browser, stack: Stack
) -> None:
    """The server asks a page behind a busy network to come back in 2000 s: the page says so
    in Dari minutes («پس از ۳۴ دقیقه»), right to left, not "60 seconds", and sends the message
    by itself at that time, once."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fa-AF")
    page = context.new_page()
    page.clock.install()
    sent: list[str] = []

    def crowded_once(route: Route) -> None:
        sent.append(route.request.post_data or "")
        if len(sent) > 1:
            route.continue_()
            return
        route.fulfill(
            status=429,
            headers={"Retry-After": "2000"},
            content_type="application/json",
            body=json.dumps({"error": "too many new conversations per hour", "retry_after": 2000}),
        )

    page.route("**/webhook", crowded_once)
    page.goto(f"{stack.rasa_url}/webchat/")
    page.get_by_label("سوال شما").fill("پرواز بعدی چه وقت است؟")
    page.keyboard.press("Enter")
    status = page.get_by_role("status")
    expect(status).to_contain_text("پیام شما پس از ۳۴ دقیقه فرستاده می‌شود")
    assert status.evaluate("el => getComputedStyle(el).direction") == "rtl"
    assert not any(digit in status.inner_text() for digit in "0123456789")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.clock.fast_forward(1_990_000)  # not yet: still waiting, still shown as waiting
    assert len(sent) == 1
    expect(page.locator(".msg.user.pending")).to_have_count(1)
    page.clock.fast_forward(20_000)
    reply = page.locator(REPLY).first
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    assert reply.get_attribute("lang") == "fa-AF"
    assert len(sent) == 2 and json.loads(sent[1])["message"] == "پرواز بعدی چه وقت است؟"
    assert page.locator(".msg.user").count() == 1 and page.locator(".msg.failed").count() == 0
    expect(status).to_be_hidden()
    context.close()


def test_asked_for_work_the_page_does_it_and_sends_the_message_again(
    page: Page, stack: Stack
) -> None:
    """A busy network: the server answers 401 with work; the page finds the nonce in plain
    JavaScript (SHA-256 of "challenge:nonce" starting with 12 zero bits), sends the message
    again with it, and keeps the ticket the answer gives it for its later messages."""
    challenge = f"{int(time.time())}.{'ab' * 12}"
    bodies: list[dict[str, Any]] = []

    def work_first(route: Route) -> None:
        bodies.append(json.loads(route.request.post_data or "{}"))
        if len(bodies) > 1:
            route.continue_()
            return
        route.fulfill(
            status=401,
            headers={"WWW-Authenticate": f'Work challenge="{challenge}", bits="12"'},
            content_type="application/json",
            body=json.dumps({"error": "work first", "work": {"challenge": challenge, "bits": 12}}),
        )

    page.route("**/webhook", work_first)
    page.goto(f"{stack.rasa_url}/webchat/")
    answer = ask(page, "is abbey gate open?")
    assert answer.startswith("• Abbey Gate:")
    first, second = bodies[:2]
    assert first["ticket"] == "" and "work" not in first
    assert second["work"]["challenge"] == challenge
    digest = hashlib.sha256(f"{challenge}:{second['work']['nonce']}".encode()).digest()
    assert int.from_bytes(digest, "big") >> (256 - 12) == 0
    ticket = page.evaluate("localStorage.getItem('evacuee-webchat.ticket')")
    assert ticket  # the real server gave the page its ticket with the answer
    ask(page, "when is the next flight?")
    assert bodies[-1]["ticket"] == ticket and "work" not in bodies[-1]


def test_reopened_offline_the_page_shows_the_chat_kept_on_the_phone(
    page: Page, stack: Stack
) -> None:
    page.goto(f"{stack.rasa_url}/webchat/")
    answer = ask(page, "is abbey gate open?")
    assert answer.startswith("• Abbey Gate:")
    # The service worker has kept the page's files (it controls the page once installed).
    page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)", timeout=10_000)
    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.locator(REPLY, has_text="Abbey Gate").first).to_be_visible()
        expect(page.locator(".msg.user")).to_have_text(["is abbey gate open?"])
        expect(page.locator("html")).to_have_attribute("lang", "en")
        # Written offline: kept and shown as waiting, sent when the connection is back.
        page.get_by_label("Your question").fill("when is the next flight to doha?")
        page.keyboard.press("Enter")
        expect(page.locator(".msg.user.pending")).to_have_count(1)
    finally:
        page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator(".msg.user.pending")).to_have_count(0, timeout=REPLY_TIMEOUT_MS)
