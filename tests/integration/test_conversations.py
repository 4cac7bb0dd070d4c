"""Whole-stack conversations over the REST channel: Rasa and the action server as real processes.

Every expectation is read from the seeded content database rather than written into the test,
so a test only passes when the reply really carries what aid workers published.
"""

import random
import re
import uuid
from collections.abc import Iterator
from datetime import datetime, timezone

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from actions.content.models import Airport, AirportStatus, Flight, GuidanceTopic
from kernel.lang.letters import PASHTO_LETTERS
from scripts.stack import Stack
from tests.integration.conftest import Say, post_json

pytestmark = pytest.mark.integration

PASHTO_ONLY = PASHTO_LETTERS


def reply_text(replies: list[dict[str, object]]) -> str:
    return "\n".join(str(r.get("text", "")) for r in replies)


def visible(text: str) -> str:
    """Without the bidi isolates that keep Latin words in order inside right-to-left text."""
    return re.sub("[\u2066-\u2069]", "", text)


def arabic_share(text: str) -> float:
    letters = [ch for ch in text if ch.isalpha()]
    return sum("\u0600" <= ch <= "\u06ff" for ch in letters) / max(1, len(letters))


def changed_text(language: str) -> str:
    """A unique sentence in the language's own script, as an editor would write it."""
    if language == "en":
        return "advice " + "".join(random.choices("abcdefghijklmnopqrstuvwxyz", k=12))
    return "مشوره " + "".join(random.choices("ابپتجحخدرزسشصطعغفقکگلمنوهی", k=12))


def new_user() -> str:
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def db(content_db_url: str) -> Iterator[Session]:
    engine = create_engine(content_db_url)
    with Session(engine) as session:
        yield session
    engine.dispose()


def next_flight(db: Session) -> Flight:
    """The first upcoming flight, as the assistant should list it first."""
    now = datetime.now(timezone.utc)
    flights = db.scalars(select(Flight).order_by(Flight.departs_at)).all()
    return next(
        f
        for f in flights
        if f.departs_at > now
        and f.valid_until > now
        and f.status.value not in ("departed", "cancelled")
    )


def test_english_conversation(say: Say, db: Session) -> None:
    user = new_user()
    greeting = reply_text(say(user, "hello"))
    assert greeting.startswith("Hello")
    assert "1 Next flights" in greeting  # the numbered menu follows the greeting

    flights = reply_text(say(user, "1"))  # menu number → flights
    flight = next_flight(db)
    assert flight.flight_number in flights
    assert flight.destination.city_en in flights
    assert "verified" in flights and "source" in flights.lower()


def test_dari_conversation(say: Say, db: Session) -> None:
    user = new_user()
    answer = reply_text(say(user, "پرواز بعدی چی وقت است"))
    flight = next_flight(db)
    assert flight.destination.city_prs in answer
    assert arabic_share(answer) > 0.6
    assert not PASHTO_ONLY & set(answer.replace(flight.destination.city_prs, ""))
    assert any("۰" <= ch <= "۹" for ch in answer)  # times in Persian digits


def test_pashto_conversation(say: Say, db: Session) -> None:
    user = new_user()
    answer = reply_text(say(user, "د کابل هوايي ډګر خلاص دی؟"))
    kabul = db.scalars(select(Airport).where(Airport.iata == "KBL")).one()
    assert kabul.status is not None
    assert kabul.name_ps in answer
    assert kabul.status.advice_ps in answer
    assert PASHTO_ONLY & set(answer)


@pytest.mark.parametrize(
    ("message", "language_field"),
    [("parwaz ba doha kay ast", "city_prs"), ("alwatka kala zi", "city_ps")],
)
def test_romanized_questions_are_answered_in_arabic_script(
    say: Say, db: Session, message: str, language_field: str
) -> None:
    answer = reply_text(say(new_user(), message))
    assert arabic_share(answer) > 0.6
    names = [getattr(f.destination, language_field) for f in db.scalars(select(Flight)).all()]
    assert any(name in answer for name in names)


@pytest.mark.parametrize(
    ("language", "question", "field"),
    [
        ("en", "is the airport open?", "advice_en"),
        ("prs", "میدان هوایی باز است؟", "advice_prs"),
        ("ps", "هوايي ډګر خلاص دی؟", "advice_ps"),
    ],
)
def test_editor_change_shows_in_the_next_answer(
    say: Say, db: Session, language: str, question: str, field: str
) -> None:
    user = new_user()
    before = reply_text(say(user, question))
    status = db.scalars(
        select(AirportStatus).join(AirportStatus.airport).where(Airport.iata == "KBL")
    ).one()
    marker = changed_text(language)
    assert marker not in before
    setattr(status, field, marker)
    db.commit()
    after = reply_text(say(user, question))
    assert marker in after


def test_fallback_answers_in_the_users_language(say: Say) -> None:
    user = new_user()
    say(user, "الوتکه کله ده")  # the conversation is in Pashto now
    answer = reply_text(say(user, "🙂🙂🙂"))
    assert answer.startswith("بښنه غواړم")


def test_explicit_language_choice_is_sticky(say: Say) -> None:
    user = new_user()
    say(user, '/set_language{"language": "ps"}')
    answer = reply_text(say(user, "is the airport open right now?"))
    assert PASHTO_ONLY & set(answer)


def test_parse_result_carries_the_language(stack: Stack) -> None:
    parsed = post_json(f"{stack.rasa_url}/model/parse", {"text": "د کابل هوايي ډګر خلاص دی؟"})
    assert parsed["intent"]["name"] == "ask_airport_status"
    assert parsed["language"]["code"] == "ps"
    assert parsed["language"]["script"] == "Arab"
    assert parsed["language"]["confidence"] >= 0.9


@pytest.mark.parametrize("junk", ["", " ", "x" * 10_000, "\x00\x01\x02", "🙂" * 500])
def test_bad_input_gets_a_reply_and_the_server_survives(say: Say, stack: Stack, junk: str) -> None:
    replies = say(new_user(), junk)
    assert isinstance(replies, list)
    stack.check_alive()
    assert reply_text(say(new_user(), "hello")).startswith("Hello")


@pytest.mark.parametrize(
    ("language", "greeting", "number", "kind"),
    [
        ("en", "hello", "4", "documents"),
        ("prs", "سلام علیکم، خوب هستین", "۴", "documents"),
        ("ps", "السلام علیکم وروره", "۵", "contacts"),
        ("en", "hi there", "5", "contacts"),
    ],
)
def test_menu_numbers_reach_documents_and_help(
    say: Say, db: Session, language: str, greeting: str, number: str, kind: str
) -> None:
    user = new_user()
    say(user, greeting)
    answer = visible(reply_text(say(user, number)))
    topics = db.scalars(select(GuidanceTopic).where(GuidanceTopic.kind == kind)).all()
    now = datetime.now(timezone.utc)
    current = [t for t in topics if t.valid_until is None or t.valid_until > now]
    assert current
    assert all(getattr(t, f"title_{language}") in answer for t in current)


def test_language_question_offers_working_buttons(say: Say) -> None:
    user = new_user()
    replies = say(user, "6")
    payloads = [b["payload"] for r in replies for b in r.get("buttons", [])]  # type: ignore[attr-defined]
    assert payloads == [f'/set_language{{"language": "{code}"}}' for code in ("en", "prs", "ps")]
    answer = reply_text(say(user, payloads[2]))
    assert answer == "له اوس وروسته به په پښتو ځواب درکوم."
