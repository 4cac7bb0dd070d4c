"""Asking for a person, end to end on real processes (Rasa, the action server, SQLite): the
conversation pauses, what the person writes goes to the case and gets no answer, and STOP,
"safety" and "delete my data" still work."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

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

    assert say(sender, "فامیلم ده دروازه ابی جدا شدن") == []
    assert say(sender, "پرواز بعدی به دوحه چی وقت است") == []  # a question, yet no answer
    [(status, priority)] = db.execute(
        "SELECT status, priority FROM cases WHERE conversation_id = ?", (sender,)
    ).fetchall()
    assert (status, priority) == ("waiting", 0)
    lines = case_lines(db, sender)
    assert lines[-3:] == [
        ("person", "میخواهم با یک انسان صحبت کنم"),
        ("person", "فامیلم ده دروازه ابی جدا شدن"),
        ("person", "پرواز بعدی به دوحه چی وقت است"),
    ]
    assert lines[0][0] == "assistant"  # the greeting before: context for the caseworker

    assert say(sender, "طفلم مریض است") == []
    assert db.execute(
        "SELECT priority FROM cases WHERE conversation_id = ?", (sender,)
    ).fetchone() == (1,)

    assert "این چت را از تیلفون‌تان پاک کنید" in texts(say(sender, "امنیت"))  # safety
    assert "هیچ پیام خبری ثبت نام نکرده‌اید" in texts(say(sender, "توقف"))  # STOP
    assert len(case_lines(db, sender)) == len(lines) + 1  # neither went to the case

    assert "از سرور ما پاک شد" in texts(say(sender, "معلوماتم را پاک کن"))
    assert case_lines(db, sender) == []
    assert db.execute(
        "SELECT count(*) FROM cases WHERE conversation_id = ?", (sender,)
    ).fetchone() == (0,)
    assert texts(say(sender, "پرواز بعدی به دوحه چی وقت است"))  # a new conversation: answered
