"""The web chat on an organisation's own site, on a plain `make run` told that site's origin.

A Dari reader on the phone opens the page of an organisation helping evacuees (another address
than the assistant's, under a strict Content-Security-Policy), which carries the one tag
``<script src=".../webchat/embed.js" async>``. A button «کمک» sits at the bottom left (the page
reads right to left); tapped, the chat fills the screen in Dari, greeting first. The person asks
whether Abbey Gate is open and is answered in Dari about Abbey Gate, right to left; «بستن»
closes the chat and gives the page back.

On the organisation's page, whose tag names it (``data-organisation``), a person who asks for
someone is answered by that organisation's caseworkers, even while another organisation would
answer sooner.

The same page copied onto a site the assistant was not told of (another address, not in
``WEBCHAT_ORIGINS``) still shows the button, but the chat it opens stays empty: the browser
refuses to show the assistant's page there (its ``frame-ancestors``), so nobody can pass the
chat off as their own; «بستن» still gives the page back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from tests.integration.host_site import HostSite, ngo_page, strict_policy
from tests.journeys.conftest import MODEL, PHONE, SCREENSHOTS, Phone, Running, start_running

REPLY_MS = 30_000
ANSWER = ".msg.bot:not(.welcome)"
#: The organisation's own look: its styles are its page's, never the chat's.
NGO_CSS = "body { margin: 0 1rem; font: 17px/1.7 Tahoma, sans-serif; color: #222; }\n"
#: Long enough for the chat's page to be in its frame, were the browser to show it there.
SHOWN_BY_NOW_MS = 2_000


@pytest.fixture(scope="module")
def site() -> Iterator[HostSite]:
    """The organisation's site on 127.0.0.2, its page filled in once the assistant runs."""
    started = HostSite("127.0.0.2", stylesheet=NGO_CSS).start()
    yield started
    started.stop()


@pytest.fixture(scope="module")
def unlisted() -> Iterator[HostSite]:
    """The same page on 127.0.0.3, a site ``WEBCHAT_ORIGINS`` does not name."""
    started = HostSite("127.0.0.3", stylesheet=NGO_CSS).start()
    yield started
    started.stop()


@pytest.fixture(scope="module")
def running(
    site: HostSite, unlisted: HostSite, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    """`make run`'s stack with the organisation's site, and only it, in ``WEBCHAT_ORIGINS``."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    started = start_running(
        tmp_path_factory.mktemp("make-run-embed"), {"WEBCHAT_ORIGINS": site.origin}
    )
    for each in (site, unlisted):
        each.page = ngo_page(started.stack.rasa_url)
        each.policy = strict_policy(started.stack.rasa_url)
    try:
        yield started
    finally:
        started.stack.stop()


def test_a_dari_reader_asks_about_abbey_gate_from_an_organisations_page(
    running: Running, site: HostSite, phone: Phone
) -> None:
    page = phone(locale="fa-AF")
    page.goto(f"{site.origin}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("شبکه کمک کابل")
    button = page.get_by_role("button", name="کمک")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None and box["x"] < PHONE["width"] / 2  # bottom left: a Dari page

    button.tap()
    chat = page.frame_locator("#evacuee-webchat iframe")
    expect(chat.locator(".msg.welcome").first).to_be_visible(timeout=REPLY_MS)
    expect(chat.locator("html")).to_have_attribute("lang", "fa-AF")
    expect(chat.locator("html")).to_have_attribute("dir", "rtl")
    chat.get_by_label("سوال شما").fill("دروازه ابی باز است؟")
    chat.get_by_label("سوال شما").press("Enter")
    answer = chat.locator(ANSWER, has_text="ابی").first  # Abbey Gate, in Dari
    expect(answer).to_be_visible(timeout=REPLY_MS)
    assert (answer.get_attribute("lang"), answer.get_attribute("dir")) == ("fa-AF", "rtl")
    frame = page.locator("#evacuee-webchat iframe").bounding_box()
    assert frame is not None and frame["width"] == PHONE["width"]  # the whole screen
    # What the person sees: the screen, not the whole page the chat covers.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "embed-prs.png"))

    page.get_by_role("button", name="بستن").tap()
    expect(page.locator("#evacuee-webchat")).to_be_hidden()
    expect(button).to_be_visible()
    assert page.evaluate("getComputedStyle(document.body).overflowY") != "hidden"


def test_the_organisations_page_hands_a_person_to_its_own_caseworkers(
    running: Running, site: HostSite, phone: Phone
) -> None:
    """UNHCR answers people too, round the clock within 5 minutes; Kabul Aid Network within 20.
    Its page names it: its caseworkers get the person, though UNHCR would answer sooner."""
    for slug, wait in (("unhcr", "5"), ("kabul-aid-network", "20")):
        running.cli(
            "actions.content",
            *("publish", "organisation", slug, "--case-hours", "00:00-00:00"),
            *("--case-wait-minutes", wait, "--editor", "amina"),
        )
    site.page = ngo_page(running.stack.rasa_url, tag=' data-organisation="kabul-aid-network"')
    page = phone(locale="fa-AF")
    page.goto(f"{site.origin}/")
    page.get_by_role("button", name="کمک").tap()
    chat = page.frame_locator("#evacuee-webchat iframe")
    expect(chat.locator(".msg.welcome").first).to_be_visible(timeout=REPLY_MS)
    chat.get_by_label("سوال شما").fill("میخواهم با یک انسان صحبت کنم")
    chat.get_by_label("سوال شما").press("Enter")
    told = chat.locator(ANSWER, has_text="شبکهٔ کمک‌رسانی کابل").first
    expect(told).to_be_visible(timeout=REPLY_MS)
    expect(told).to_contain_text("۲۰ دقیقه")
    expect(chat.locator(".msg.user.pending")).to_have_count(0, timeout=REPLY_MS)
    told.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "embed-own-caseworkers-prs.png"))
    with sqlite3.connect(running.db_url.removeprefix("sqlite:///")) as db:
        answering = db.execute(
            "SELECT o.slug FROM cases c JOIN organisations o ON o.id = c.organisation_id"
        ).fetchall()
    assert answering == [("kabul-aid-network",)]


def console_errors(page: Page) -> list[str]:
    """What the browser reports on its console as errors, as they come."""
    errors: list[str] = []

    def keep(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", keep)
    return errors


def test_the_same_page_on_a_site_the_assistant_does_not_name_opens_an_empty_chat(
    running: Running, unlisted: HostSite, phone: Phone
) -> None:
    page = phone(locale="fa-AF")
    errors = console_errors(page)
    page.goto(f"{unlisted.origin}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("شبکه کمک کابل")
    button = page.get_by_role("button", name="کمک")
    expect(button).to_be_visible()  # embed.js is served to every site

    button.tap()
    expect(page.locator("#evacuee-webchat iframe")).to_be_visible()
    # The browser says why: the assistant's page names the sites that may show it.
    for _ in range(REPLY_MS // 100):
        if any("frame-ancestors" in error for error in errors):
            break
        page.wait_for_timeout(100)
    assert any("frame-ancestors" in error for error in errors), errors
    page.wait_for_timeout(SHOWN_BY_NOW_MS)
    chat = page.frame_locator("#evacuee-webchat iframe")
    expect(chat.get_by_label("سوال شما")).to_have_count(0)  # nowhere to ask
    expect(chat.locator(".msg")).to_have_count(0)  # no greeting, nothing from the assistant
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "embed-refused-prs.png"))

    page.get_by_role("button", name="بستن").tap()
    expect(page.locator("#evacuee-webchat")).to_be_hidden()
    expect(button).to_be_visible()
