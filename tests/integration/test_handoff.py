"""Asking for a person, end to end on real processes (Rasa, the action server, SQLite): the
conversation pauses, what the person writes goes to the case and gets one "received" a minute,
and STOP, "safety" and "delete my data" (asked once, with a case open) still work; closing the
case gives the conversation back."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from actions.cases import handback
from actions.settings import RasaSettings
from scripts.stack import Stack
from tests.integration.conftest import Say


def _db_path(url: str) -> str:
    return url.removeprefix("sqlite:///")


@pytest.fixture
def caseworkers_round_the_clock(content_db_url: str) -> Iterator[sqlite3.Connection]:
    """The demo's caseworkers answer at any hour, so the test does not depend on the clock."""
    connection = sqlite3.connect(_db_path(content_db_url))
    with connection:
        connection.execute(
            "UPDATE organisations SET case_hours = '00:00-00:00' WHERE slug = 'kabul-aid-network'"
        )
    yield connection
    with connection:
        connection.execute(
            "UPDATE organisations SET case_hours = '08:00-20:00' WHERE slug = 'kabul-aid-network'"
        )
    connection.close()


def case_lines(db: sqlite3.Connection, sender: str) -> list[tuple[str, str]]:
    return db.execute(
        "SELECT m.author, m.text FROM case_messages m JOIN cases c ON c.id = m.case_id"
        " WHERE c.conversation_id = ? ORDER BY m.id",
        (sender,),
    ).fetchall()


def get_json(url: str) -> Any:
    headers = {}
    if os.environ.get("RASA_API_TOKEN"):
        headers["Authorization"] = f"Bearer {os.environ['RASA_API_TOKEN']}"
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def texts(replies: list[dict[str, object]]) -> str:
    return "\n".join(str(reply.get("text", "")) for reply in replies)


def test_a_person_asks_for_a_caseworker_and_the_assistant_steps_aside(
    say: Say, caseworkers_round_the_clock: sqlite3.Connection
) -> None:
    db = caseworkers_round_the_clock
    sender = "handoff-dari"
    say(sender, "سلام")
    replies = say(sender, "میخواهم با یک انسان صحبت کنم")
    assert "یک کارمند شبکهٔ کمک‌رسانی کابل" in texts(replies)
    assert "در یک پیام کوتاه بنویسید" in texts(replies)

    received = texts(say(sender, "ویزه‌ام رد شده و نمی‌دانم چه کنم"))
    assert received == "پیام شما رسید و برای کارمند نگه داشته شد."
    # A flight question is answered as at night, and goes to the case too; its "received"
    # is the one of a moment ago (lines typed in one go share one).
    flights = texts(say(sender, "پرواز بعدی به دوحه چی وقت است"))
    assert "RCH871" in flights and "پیام شما رسید" not in flights, flights
    [(status, priority)] = db.execute(
        "SELECT status, priority FROM cases WHERE conversation_id = ?", (sender,)
    ).fetchall()
    assert (status, priority) == ("waiting", 0)
    lines = case_lines(db, sender)
    assert lines[-3:] == [
        ("person", "میخواهم با یک انسان صحبت کنم"),
        ("person", "ویزه‌ام رد شده و نمی‌دانم چه کنم"),
        ("person", "پرواز بعدی به دوحه چی وقت است"),
    ]
    assert lines[0][0] == "assistant"  # the greeting before: context for the caseworker

    # Danger is answered even while the caseworker holds the conversation: the lines that
    # answer now first, and the case marked urgent, with the message in it.
    helped = texts(say(sender, "طفلم سخت مریض است، بیهوش شده")).replace("\xa0", " ")
    assert helped.startswith("کسی زخمی یا سخت مریض است — همین حالا زنگ بزنید:")
    assert "+93 700 000 121" in helped and "قضیهٔ شما حالا عاجل نشانی شد" in helped
    assert db.execute(
        "SELECT priority FROM cases WHERE conversation_id = ?", (sender,)
    ).fetchone() == (1,)
    assert case_lines(db, sender)[-1] == ("person", "طفلم سخت مریض است، بیهوش شده")

    assert "این چت را از تیلفون‌تان پاک کنید" in texts(say(sender, "امنیت"))  # safety
    stopped = texts(say(sender, "توقف"))
    assert "هیچ پیام خبری ثبت نام نکرده‌اید" in stopped  # STOP, and what it does not stop:
    assert "جواب او به همین چت می‌آید" in stopped
    assert len(case_lines(db, sender)) == len(lines) + 1  # neither went to the case

    assert "دوباره ۸ بفرستید" in texts(say(sender, "معلوماتم را پاک کن"))  # once more, please
    assert case_lines(db, sender) != []
    assert "از سرور ما پاک شد" in texts(say(sender, "۸"))
    assert case_lines(db, sender) == []
    assert db.execute(
        "SELECT count(*) FROM cases WHERE conversation_id = ?", (sender,)
    ).fetchone() == (0,)
    assert texts(say(sender, "پرواز بعدی به دوحه چی وقت است"))  # a new conversation: answered


def test_closing_the_case_gives_the_conversation_back_to_the_assistant(
    say: Say, stack: Stack, caseworkers_round_the_clock: sqlite3.Connection
) -> None:
    sender = "handoff-pashto"
    say(sender, "سلام")
    assert "یو کارکوونکی" in texts(say(sender, "زه له یو انسان سره خبرې کول غواړم"))
    assert texts(say(sender, "زما ویزه رد شوه")) == "ستاسو پیغام راورسېد او کارکوونکي ته وساتل شو."
    settings = RasaSettings(stack.rasa_url, os.environ.get("RASA_API_TOKEN"))
    assert asyncio.run(handback.hand_back(settings, sender)).problem is None
    events = get_json(f"{stack.rasa_url}/conversations/{sender}/tracker")
    assert events["paused"] is False
    said = [e.get("text") or "" for e in events["events"] if e.get("event") == "bot"]
    assert "زه بیا دلته یم" in said[-1]  # in the person's language
    assert texts(say(sender, "راتلونکې الوتکه کله ځي"))  # the assistant answers again
    assert [line for line in case_lines(caseworkers_round_the_clock, sender)][-1] == (
        "person",
        "زما ویزه رد شوه",
    )
