"""Rumours people ask about, in a real browser on a 360-px phone, in Pashto: a rumour five
people asked about on two channels is on the page, right to left and within the screen, with
"Hide as spam"; one two people asked about is not; "Write a verdict" opens the claim editor with
what they wrote alike."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy.orm import Session

from tests.integration.test_console_browser import (  # noqa: F401  (fixtures)
    PHONE,
    Console,
    browser,
    console,
    fits_the_phone,
    page,
    screenshot,
    sign_in,
)

pytestmark = pytest.mark.integration

GATE = "ابی ګیټ ټولو ته خلاص دی او هر څوک په تذکره ننوتلای شي، رښتیا ده؟ " * 3
VISA = "visa canada ba pasport kohna qabul ast?"


def asks_about_rumours(serving: Console) -> None:
    """Five people asked about the gate on Telegram and WhatsApp, two (five times) about the
    visa."""
    from actions.content import db, models  # noqa: F401  (the claims table the asks refer to)
    from actions.content.asks import Ask

    now = datetime.now(timezone.utc)
    rows = [
        (f"{channel}-{n:040x}", channel, "ps", GATE, "gate-group", now - timedelta(minutes=n))
        for n, channel in enumerate(("telegram", "whatsapp") * 2 + ("telegram",))
    ] + [
        (f"sms_gateway-{n % 2:040x}", "sms_gateway", "prs", VISA, "visa-group", now)
        for n in range(5)
    ]
    engine = db.create_content_engine(serving.db_url)
    try:
        with Session(engine) as session, session.begin():
            for conversation, channel, language, text, group, at in rows:
                session.add(
                    Ask(
                        conversation_id=conversation,
                        channel=channel,
                        language=language,
                        masked_text=text,
                        group_key=group,
                        asked_at=at,
                        wants_answer=True,
                        answer_by=at + timedelta(hours=72),
                    )
                )
    finally:
        engine.dispose()


def test_a_rumour_five_asked_is_on_a_phone_in_pashto_and_two_asked_is_not(
    page: Page,  # noqa: F811  (the fixture imported above)
    console: Console,  # noqa: F811
) -> None:
    asks_about_rumours(console)
    sign_in(page, console)
    page.goto(f"{console.url}/console/claims?lang=ps")
    expect(page.get_by_role("heading", level=1)).to_have_text("هغه اوازې چې خلک یې پوښتي")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    rumours = page.locator("ol.rumours > li")
    expect(rumours).to_have_count(1)
    expect(rumours.first).to_contain_text("ابی ګیټ ټولو ته خلاص دی")
    expect(rumours.first).to_contain_text("۵ کسانو پوښتلي، ۵ ځله")
    expect(rumours.first.get_by_role("button")).to_have_text("د سپام په توګه یې پټ کړئ")
    expect(page.locator("body")).not_to_contain_text("visa canada")
    quoted = rumours.first.locator("q").inner_text()
    assert len(quoted) <= 80
    fits_the_phone(page)
    assert page.viewport_size == PHONE
    screenshot(page, "console-rumours-ps.png")

    rumours.first.get_by_role("link", name="د کتنې پایله ولیکئ").click()
    phrasings = page.locator("#phrasings").input_value()
    assert phrasings.startswith("ابی ګیټ ټولو ته خلاص دی")
    assert page.locator("#key").input_value() == "rumour-gategroup"
    fits_the_phone(page)
