"""Three things a person notices on the web chat, in Debian's Chromium on a phone (360 px)
against the whole stack, started with `make run`'s demo settings (``demo_ways_in``):

* a phone number in a right-to-left reply stays whole, on one line, and reads left to right;
* a browser without JavaScript is told a number to call;
* the page's own words (title, question box) do not change language with every message of a
  person who writes Dari and Pashto in Latin letters; they change when the conversation has.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from scripts.stack import ROOT, WAYS_IN_ENV, Stack, demo_ways_in, embedded_stack
from tests.integration import test_widget
from tests.integration.conftest import MODEL, running_stack
from tests.integration.test_widget import REPLY, REPLY_TIMEOUT_MS

pytestmark = pytest.mark.integration

#: The widget tests' Chromium at 360 px, each test with storage of its own.
browser = test_widget.browser
page = test_widget.page

PHONE = {"width": 360, "height": 740}
ICRC = "+93 700 000 121"
#: Where the page's words are, and what they say in each language.
TITLES = {"en": "Evacuation information", "prs": "معلومات تخلیه", "ps": "د وېستلو معلومات"}
PLACEHOLDERS = {"en": "Type your question", "prs": "سوال خود را بنویسید", "ps": "خپله پوښتنه ولیکئ"}
TAGS = {"en": "en", "prs": "fa-AF", "ps": "ps-AF"}
#: A romanized writer's five messages, in this order (a usability review's).
ROMANIZED = [
    "salam",
    "parwaz ba doha chi waqt ast",
    "darwaza abbey khlasa da?",
    "sabah?",
    "flight ba germany",
]
ARABIC_SCRIPT = re.compile("[\u0600-\u06ff]")
#: Each group of a phone number element: where it is on the screen, and the element's lines.
NUMBER_LAYOUT_JS = """(element) => {
  const node = document.createTreeWalker(element, NodeFilter.SHOW_TEXT).nextNode();
  const boxes = [];
  let at = 0;
  for (const group of node.data.split(" ")) {
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + group.length);
    const box = range.getBoundingClientRect();
    boxes.push([box.left, box.top]);
    at += group.length + 1;
  }
  const link = element.querySelector("a");
  return {
    lines: element.getClientRects().length,
    text: element.textContent,
    boxes: boxes,
    href: link ? link.getAttribute("href") : null,
  };
}"""


@pytest.fixture(scope="module")
def stack(content_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Rasa and the action server with what `make run` adds when the operator names no way in:
    the demo content's day-and-night line as ``EMERGENCY_HOTLINE``."""
    demo = demo_ways_in({})
    with running_stack(
        content_db_url, tmp_path_factory, "leftover-logs", extra_env=demo
    ) as running:
        yield running


# -- phone numbers in right-to-left replies ---------------------------------------------------


def assert_whole_and_in_order(layout: dict[str, Any], number: str) -> None:
    """One line box, the number's own text, its groups left to right along one line."""
    assert layout["text"] == number, layout
    assert layout["lines"] == 1, f"{number} is broken over {layout['lines']} lines"
    lefts = [left for left, _ in layout["boxes"]]
    tops = {round(top) for _, top in layout["boxes"]}
    assert lefts == sorted(lefts) and len(tops) == 1, f"{number} reads out of order: {layout}"


def dari_replies_with_the_number() -> list[dict[str, str]]:
    """The number after ever more words, so that in some bubble it falls at a line's end: after
    a Latin name (where it used to wrap) and right after Dari words (where it used to be shown
    as "121 000 700 93+"), bare and in the isolate the server puts around it."""
    words = re.split(" ", "این‌ها شبانه‌روزی جواب می‌دهند و در پیدا کردن اعضای فامیل کمک می‌کنند")
    replies = []
    for count in range(len(words) + 1):
        before = " ".join(words[:count])
        for number in (f"ICRC {ICRC}", ICRC, f"\u2068{ICRC}\u2069"):
            replies.append({"text": f"{before}: {number}", "language": "prs"})
    return replies


def test_a_phone_number_in_a_dari_reply_stays_whole_and_left_to_right(
    page: Page, stack: Stack
) -> None:
    replies = dari_replies_with_the_number()
    page.route(
        "**/webhook",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(replies)
        ),
    )
    page.goto(f"{stack.rasa_url}/webchat/")
    page.get_by_label("Your question").fill("شماره صلیب سرخ")
    page.keyboard.press("Enter")
    expect(page.locator(REPLY)).to_have_count(len(replies), timeout=REPLY_TIMEOUT_MS)
    for index in range(len(replies)):
        bubble = page.locator(REPLY).nth(index)
        assert bubble.evaluate("el => getComputedStyle(el).direction") == "rtl"
        number = bubble.locator(".number")
        expect(number).to_have_count(1)
        layout = number.evaluate(NUMBER_LAYOUT_JS)
        assert_whole_and_in_order(layout, ICRC)
        assert layout["href"] == "tel:+93700000121"  # one tap to call, from its digits alone
        assert "\u2068" not in bubble.inner_text()  # the element isolates it: no stray marks
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_numbers_of_a_real_dari_answer_read_whole_and_can_be_called(
    page: Page, stack: Stack
) -> None:
    """The answer to "who can help?" in Dari: the demo content's contacts, with their numbers."""
    page.goto(f"{stack.rasa_url}/webchat/")
    page.get_by_label("Your question").fill("کی کمک می‌کند؟")
    page.keyboard.press("Enter")
    expect(page.locator(REPLY, has_text=ICRC).first).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    numbers = page.locator(f"{REPLY}[lang='fa-AF'] .number")
    assert numbers.count() >= 8
    for index in range(numbers.count()):
        layout = numbers.nth(index).evaluate(NUMBER_LAYOUT_JS)
        assert re.fullmatch(r"\+93 700 000 1\d\d", layout["text"]), layout
        assert_whole_and_in_order(layout, layout["text"])
        assert layout["href"] == "tel:" + layout["text"].replace(" ", "")


# -- the page without JavaScript ----------------------------------------------------------------


def test_without_javascript_the_demo_names_a_number_to_call(browser: Browser, stack: Stack) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        shown = context.new_page()
        shown.goto(f"{stack.rasa_url}/webchat/")
        for tag, call in (("en", "call"), ("fa-AF", "زنگ بزنید"), ("ps-AF", "زنګ ووهئ")):
            paragraph = shown.locator(f".no-script p[lang='{tag}']")
            expect(paragraph).to_be_visible()
            expect(paragraph).to_contain_text(call)
            expect(paragraph.locator("bdi")).to_have_text(f"{ICRC} (ICRC)")
    finally:
        context.close()


def test_make_run_gives_the_demo_line_only_to_the_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every server of `make run` gets it when nothing is set; a way in the operator names,
    or a production deployment, gets none of the demo's."""
    for name in WAYS_IN_ENV:
        monkeypatch.delenv(name, raising=False)
    var = tmp_path / "var"
    demo, _ = embedded_stack(MODEL, "sqlite://", log_dir=tmp_path / "log", var_dir=var)
    assert demo._env()["EMERGENCY_HOTLINE"] == demo._env(**demo.rasa_env)["EMERGENCY_HOTLINE"]
    assert demo._env()["EMERGENCY_HOTLINE"] == f"{ICRC} (ICRC)"
    told, _ = embedded_stack(
        MODEL,
        "sqlite://",
        log_dir=tmp_path / "log",
        var_dir=var,
        extra_env={"WEBCHAT_TELEGRAM": "@evacuee_info_bot"},
    )
    assert "EMERGENCY_HOTLINE" not in told._env()
    production, _ = embedded_stack(
        MODEL,
        "sqlite://",
        log_dir=tmp_path / "log",
        var_dir=var,
        endpoints=ROOT / "endpoints.production.yml",
    )
    assert "EMERGENCY_HOTLINE" not in production._env()


# -- the page's language ------------------------------------------------------------------------


def chrome(page: Page) -> str:
    """The language the page's own words are in, checked to be one language throughout."""
    code = page.evaluate("document.documentElement.lang")
    [language] = [name for name, tag in TAGS.items() if tag == code]
    expect(page).to_have_title(TITLES[language])
    expect(page.locator("#title")).to_have_text(TITLES[language])
    expect(page.locator("#input")).to_have_attribute("placeholder", PLACEHOLDERS[language])
    return language


def write(page: Page, text: str) -> str | None:
    """Send ``text``; the language the server's replies to it name (the last one that does)."""
    with page.expect_response(
        lambda answer: answer.url.endswith("/webhook") and answer.request.method == "POST",
        timeout=REPLY_TIMEOUT_MS,
    ) as answered:
        page.locator("#input").fill(text)
        page.keyboard.press("Enter")
    expect(page.locator(".msg.user.pending")).to_have_count(0, timeout=REPLY_TIMEOUT_MS)
    said = [reply.get("language") for reply in answered.value.json() if reply.get("language")]
    return said[-1] if said else None


def following(start: str, turns: list[tuple[str, str | None]]) -> list[str]:
    """The page's language after each (message, language of its answer) by the rule of
    widget.js's header: two answers in a row in another language, or at once an English page
    answered in Dari or Pashto for a message in Arabic script."""
    shown, streak, count, languages = start, None, 0, []
    for asked, said in turns:
        if said == shown:
            streak, count = None, 0
        elif said is not None:
            count = count + 1 if said == streak else 1
            streak = said
            if count >= 2 or (shown == "en" and ARABIC_SCRIPT.search(asked)):
                shown, streak, count = said, None, 0
        languages.append(shown)
    return languages


def test_a_romanized_writers_page_changes_language_once_the_conversation_has(
    page: Page, stack: Stack
) -> None:
    page.goto(f"{stack.rasa_url}/webchat/")
    assert chrome(page) == "en"
    turns, shown = [], []
    for text in ROMANIZED:
        turns.append((text, write(page, text)))
        shown.append(chrome(page))
    assert shown == following("en", turns), turns
    changes = [
        after for before, after in zip(["en", *shown], shown, strict=False) if before != after
    ]
    assert len(changes) <= 1, f"the page changed language to {changes}: {shown} for {turns}"


def test_one_reply_in_another_language_does_not_move_the_page_two_in_a_row_do(
    page: Page, stack: Stack
) -> None:
    """The review's sequence of answers, English, Dari, Pashto, Dari, English: the page stays
    English; then two Dari answers in a row: the conversation is in Dari, and so is the page."""
    answers = iter(["en", "prs", "ps", "prs", "en", "prs", "prs"])

    def answer(route: Route) -> None:
        language = next(answers)
        reply = {"text": f"{TITLES[language]}.", "language": language}
        route.fulfill(status=200, content_type="application/json", body=json.dumps([reply]))

    page.route("**/webhook", answer)
    page.goto(f"{stack.rasa_url}/webchat/")
    shown = []
    for text in [*ROMANIZED, "kabul", "parwaz"]:
        write(page, text)
        shown.append(chrome(page))
    assert shown == ["en"] * 6 + ["prs"]


def test_a_language_chosen_with_the_buttons_stays_whatever_the_person_writes(
    page: Page, stack: Stack
) -> None:
    page.goto(f"{stack.rasa_url}/webchat/")
    page.locator(".langs").get_by_role("button", name="دری").click()
    assert chrome(page) == "prs"  # at once
    expect(page.locator(REPLY).first).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    expect(page.locator(".msg.user.pending")).to_have_count(0, timeout=REPLY_TIMEOUT_MS)
    for text in ROMANIZED:
        write(page, text)
        assert chrome(page) == "prs", text
    expect(page.locator(".langs").get_by_role("button", name="دری")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.reload()  # kept on the phone
    assert chrome(page) == "prs"
