"""The web chat page in a real browser (Debian's Chromium driven by Playwright) against the
whole stack: Rasa with the webchat channel and the action server as real processes."""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect, sync_playwright

from scripts.stack import ROOT, Stack

pytestmark = pytest.mark.integration

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASHTO_ONLY = set("ټډړږښڼځڅېۍ")
ARABIC = set(chr(code) for code in range(0x0600, 0x0700))
REPLY_TIMEOUT_MS = 30_000
MAX_WIDGET_BYTES = 100 * 1024
WIDGET_FILES = {"", "widget.js", "widget.css"}  # "" is the page itself, /webchat/
DOCS_SCREENSHOT = ROOT / "docs" / "webchat.png"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium` (make test-integration does)")
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
    before = page.locator(".msg.bot").count()
    page.get_by_label("Your question").fill(text)
    page.keyboard.press("Enter")
    reply = page.locator(".msg.bot").nth(before)
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    return reply.inner_text()


def test_a_pashto_question_gets_a_pashto_answer_laid_out_right_to_left(
    page: Page, stack: Stack, tmp_path: Path
) -> None:
    page.goto(f"{stack.rasa_url}/webchat/")
    expect(page.get_by_role("log")).to_have_attribute("aria-live", "polite")
    answer = ask(page, "د کابل هوايي ډګر خلاص دی؟")
    assert set(answer) & PASHTO_ONLY, f"not Pashto: {answer!r}"
    reply = page.locator(".msg.bot").first
    assert reply.evaluate("el => getComputedStyle(el).direction") == "rtl"
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate("document.documentElement.lang") == "ps"
    # The page stays within a phone's width: nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    transferred = page.evaluate(
        """() => [...performance.getEntriesByType("navigation"),
                 ...performance.getEntriesByType("resource")]
              .filter(e => !e.name.endsWith("/webhook"))
              .map(e => [e.name, e.transferSize])"""
    )
    assert {name.rsplit("/", 1)[-1] for name, _ in transferred} == WIDGET_FILES, transferred
    assert all(size > 0 for _, size in transferred), transferred
    assert sum(size for _, size in transferred) < MAX_WIDGET_BYTES
    screenshot = tmp_path / "webchat-ps.png"
    page.screenshot(path=str(screenshot))
    if not DOCS_SCREENSHOT.exists():
        shutil.copyfile(screenshot, DOCS_SCREENSHOT)


def test_the_language_switcher_changes_the_layout_and_the_answers(page: Page, stack: Stack) -> None:
    page.goto(f"{stack.rasa_url}/webchat/")
    page.get_by_role("button", name="پښتو").click()
    reply = page.locator(".msg.bot").first
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    assert set(reply.inner_text()) & PASHTO_ONLY
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.get_by_role("button", name="پښتو")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("textbox")).to_be_focused()

    # The first turn also brings the safety offer: the answer to the click is the next message.
    expect(page.locator(".msg.bot")).to_have_count(2, timeout=REPLY_TIMEOUT_MS)
    before = page.locator(".msg.bot").count()
    page.get_by_role("button", name="English").click()
    reply = page.locator(".msg.bot").nth(before)
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
    reply = page.locator(".msg.bot").first
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    assert dropped and reply.inner_text().startswith("• Abbey Gate:")  # the gate asked about
    expect(page.get_by_role("status")).to_be_hidden()
    assert page.locator(".msg.user").count() == 1  # sent once, shown once
