"""The web chat on an organisation's own page (``/webchat/embed.js``), in a real browser against
the whole stack: the page is served from another origin (127.0.0.2) under a strict
Content-Security-Policy and a stylesheet that spoils every element it reaches; the assistant
names that origin in ``WEBCHAT_ORIGINS``. A site it does not name (127.0.0.3) gets the button
and an empty frame.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    FrameLocator,
    Locator,
    Page,
    ViewportSize,
    expect,
)

from scripts.stack import Stack
from tests.integration import test_widget
from tests.integration.conftest import running_stack
from tests.integration.host_site import HostSite, ngo_page, strict_policy
from tests.integration.test_console_browser import AXE, AXE_RUN
from tests.integration.test_widget import PASHTO_ONLY, REPLY, REPLY_TIMEOUT_MS
from tests.screenshots import for_docs

pytestmark = pytest.mark.integration

#: The widget tests' Chromium.
browser = test_widget.browser
PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
QUESTION = "دروازه ابی باز است؟"
#: Collects, in every frame, what a Content-Security-Policy refused.
WATCH_POLICY = """window.refused = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.refused.push(e.violatedDirective + " " + e.blockedURI);
});"""


@dataclass
class Sites:
    """The organisation's site the assistant lets show the chat, and one it does not."""

    allowed: HostSite
    other: HostSite


@pytest.fixture(scope="module")
def sites() -> Iterator[Sites]:
    """Both sites started first: the assistant is started naming the first one's origin, and
    the pages are filled in once the assistant's address is known."""
    started = Sites(HostSite("127.0.0.2").start(), HostSite("127.0.0.3").start())
    yield started
    started.allowed.stop()
    started.other.stop()


@pytest.fixture(scope="module")
def stack(
    sites: Sites, content_db_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    """Rasa and the action server, with the organisation's origin in ``WEBCHAT_ORIGINS``."""
    allowed = {"WEBCHAT_ORIGINS": sites.allowed.origin}
    with running_stack(
        content_db_url, tmp_path_factory, "embed-logs", extra_env=allowed
    ) as running:
        for site in (sites.allowed, sites.other):
            site.page = ngo_page(running.rasa_url)
            site.policy = strict_policy(running.rasa_url)
        yield running


@dataclass
class Visit:
    """The organisation's page in a browser, and what it reported."""

    page: Page
    errors: list[str]

    @property
    def launcher(self) -> Locator:
        """The button (out of sight, and of the accessibility tree, under a full-screen chat)."""
        return self.page.locator("#evacuee-webchat-open")

    @property
    def chat(self) -> FrameLocator:
        return self.page.frame_locator("#evacuee-webchat iframe")

    def refused(self) -> list[str]:
        """What a policy refused, on the page and in every frame of it."""
        found: list[str] = []
        for frame in self.page.frames:
            try:
                found += frame.evaluate("window.refused || []")
            except Exception:  # an error page has no script to ask
                found.append(f"(no script in {frame.url})")
        return found


def visit(browser: Browser, url: str, viewport: ViewportSize, bypass_csp: bool = False) -> Visit:
    """A new browser (storage of its own) on ``url``, watching what the policies refuse."""
    context = browser.new_context(viewport=viewport, locale="fa-AF", bypass_csp=bypass_csp)
    context.add_init_script(WATCH_POLICY)
    page = context.new_page()
    errors: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return Visit(page, errors)


def ask(visit: Visit, text: str, about: str) -> Locator:
    """Type ``text`` in the chat, send it, and return the reply that names ``about``."""
    visit.chat.get_by_label("سوال شما").fill(text)
    visit.chat.get_by_label("سوال شما").press("Enter")
    reply = visit.chat.locator(REPLY, has_text=about).first
    expect(reply).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    return reply


def overflow(page: Page) -> list[str]:
    return page.evaluate(
        "[document.documentElement, document.body].map((e) => getComputedStyle(e).overflowY)"
    )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_dari_site_opens_the_chat_over_its_page_and_a_dari_question_is_answered(
    browser: Browser, stack: Stack, sites: Sites, viewport: ViewportSize
) -> None:
    visit_ = visit(browser, f"{sites.allowed.origin}/", viewport)
    page = visit_.page
    launcher = visit_.launcher
    expect(page.get_by_role("button", name="کمک")).to_be_visible()  # its accessible name
    # Nothing of the chat is loaded before the button is tapped: embed.js alone.
    loaded = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
    assert [name for name in loaded if name.startswith(stack.rasa_url)] == [
        f"{stack.rasa_url}/webchat/embed.js"
    ]
    assert page.locator("iframe").count() == 0
    # On the reading side of a right-to-left page: the left, in its own look and size.
    box = launcher.bounding_box()
    assert box is not None and box["x"] < 40 and box["y"] > viewport["height"] - 100
    assert launcher.evaluate("(e) => getComputedStyle(e).fontSize") == "16px"
    assert launcher.evaluate("(e) => getComputedStyle(e).color") == "rgb(255, 255, 255)"
    assert launcher.get_attribute("lang") == "fa-AF"
    expect(launcher).to_have_attribute("aria-expanded", "false")
    before = overflow(page)

    launcher.click()
    expect(launcher).to_have_attribute("aria-expanded", "true")
    frame = page.locator("#evacuee-webchat iframe")
    expect(frame).to_be_visible()
    expect(frame).to_have_attribute("title", "معلومات تخلیه")
    assert "lang=prs" in (frame.get_attribute("src") or "")
    # The focus is in the chat, on its question box.
    expect(visit_.chat.get_by_label("سوال شما")).to_be_focused(timeout=REPLY_TIMEOUT_MS)
    assert page.evaluate("document.activeElement.tagName") == "IFRAME"
    expect(visit_.chat.locator("html")).to_have_attribute("lang", "fa-AF")

    reply = ask(visit_, QUESTION, about="ابی")  # Abbey Gate, in Dari
    assert reply.get_attribute("lang") == "fa-AF", reply.inner_text()
    assert not set(reply.inner_text()) & PASHTO_ONLY
    # The site's "* { font-size: 31px }" does not reach the chat.
    assert reply.evaluate("(e) => getComputedStyle(e).fontSize") == "16px"
    assert reply.evaluate("(e) => getComputedStyle(e).fontFamily") != "serif"

    panel = frame.bounding_box()
    if viewport == PHONE:
        expect(launcher).to_be_hidden()  # under the chat: out of reach too
        assert panel is not None and panel["width"] == PHONE["width"]
        assert panel["y"] + panel["height"] >= PHONE["height"] - 1
        assert overflow(page) == ["hidden", "hidden"]  # the page behind does not scroll
        page.screenshot(path=str(for_docs("webchat-embed-prs.png")))
    else:
        assert panel is not None and panel["width"] < 400 and panel["x"] < 40  # on the left
        assert overflow(page) == before
        expect(launcher).to_be_visible()

    # Escape, in the chat, closes it: focus back on the button, the page as it was.
    visit_.chat.get_by_label("سوال شما").press("Escape")
    expect(page.locator("#evacuee-webchat")).to_be_hidden()
    expect(launcher).to_be_focused()
    expect(launcher).to_have_attribute("aria-expanded", "false")
    assert overflow(page) == before
    # Opened again: the same conversation, not a new page.
    launcher.click()
    expect(visit_.chat.locator(".msg.user")).to_have_text([QUESTION])
    expect(visit_.chat.get_by_label("سوال شما")).to_be_focused()

    assert visit_.refused() == [], "a Content-Security-Policy refused something"
    assert visit_.errors == []
    page.context.close()


def test_the_sites_own_words_and_side_win(browser: Browser, stack: Stack, sites: Sites) -> None:
    sites.allowed.page = ngo_page(
        stack.rasa_url,
        lang="en",
        direction="ltr",
        tag=' data-lang="ps" data-side="left" data-label="پوښتنه" data-organisation="kabul-aid"',
    )
    try:
        visit_ = visit(browser, f"{sites.allowed.origin}/", PHONE)
        launcher = visit_.page.get_by_role("button", name="پوښتنه")
        box = launcher.bounding_box()
        assert box is not None and box["x"] < 40  # left, on a left-to-right page: as asked
        launcher.click()
        src = visit_.page.locator("#evacuee-webchat iframe").get_attribute("src") or ""
        assert "lang=ps" in src and "organisation=kabul-aid" in src
        expect(visit_.chat.locator("html")).to_have_attribute("lang", "ps-AF")
        visit_.page.get_by_role("button", name="بندول ✕").click()
        expect(launcher).to_be_focused()
        assert visit_.refused() == [] and visit_.errors == []
        visit_.page.context.close()
    finally:
        sites.allowed.page = ngo_page(stack.rasa_url)


def test_a_site_the_assistant_does_not_name_gets_an_empty_frame(
    browser: Browser, stack: Stack, sites: Sites
) -> None:
    visit_ = visit(browser, f"{sites.other.origin}/", PHONE)
    expect(visit_.launcher).to_be_visible()  # embed.js is served to every site
    visit_.launcher.click()
    expect(visit_.page.locator("#evacuee-webchat iframe")).to_be_visible()
    # The browser says why: the chat's page names other ancestors.
    deadline = REPLY_TIMEOUT_MS // 100
    while not any("frame-ancestors" in e for e in visit_.errors) and deadline:
        visit_.page.wait_for_timeout(100)
        deadline -= 1
    assert any("frame-ancestors" in error for error in visit_.errors), visit_.errors
    visit_.page.wait_for_timeout(2_000)  # the chat, were it shown, would be there by now
    assert len(visit_.page.frames) == 2
    assert visit_.chat.locator("#input").count() == 0
    visit_.page.context.close()


def test_no_serious_accessibility_violations_on_the_site_with_the_button(
    browser: Browser, stack: Stack, sites: Sites
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make axe-core` (make test-integration does)")
    # The site's policy forbids injected scripts: bypassed for axe only.
    visit_ = visit(browser, f"{sites.allowed.origin}/", PHONE, bypass_csp=True)
    page = visit_.page
    expect(visit_.launcher).to_be_visible()
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(AXE_RUN) == []
    visit_.launcher.click()
    expect(visit_.chat.get_by_label("سوال شما")).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    # The chat's own page is checked on its own (its frame is another origin's document).
    closed_frames = AXE_RUN.replace("axe.run(document, {", "axe.run(document, {iframes: false, ")
    assert page.evaluate(closed_frames) == []
    page.context.close()
