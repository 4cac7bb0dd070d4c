"""A Dari mother in the web chat and a caseworker in the console, on `make run`'s stack with no
extra environment: she asks for a person and writes her problem; the caseworker takes the
case on her phone and answers in Dari; the answer appears in the mother's chat; the case is
closed, and opened again it reads "closed" and, beside the answer, "delivered".

Nothing is set for the keys: the stack makes them itself, as a plain `make run` does.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.journeys.conftest import Phone, Running, screenshot

ASK_FOR_A_PERSON = "میخواهم با یک انسان صحبت کنم"
PROBLEM = "پسر ۸ ساله‌ام دیروز پیش دروازه ابی گم شد. کمک کنید"
REPLY = "سلام، من فریده هستم. نام و عمر پسر تان را برایم بنویسید."
#: A turn of the assistant (the model answers in well under this on a busy machine).
TURN_MS = 30_000
#: The notifier polls and Rasa hands the reply to the page's mailbox, which the page fetches
#: every few seconds: about 6 s measured; generous for a machine shared with other work.
REPLY_ARRIVES_MS = 45_000


def ask_for_a_person(person: Page, running: Running) -> None:
    person.goto(f"{running.stack.rasa_url}/webchat/")
    person.get_by_role("textbox").fill(ASK_FOR_A_PERSON)
    person.keyboard.press("Enter")
    expect(person.locator(".msg.bot", has_text="کارمند").first).to_be_visible(timeout=TURN_MS)
    expect(person.locator(".msg.user.pending")).to_have_count(0, timeout=TURN_MS)
    person.get_by_role("textbox").fill(PROBLEM)
    person.keyboard.press("Enter")
    expect(person.locator(".msg.user.pending")).to_have_count(0, timeout=TURN_MS)


def sign_in_in_dari(caseworker: Page, running: Running) -> None:
    link = running.invite("farida", "caseworker")
    # The link names make run's console port (5056); this stack's console is on a free one.
    caseworker.goto(running.stack.admin_url + link[link.index("/console/") :] + "&lang=prs")
    caseworker.get_by_role("button", name="ورود").click()
    expect(caseworker.get_by_role("heading", level=1)).to_contain_text("قضیه‌های باز")


def test_a_caseworkers_dari_reply_reaches_the_web_chat_and_the_closed_case_says_delivered(
    running: Running, phone: Phone
) -> None:
    running.cli(
        "actions.content",
        *("publish", "organisation", "kabul-aid-network"),
        *("--case-hours", "00:00-00:00", "--editor", "amina"),
    )
    person = phone(locale="fa-AF")
    ask_for_a_person(person, running)

    caseworker = phone(locale="fa-AF")
    sign_in_in_dari(caseworker, running)
    case = caseworker.locator("li.case", has_text=PROBLEM)
    expect(case).to_have_count(1)
    case.get_by_role("link").click()
    found = re.search(r"/console/cases/(\d+)$", caseworker.url)
    assert found is not None, caseworker.url
    case_page = caseworker.url
    caseworker.get_by_role("button", name="این قضیه را بگیرید").click()
    caseworker.get_by_label("جواب شما").fill(REPLY)
    caseworker.get_by_role("button", name="بفرستید", exact=True).click()
    expect(caseworker.get_by_role("status")).to_have_text("جواب شما به طرف شخص در راه است.")

    arrived = person.locator(".msg.bot", has_text=REPLY)
    expect(arrived).to_have_count(1, timeout=REPLY_ARRIVES_MS)
    assert arrived.get_attribute("dir") == "rtl"
    expect(arrived).to_contain_text("پیام کارمند شما")
    screenshot(person, "caseworker-reply-in-dari-web-chat")

    caseworker.reload()
    expect(caseworker.locator("li.line.caseworker")).to_contain_text("رسید")
    caseworker.get_by_role("button", name="ختم: گفتگو را به دستیار بسپارید").click()
    expect(caseworker.get_by_role("status")).to_contain_text("ختم شد")

    caseworker.goto(case_page)  # the closed case, opened again
    expect(caseworker.get_by_role("heading", level=1)).to_contain_text("قضیهٔ")
    expect(caseworker.locator("main")).to_contain_text("ختم شده")
    expect(caseworker.locator("main")).to_contain_text("خوانده می‌توانید")
    line = caseworker.locator("li.line.caseworker")
    expect(line).to_contain_text(REPLY)
    expect(line).to_contain_text("رسید")
    expect(line).not_to_contain_text("نرسید")
    for action in ("take", "reply", "close"):
        assert caseworker.locator(f"form[action$='/{action}']").count() == 0  # read-only
    assert caseworker.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(caseworker, "caseworker-closed-case-delivered-prs")
