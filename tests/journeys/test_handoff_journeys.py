"""Journeys of people who ask for a person, on `make run`'s stack (docs/HANDOFF.md).

* A Dari mother at night, on the web chat of her phone: the caseworkers are off, she reports
  her lost son and gets the family line that answers day and night, her case marked urgent;
  her next flight question is still answered.
* A Pashto user types STOP during an open case: she is told that the alerts stop and that the
  caseworker's reply will still come; «لغوه یې کړه» withdraws the request, the caseworker's
  case says so, and the assistant answers her again.
* Three people have open cases when the stack restarts: each one's next message lands in
  their case, answered "received" in their language, not by the assistant.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from playwright.sync_api import Page, expect

from tests.journeys.conftest import Phone, Running, screenshot

REPLY_TIMEOUT_MS = 30_000
KABUL = ZoneInfo("Asia/Kabul")
#: The seeded ICRC line, "day and night, every day" (actions/content/seed/demo.yml).
ICRC_NUMBER = "+93 700 000 121"
RECEIVED = {
    "en": "Received: your message is kept for the caseworker.",
    "prs": "پیام شما رسید و برای کارمند نگه داشته شد.",
    "ps": "ستاسو پیغام راورسېد او کارکوونکي ته وساتل شو.",
}


def set_case_hours(running: Running, hours: str) -> None:
    """What an editor does with the README's command: the demo organisation's caseworker hours."""
    running.cli(
        "actions.content",
        "publish",
        "organisation",
        "kabul-aid-network",
        "--case-hours",
        hours,
        "--case-wait-minutes",
        "20",
        "--editor",
        "amina",
    )


def hours_excluding_now() -> str:
    """A two-hour window that starts three hours from now, Kabul time: now is outside it."""
    now = datetime.now(KABUL)
    opens, closes = now + timedelta(hours=3), now + timedelta(hours=5)
    return f"{opens:%H:%M}-{closes:%H:%M}"


def case_of(running: Running, text: str) -> tuple[int, str, int, list[tuple[str, str]]]:
    """The case holding a line ``text``: its id, status, priority and lines (author, text)."""
    path = running.db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        row = db.execute(
            "SELECT c.id, c.status, c.priority FROM cases c JOIN case_messages m "
            "ON m.case_id = c.id WHERE m.text = ? ORDER BY c.id DESC LIMIT 1",
            (text,),
        ).fetchone()
        assert row is not None, f"no case holds {text!r}"
        lines = db.execute(
            "SELECT author, text FROM case_messages WHERE case_id = ? ORDER BY id", (row[0],)
        ).fetchall()
    return row[0], row[1], row[2], lines


def texts_of(replies: list[dict[str, object]]) -> str:
    return "\n".join(str(reply.get("text") or "") for reply in replies)


#: A flight named by its code: what only a flights answer shows (the hand-off text says «پروازها»).
FLIGHT_CODE = re.compile(r"[A-Z]{2,3}\d{3,4}")


def write(page: Page, text: str, expected: str | re.Pattern[str]) -> str:
    """Type ``text`` in the web chat and wait for a reply holding ``expected``; all the
    assistant's bubbles after it, as the person reads them."""
    before = page.locator(".msg.bot").count()
    page.locator("#input").fill(text)
    page.keyboard.press("Enter")
    expect(page.locator(".msg.bot", has_text=expected).last).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    page.wait_for_timeout(500)  # the turn's later bubbles
    bubbles = page.locator(".msg.bot").all_inner_texts()
    return "\n".join(bubbles[before:])


def test_a_dari_mother_at_night_is_heard_and_keeps_the_assistant(
    running: Running, phone: Phone
) -> None:
    set_case_hours(running, hours_excluding_now())
    page = phone(locale="fa-AF")
    page.goto(f"{running.stack.rasa_url}/webchat/")

    told = write(page, "میخواهم با یک انسان صحبت کنم", "کار نمی‌کنند")
    # When they start, and that the assistant stays until then.
    assert "به وقت کابل" in told
    assert "تا آن وقت من به سوال‌های شما" in told and "«لغو»" in told

    lost = "پسر ۸ ساله‌ام دیروز پیش دروازه ابی گم شد. کمک کنید"
    answer = write(page, lost, "همین حالا زنگ بزنید").replace("\xa0", " ")
    # Danger first (docs/DANGER.md): the family line that answers day and night, from the
    # organisations' records, and her case marked urgent.
    assert ICRC_NUMBER in answer and "شبانه‌روزی" in answer
    assert "قضیهٔ شما حالا عاجل نشانی شد" in answer
    screenshot(page, "handoff-prs-night-received")
    _, status, priority, _ = case_of(running, lost)
    assert (status, priority) == ("waiting", 1)  # urgent: a child

    flights = write(page, "پرواز بعدی چه وقت است؟", FLIGHT_CODE)
    assert RECEIVED["prs"] not in flights  # a question for the assistant, answered by it
    assert FLIGHT_CODE.search(flights), flights  # a flight, by its code
    screenshot(page, "handoff-prs-night-heard")


def test_stop_during_an_open_case_says_the_reply_still_comes(running: Running) -> None:
    set_case_hours(running, "00:00-00:00")  # round the clock: the conversation is paused
    person = "journey-ps-stop-0001"
    asked = texts_of(running.say(person, "زه له یو انسان سره خبرې کول غواړم"))
    assert "معمولاً په ۲۰ دقیقو کې" in asked and "له د" not in asked
    problem = "زما پاسپورت ورک شوی، څه وکړم؟"
    assert texts_of(running.say(person, problem)) == RECEIVED["ps"]

    # A typed Rasa command is words while paused: it goes to the case and lifts no pause.
    assert texts_of(running.say(person, "/restart")) == ""  # "received" was just sent
    assert case_of(running, "/restart")[0] == case_of(running, problem)[0]
    # «ودروه»: Pashto's own STOP (the shared «بس» reads as Dari to the language identifier).
    stopped = texts_of(running.say(person, "ودروه"))
    # True: the alerts stop, the caseworker's reply still comes, and how to stop that too.
    assert "ځواب به یې همدې چټ ته راشي" in stopped
    assert "«زما معلومات پاک کړه»" in stopped
    assert "نور پیغام نه درلېږم" not in stopped
    _, status, _, _ = case_of(running, problem)
    assert status == "waiting"

    withdrawn = texts_of(running.say(person, "لغوه یې کړه"))
    assert "د کارکوونکي غوښتنه مو بېرته واخیستل شوه" in withdrawn
    _, status, _, lines = case_of(running, problem)
    assert status == "closed"
    assert lines[-1] == ("assistant", "(دې کس خپله غوښتنه بېرته واخیسته؛ قضیه وتړل شوه.)")
    answered = texts_of(running.say(person, "د کابل هوايي ډګر خلاص دی؟"))
    assert answered and RECEIVED["ps"] not in answered


def test_three_open_cases_survive_a_restart(running: Running) -> None:
    set_case_hours(running, "00:00-00:00")
    people = {
        "journey-restart-prs": ("prs", "میخواهم با یک انسان صحبت کنم", "ویزه‌ام گم شده"),
        "journey-restart-ps": ("ps", "زه له یو انسان سره خبرې کول غواړم", "زما پاسپورت نشته"),
        "journey-restart-en": ("en", "I need to talk to a real person", "my visa papers are lost"),
    }
    for person, (language, request, problem) in people.items():
        running.say(person, request)
        assert texts_of(running.say(person, problem)) == RECEIVED[language]

    running.stack.stop()
    running.stack.start()

    after = {
        "journey-restart-prs": "پرواز بعدی چه وقت است؟",
        "journey-restart-ps": "زما پاسپورت نشته، اوس څه وکړم؟",
        "journey-restart-en": "when is the next flight?",
    }
    for person, text in after.items():
        language, _, problem = people[person]
        # Into the case, with its "received"; a flight question is answered too, as at night.
        told = texts_of(running.say(person, text))
        assert told.endswith(RECEIVED[language]), told
        assert ("RCH" in told) == (text != "زما پاسپورت نشته، اوس څه وکړم؟"), told
        case_id, status, _, lines = case_of(running, text)
        assert status == "waiting"
        assert case_of(running, problem)[0] == case_id  # the same case as before the restart
        # The caseworker sees that the assistant lost the conversation and gave it back.
        assert any(author == "assistant" and "(" in line for author, line in lines[-2:])
