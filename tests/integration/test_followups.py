"""Conversations that remember, over the REST channel, with both servers as real processes.

Every expectation is read from the seeded content database. A second stack sends Rasa's
action calls through a counting proxy: the figure "action-server calls per turn" in
docs/CONVERSATIONS.md is measured here, and a turn must never cost more than one.
"""

import threading
import time
import urllib.request
from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from actions.common.kabul_time import asked_day_bounds
from actions.content.models import Country, Flight, Gate
from kernel.lang import texts
from kernel.lang.letters import PASHTO_LETTERS
from scripts.stack import Stack, free_port
from tests.integration.conftest import MODEL, Say, post_json
from tests.integration.test_conversations import db, new_user, reply_text, visible

pytestmark = pytest.mark.integration
__all__ = ["db"]  # the fixture, shared with test_conversations.py

KABUL = ZoneInfo("Asia/Kabul")
FINISHED = ("departed", "cancelled")
DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def tomorrow() -> date:
    return datetime.now(timezone.utc).astimezone(KABUL).date() + timedelta(days=1)


def goes_to(flight: Flight, place: str) -> bool:
    """To a city ("Doha"), or for a country ("DE"): landing there or evacuating people for it."""
    if place in {country.value for country in Country}:
        return place in (flight.evacuates_for, flight.destination.country)
    return bool(flight.destination.city_en == place)


def upcoming_to(db: Session, place: str, day: date | None = None) -> list[Flight]:
    """Flights to a city or a country that the assistant may list, soonest first (as
    queries.py)."""
    now = datetime.now(timezone.utc)
    flights = [
        f
        for f in db.scalars(select(Flight).order_by(Flight.departs_at)).all()
        if goes_to(f, place)
        and f.departs_at > now
        and f.valid_until > now
        and f.status.value not in FINISHED
    ]
    if day is not None:  # the day asked about runs into the night after it, as the answers count it
        start, end = asked_day_bounds(day)
        flights = [f for f in flights if start <= f.departs_at < end]
    return flights


def all_numbers(db: Session) -> set[str]:
    return {f.flight_number for f in db.scalars(select(Flight)).all()}


def shown_numbers(db: Session, answer: str) -> set[str]:
    return {number for number in all_numbers(db) if number in answer}


def day_number(day: date, language: str) -> str:
    return str(day.day) if language == "en" else str(day.day).translate(DIGITS)


@pytest.mark.parametrize(
    ("language", "question", "follow_up", "place"),
    [
        ("en", "when is the next flight to doha?", "and tomorrow?", "Doha"),
        # Qatar: its airports (both Doha's) and the flights evacuating people for it.
        ("prs", "پرواز بعدی به قطر چی وقت است", "فردا چطور؟", "QA"),
        ("prs", "parwaz ba doha chi waqt ast", "saba chi?", "Doha"),
        ("ps", "دوحې ته راتلونکې الوتنه کله ده؟", "او سبا؟", "Doha"),
        ("ps", "doha ta alwatana kala da", "aw saba?", "Doha"),
    ],
)
def test_a_day_follow_up_keeps_the_destination(
    say: Say, db: Session, language: str, question: str, follow_up: str, place: str
) -> None:
    user = new_user()
    first = visible(reply_text(say(user, question)))
    assert shown_numbers(db, first) == {f.flight_number for f in upcoming_to(db, place)}
    answer = visible(reply_text(say(user, follow_up)))
    if place == "Doha":
        named = getattr(upcoming_to(db, "Doha")[0].destination, f"city_{language}")
    else:
        named = texts.render(f"content.country.{place}", language)
    expected = upcoming_to(db, place, tomorrow()) or upcoming_to(db, place)[:1]
    assert shown_numbers(db, answer) == {f.flight_number for f in expected}
    heading = answer.split("\n")[0]  # says what it answered: the place and the day
    assert named in heading and day_number(tomorrow(), language) in heading


@pytest.mark.parametrize(
    ("language", "question", "follow_up", "place"),
    [
        # Germany: Ramstein's flights and those evacuating people for Germany.
        ("en", "any flights tomorrow?", "what about Germany?", "DE"),
        ("en", "next flights", "Doha?", "Doha"),
        ("prs", "پروازها", "دوحه چطور؟", "Doha"),
        ("prs", "parwaz kay ast", "tashkent chi?", "Tashkent"),
        ("ps", "الوتنې کله دي", "او دوحې ته؟", "Doha"),
        ("ps", "alwatka kala zi", "doha ta?", "Doha"),
    ],
)
def test_a_place_follow_up_answers_flights_there(
    say: Say, db: Session, language: str, question: str, follow_up: str, place: str
) -> None:
    user = new_user()
    say(user, question)
    answer = visible(reply_text(say(user, follow_up)))
    shown = shown_numbers(db, answer)
    there = {f.flight_number for f in upcoming_to(db, place)}
    assert shown and shown <= there, answer  # only flights to that place
    if "tomorrow" in question:
        day_flights = upcoming_to(db, place, tomorrow())
        assert shown == {f.flight_number for f in day_flights or upcoming_to(db, place)[:1]}


EN_REST, PRS_REST, PS_REST = (
    "Other gates: reply 2.",
    "دروازه‌های دیگر: ۲ بفرستید.",
    "نورې دروازې: ۲ ولېږئ.",
)


@pytest.mark.parametrize(
    ("language", "question", "follow_up", "first_slug", "then_slug", "rest"),
    [
        ("en", "is the east gate open?", "and north gate?", "east-gate", "north-gate", EN_REST),
        ("prs", "دروازه شرقی باز است؟", "دروازه شمالی چی؟", "east-gate", "north-gate", PRS_REST),
        (
            "ps",
            "ختیځه دروازه خلاصه ده که نه",
            "او شمالي دروازه؟",
            "east-gate",
            "north-gate",
            PS_REST,
        ),
        ("ps", "abbey gate khlas de", "khatiza darwaza sanga?", "abbey-gate", "east-gate", PS_REST),
    ],
)
def test_a_gate_question_answers_that_gate_first_then_one_line_on_the_rest(
    say: Say,
    db: Session,
    language: str,
    question: str,
    follow_up: str,
    first_slug: str,
    then_slug: str,
    rest: str,
) -> None:
    gates = {g.slug: g for g in db.scalars(select(Gate)).all()}
    user = new_user()
    for text, slug in ((question, first_slug), (follow_up, then_slug)):
        replies = say(user, text)
        answer = visible(reply_text(replies))
        assert answer.startswith(f"• {visible(getattr(gates[slug], f'name_{language}'))}:"), answer
        others = [g for s, g in gates.items() if s != slug]
        assert not any(visible(getattr(g, f"name_{language}")) in answer for g in others)
        assert rest in answer.split("\n")


def test_the_airport_then_a_day_moves_to_flights(say: Say, db: Session) -> None:
    user = new_user()
    assert "Gates:" in reply_text(say(user, "is the airport open?"))
    answer = visible(reply_text(say(user, "and tomorrow?")))
    # It says the topic changed: gates are known only as they are now.
    said, flights = answer.split("\n", 1)
    assert said.startswith("I only know the gates as they are now, not for ")
    assert day_number(tomorrow(), "en") in said
    assert flights.startswith("Flights for ")
    assert day_number(tomorrow(), "en") in flights.split("\n")[0]


def test_a_new_question_clears_the_old_details(say: Say) -> None:
    user = new_user()
    say(user, "flights to doha tomorrow")
    answer = reply_text(say(user, "when are the next flights?"))
    assert answer.startswith("Next evacuation flights (Kabul time):")  # no filter left


def test_a_follow_up_with_nothing_to_follow_offers_the_menu(say: Say) -> None:
    answer = reply_text(say(new_user(), "and the others?"))
    assert "1 Next flights" in answer


def test_a_follow_up_keeps_the_language_of_the_conversation(say: Say) -> None:
    user = new_user()
    say(user, "الوتکه کله ده")
    answer = reply_text(say(user, "doha?"))  # too short to switch the language
    assert PASHTO_LETTERS & set(answer)


# --- measured: action-server calls per turn, and forgetting after the configured silence ---


class CountingProxy(ThreadingHTTPServer):
    """Forwards Rasa's action calls to the action server and counts them."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.calls = 0
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", free_port()), _Forward)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/webhook"


class _Forward(BaseHTTPRequestHandler):
    server: CountingProxy

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with self.server.lock:
            self.server.calls += 1
        # Rasa's secret goes on to the action server, which runs nothing without it.
        secret = {"X-Action-Server-Secret": self.headers.get("X-Action-Server-Secret", "")}
        request = urllib.request.Request(
            self.server.target, body, {"Content-Type": "application/json", **secret}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = response.read()
            status = response.status
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the requests carry conversations."""


#: How long this module's stack remembers a topic after a person's message: short enough to
#: watch it lapse, long enough for two turns on a loaded machine.
MEMORY_SECONDS = 12


@pytest.fixture(scope="module")
def counted(
    content_db_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Stack, CountingProxy]]:
    action_port = free_port()
    proxy = CountingProxy(f"http://127.0.0.1:{action_port}/webhook")
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    running = Stack(
        model=MODEL,
        content_db_url=content_db_url,
        log_dir=Path(tmp_path_factory.mktemp("counted-logs")),
        rasa_port=free_port(),
        action_port=action_port,
        extra_env={
            "ACTION_ENDPOINT_URL": proxy.url,
            "CONVERSATION_MEMORY_MINUTES": str(MEMORY_SECONDS / 60),
        },
    )
    running.start()
    yield running, proxy
    running.stop()
    proxy.shutdown()


#: A morning's conversation in every slice: greetings, menu numbers, questions, follow-ups,
#: thanks, a language choice. (text, action-server calls it needs at most)
MIX = [
    ("hello", 0),
    ("1", 1),
    ("and tomorrow?", 1),
    ("what about Germany?", 1),
    ("is the east gate open?", 1),
    ("and north gate?", 1),
    ("thank you", 0),
    ("سلام", 0),
    ("پرواز بعدی به قطر چی وقت است", 1),
    ("فردا چطور؟", 1),
    ("parwaz kay ast", 1),
    ("saba chi?", 1),
    ("الوتکه کله ده", 1),
    ("او سبا؟", 1),
    ("او دوحې ته؟", 1),
    ("alwatka kala zi", 1),
    ("doha ta?", 1),
    ("9", 0),
    ('/set_language{"language": "ps"}', 0),
    ("مننه", 0),
]


def test_a_turn_costs_at_most_one_action_server_call(
    counted: tuple[Stack, CountingProxy],
) -> None:
    stack, proxy = counted
    user = new_user()
    per_turn = []
    for text, at_most in MIX:
        before = proxy.calls
        replies = post_json(
            f"{stack.rasa_url}/webhooks/rest/webhook", {"sender": user, "message": text}
        )
        assert replies, text
        per_turn.append(proxy.calls - before)
        assert per_turn[-1] <= at_most, (text, per_turn[-1])
    average = sum(per_turn) / len(per_turn)
    print(f"\naction-server calls per turn: {average:.2f} over {len(per_turn)} turns")
    assert average <= 1.0


def test_after_the_memory_lasts_a_follow_up_starts_from_nothing(
    counted: tuple[Stack, CountingProxy], db: Session
) -> None:
    stack, _ = counted

    def say(text: str) -> str:
        return visible(
            reply_text(
                post_json(
                    f"{stack.rasa_url}/webhooks/rest/webhook", {"sender": user, "message": text}
                )
            )
        )

    user = new_user()
    say("flights to tashkent")
    remembered = say("and tomorrow?")  # within the seconds this stack remembers
    said_at = time.monotonic()  # Rasa stamped the message before it answered
    tashkent = {f.flight_number for f in upcoming_to(db, "Tashkent")}
    assert "Tashkent" in remembered.split("\n")[0]
    assert shown_numbers(db, remembered) and shown_numbers(db, remembered) <= tashkent
    time.sleep(max(0.0, said_at + MEMORY_SECONDS + 0.5 - time.monotonic()))
    forgotten = say("and tomorrow?")
    heading = forgotten.split("\n")[0]
    assert "Tashkent" not in heading and day_number(tomorrow(), "en") in heading
