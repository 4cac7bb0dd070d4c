"""What people ask that we cannot answer, end to end: five people write the same question the
assistant cannot answer, each with their phone number, through the real Rasa (REST channel,
``scripts/stack.py``), over more than six hours; an editor then sees the question on
``/console/questions`` in Pashto, right to left on a 360-px phone, masked — not one digit of
the numbers they typed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy.orm import Session

from scripts.stack import Stack
from tests.integration.conftest import Say
from tests.integration.test_console_browser import (  # noqa: F401  (fixtures)
    AXE,
    AXE_RUN,
    PHONE,
    Console,
    browser,
    fits_the_phone,
    page,
    screenshot,
    serving_console,
    sign_in,
)

pytestmark = pytest.mark.integration

#: "How do I feed my cat? My number is …": nothing the assistant knows about.
QUESTION = "زما پیشو ته څه خواړه ورکړم؟ زما شمېره {} ده"
NUMBERS = ("۰۷۹۹۱۲۳۴۵۶", "0700 555 321", "٠٧٨٨٩٩٩٨٨٧", "+93 70 111 2233", "0093788445566")
MASKED = "زما پیشو ته څه خواړه ورکړم زما شمېره [ټیلیفون شمېره] ده"


@pytest.fixture(scope="module")
def console(
    stack: Stack, content_db_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Console]:
    """The console over the database the running assistant writes to."""
    with serving_console(tmp_path_factory.mktemp("questions"), content_db_url) as serving:
        yield serving


def earlier(console: Console, hours: int) -> None:
    """Moves every unanswered message stored so far ``hours`` back, as if sent then."""
    from sqlalchemy import select

    from actions.content import db
    from actions.questions.models import UnansweredQuestion

    engine = db.create_content_engine(console.db_url)
    try:
        with Session(engine) as session, session.begin():
            for message in session.scalars(select(UnansweredQuestion)):
                message.asked_at -= timedelta(hours=hours)
    finally:
        engine.dispose()


def test_an_editor_sees_a_question_five_people_asked_masked_in_pashto(
    say: Say,
    page: Page,  # noqa: F811  (the fixture imported above)
    console: Console,
) -> None:
    for person, number in enumerate(NUMBERS[:4]):
        assert say(f"questions-{person}", QUESTION.format(number))  # answered, with an apology
    sign_in(page, console)
    page.goto(f"{console.url}/console/questions?lang=ps")
    expect(page.locator("ol.asked")).to_have_count(0)  # four conversations: not shown yet

    assert say("questions-4", QUESTION.format(NUMBERS[4]))
    page.reload()  # five, but within minutes on one channel: one person's windows, maybe
    expect(page.locator("ol.asked")).to_have_count(0)

    earlier(console, 7)
    assert say("questions-5", QUESTION.format(NUMBERS[0]))
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("خلک څه پوښتي")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    asked = page.locator("ol.asked li")
    expect(asked).to_have_count(1)
    expect(asked.first).to_contain_text(MASKED)
    expect(asked.first).to_contain_text("۶ خبرې اترې، ۶ ځله")
    text = page.locator("body").inner_text()
    digits = re.sub(r"\D", "", "".join(NUMBERS))
    runs = {digits[i : i + 3] for i in range(len(digits) - 2)}
    folded = {run.translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")) for run in runs}
    leaked = [run for run in runs | folded if run in text]
    assert leaked == [], f"digits of a typed phone number on the page: {leaked}"
    fits_the_phone(page)
    assert page.viewport_size == PHONE
    screenshot(page, "console-questions-ps.png")


def a_busy_week(console: Console) -> None:
    """Counts of every facet and two frequent messages, straight into the database."""
    from actions.content import db
    from actions.questions.models import QuestionCount, UnansweredQuestion
    from kernel.question_mask import wording

    engine = db.create_content_engine(console.db_url)
    hour = datetime.now(timezone.utc).replace(minute=0, second=0, microsecond=0)
    facets = {
        "intent": ("ask_flights", "nlu_fallback", "out_of_scope", "ask_help"),
        "language": ("prs-Arab", "ps-Arab", "ps-Latn", "en-Latn"),
        "channel": ("whatsapp", "telegram", "sms_gateway"),
    }
    try:
        with Session(engine) as session, session.begin():
            for back in range(0, 48, 5):
                for facet, values in facets.items():
                    for n, value in enumerate(values, 1):
                        at = hour - timedelta(hours=back)
                        session.merge(QuestionCount(hour=at, facet=facet, value=value, turns=n))
            for text in ("visa [number] rejected what now", "د [name] کمپ چېرته دی"):
                for conversation in range(5):
                    session.add(
                        UnansweredQuestion(
                            asked_at=hour,
                            conversation_tag=conversation,
                            wording=wording(text),
                            intent="nlu_fallback",
                            language="ps",
                            script="Arab",
                            channel=("telegram", "whatsapp")[conversation % 2],
                            text=text,
                        )
                    )
    finally:
        engine.dispose()


def test_no_serious_accessibility_violations_on_the_questions_page(
    browser: Browser,  # noqa: F811  (the fixture imported above)
    console: Console,
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make axe-core` (make test-integration does)")
    a_busy_week(console)
    context = browser.new_context(viewport=PHONE, bypass_csp=True)  # for axe's script only
    tab = context.new_page()
    found: dict[str, list[str]] = {}
    try:
        tab.goto(console.invite("amina"))
        tab.get_by_role("button", name="Sign in").click()
        for lang in ("en", "prs", "ps"):
            tab.goto(f"{console.url}/console/questions?lang={lang}")
            expect(tab.locator("table.tally").first).to_be_visible()
            fits_the_phone(tab)
            tab.add_script_tag(path=str(AXE))
            found[lang] = tab.evaluate(AXE_RUN)
    finally:
        context.close()
    assert {lang: v for lang, v in found.items() if v} == {}
