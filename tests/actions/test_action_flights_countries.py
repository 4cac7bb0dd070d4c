"""Flights for a country: to its airports and evacuating people for it, each saying which; in
every language, chat and SMS, on SQLite and PostgreSQL. The messages are as the NLU gives them:
normalised text, the destination's canonical value (Germany → Ramstein) and its span."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rasa_sdk import Tracker
from sqlalchemy import Engine, update

from actions.chat.countries import CITIES, CODES, FORMS, asked_country, country_in
from actions.chat.flights import ActionAnswerFlights
from actions.claims.senses import COUNTRIES
from actions.content import db
from actions.content.models import Country, Flight
from kernel.lang import texts
from kernel.lang.codes import LANGUAGES
from tests.actions.content_support import clock, only_message, render, run, tracker

FSI, PDI = "\u2068", "\u2069"
#: Germany's flights in the demo: GAF612 and GAF614 to Tashkent evacuate people for Germany,
#: RCH233 (a US flight) lands at Ramstein, in Germany.
GERMANY = ["GAF612", "RCH233", "GAF614"]
LANDS = {"en": "Lands in Germany", "prs": "در آلمان فرود می‌آید", "ps": "په جرمني کې کښته کېږي"}
EVACUATES = {
    "en": "Evacuates people for Germany",
    "prs": "پرواز تخلیه از طرف آلمان",
    "ps": "د جرمني له خوا د وېستلو الوتنه",
}
GERMANY_NAME = {"en": "Germany", "prs": "آلمان", "ps": "جرمني"}


def flight_numbers(block: str) -> list[str]:
    return re.findall(r"• \u2068?([A-Z]{2,3}\d+)", block)


def said(
    language: str, text: str, named: str | None, value: str | None, intent: str = "ask_flights"
) -> Tracker:
    """A message as the NLU gives it: ``named`` (a part of ``text``) found as the destination
    ``value``; none when ``named`` is None."""
    state = tracker("ask_flights", language, {})
    entities = []
    if named is not None:
        start = text.index(named)
        end = start + len(named)
        entities.append({"entity": "destination", "value": value, "start": start, "end": end})
    latest = {"text": text, "intent": {"name": intent, "confidence": 0.95}, "entities": entities}
    slots = {**state.slots, "destination": value}
    return Tracker.from_dict({**state.current_state(), "latest_message": latest, "slots": slots})


async def answer(state: Tracker) -> dict[str, Any]:
    messages, _ = await run(ActionAnswerFlights(clock=clock()), state)
    return only_message(messages)


def blocks(message: dict[str, Any]) -> dict[str, str]:
    """Each flight's block by its number."""
    return {flight_numbers(b)[0]: b for b in message["flights"].split("\n\n")}


@pytest.mark.parametrize(
    ("language", "text", "named"),
    [
        ("en", "flight to germany", "germany"),
        ("en", "next flights for germans?", "germans"),
        ("ps", "الوتنه آلمان ته", "آلمان"),
        ("ps", "د جرمنی الوتنې کله دی", "جرمنی"),
        ("prs", "طیاره به جرمنی", "جرمنی"),
        ("prs", "آلمان", "آلمان"),
        ("prs", "germany flight kay ast", "germany"),
        ("prs", "parwaz jarmani kai ast", "jarmani"),
    ],
)
async def test_a_country_gets_its_evacuation_flights_and_those_landing_there(
    content_db: Engine, language: str, text: str, named: str
) -> None:
    message = await answer(said(language, text, named, "Ramstein"))
    assert message["response"] == "utter_flights_for"
    assert message["query"] == GERMANY_NAME[language]
    assert flight_numbers(message["flights"]) == GERMANY
    by_number = blocks(message)
    for number in ("GAF612", "GAF614"):
        assert f"\n  {EVACUATES[language]}\n" in by_number[number]
        assert LANDS[language] not in by_number[number]
    assert f"\n  {LANDS[language]}\n" in by_number["RCH233"]
    assert EVACUATES[language] not in by_number["RCH233"]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_answer_reads_as_flights_for_the_country(
    content_db: Engine, language: str
) -> None:
    message = await answer(said(language, "flight to germany", "germany", "Ramstein"))
    heading = {
        "en": "Flights for Germany (Kabul time):",
        "prs": "پروازها برای آلمان (به وقت کابل):",
        "ps": "الوتنې: جرمني (د کابل په وخت):",
    }[language]
    assert render(message, language).startswith(f"{heading}\n\n• ")


async def test_a_flight_landing_in_the_country_it_evacuates_for_says_both(
    content_db: Engine,
) -> None:
    with db.session_scope() as session:
        session.execute(
            update(Flight).where(Flight.flight_number == "QR8010").values(evacuates_for="QA")
        )
    message = await answer(said("en", "flights to qatar", "qatar", "Doha"))
    assert message["query"] == "Qatar"
    assert flight_numbers(message["flights"]) == ["RCH871", "QR8010", "RCH618"]
    by_number = blocks(message)
    assert "\n  Lands in Qatar · Evacuates people for Qatar\n" in by_number["QR8010"]
    assert "\n  Lands in Qatar\n" in by_number["RCH871"]


@pytest.mark.parametrize(
    ("language", "text", "named", "value", "query"),
    [
        # The NLU finds no destination in these: the country is in the words.
        ("en", "flights to france", None, None, "France"),
        ("prs", "پرواز به فرانسه کی است", None, None, "فرانسه"),
        # The NLU gives London; nothing flies to Britain nor evacuates people for it.
        ("ps", "برتانیه ته الوتنه", "برتانیه", "London", "بریتانیا"),
        ("en", "flights to the uk", "uk", "London", "the United Kingdom"),
    ],
)
async def test_a_country_without_flights_gets_the_honest_none_answer(
    content_db: Engine, language: str, text: str, named: str | None, value: str | None, query: str
) -> None:
    message = await answer(said(language, text, named, value))
    assert message["response"] == "utter_flights_none"
    assert message["query"] == query
    first_line = {
        "en": f"I have no upcoming flights for {query}.",
        "prs": query,
        "ps": query,
    }[language]
    assert first_line in render(message, language)


@pytest.mark.parametrize(
    ("language", "text", "named", "value", "expected"),
    [
        ("en", "flight to doha", "doha", "Doha", ["RCH871", "QR8010", "RCH618"]),
        ("prs", "پرواز به دوحه", "دوحه", "Doha", ["RCH871", "QR8010", "RCH618"]),
        ("prs", "پرواز به تاشکند", "تاشکند", "Tashkent", ["GAF612", "GAF614"]),
        ("en", "flights to ramstein", "ramstein", "Ramstein", ["RCH233"]),
    ],
)
async def test_a_city_still_gets_the_flights_to_its_airports(
    content_db: Engine,
    language: str,
    text: str,
    named: str,
    value: str,
    expected: list[str],
) -> None:
    message = await answer(said(language, text, named, value))
    assert flight_numbers(message["flights"]) == expected
    assert EVACUATES[language] not in message["flights"]
    assert "Lands in" not in message["flights"]


async def test_a_country_named_by_a_city_of_the_nlu_gets_its_airports(content_db: Engine) -> None:
    """ "Uzbekistan" comes as Tashkent: the flights landing in Uzbekistan, each saying so."""
    message = await answer(said("prs", "پرواز به ازبکستان", "ازبکستان", "Tashkent"))
    assert message["query"] == "ازبکستان"
    assert flight_numbers(message["flights"]) == ["GAF612", "GAF614"]
    assert message["flights"].count("در ازبکستان فرود می‌آید") == 2


async def test_a_follow_up_keeps_the_country_the_question_named(content_db: Engine) -> None:
    """ "and on Wednesday?" after "flights to Germany": the destination remembered is
    Ramstein, the country is read from the message that named it."""
    first = said("en", "flights to germany", "germany", "Ramstein")
    asked = {
        "event": "user",
        "text": "Flights to Germany",
        "parse_data": {
            "text": "flights to germany",
            "intent": {"name": "ask_flights"},
            "entities": [{"entity": "destination", "value": "Ramstein", "start": 11, "end": 18}],
        },
    }
    latest = {
        "text": "and on wednesday?",
        "intent": {"name": "follow_up", "confidence": 0.9},
        "entities": [{"entity": "date", "value": "2021-08-25", "start": 7, "end": 16}],
    }
    state = Tracker.from_dict(
        {
            **first.current_state(),
            "events": [*first.events, asked, {"event": "user", "text": latest["text"]}],
            "latest_message": latest,
            "slots": {**first.slots, "date": "2021-08-25"},
        }
    )
    assert asked_country(state, "Ramstein") is Country.DE
    message = await answer(state)
    assert message["query"] == "Germany · Wed 25 Aug"
    assert flight_numbers(message["flights"]) == ["RCH233", "GAF614"]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_on_sms_each_line_says_where_and_why_within_three_segments(
    content_db: Engine, language: str
) -> None:
    from kernel.sms_segments import MAX_SEGMENTS, fits

    message = await answer(said(language, "flight to germany", "germany", "Ramstein"))
    sent = render(message, language, channel="sms_gateway")
    assert fits(sent, MAX_SEGMENTS), sent
    first = {
        "en": "GAF612 today 13:00, Scheduled, to Tashkent, evacuates for Germany",
        "prs": f"{FSI}GAF612{PDI} امروز ۱ بعد از چاشت، طبق پلان، به تاشکند، تخلیه از طرف آلمان",
        "ps": f"{FSI}GAF612{PDI} نن د ماسپښین ۱ بجه، د پلان سره سم، تاشکند ته، د جرمني وېستنه",
    }[language]
    assert message["brief"].split("\n")[0] == first
    assert first in sent
    if language == "en":
        assert message["brief"].split("\n")[1].endswith(", to Ramstein")


def test_every_country_of_the_senses_table_has_its_code() -> None:
    assert set(CODES) == set(COUNTRIES)
    assert set(CODES.values()) == set(Country) - {Country.AF}


@pytest.mark.parametrize("country", list(Country))
def test_every_country_is_named_in_every_language(country: Country) -> None:
    entry = texts.CATALOGUE.entry(f"content.country.{country.value}")
    assert all(entry[language].strip() for language in LANGUAGES)


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("flight to germany", Country.DE),
        ("jarmani", Country.DE),
        ("الوتنه آلمان ته", Country.DE),
        ("طیاره به جرمني", Country.DE),  # Arabic yeh, as some keyboards type it
        ("amrika", Country.US),
        ("پرواز به ازبکستان", Country.UZ),
        ("flights to doha", None),
        ("پرواز تاشکند", None),
        ("flights to dubai", None),
        ("next flights", None),
    ],
)
def test_a_country_is_read_from_its_names_not_from_its_cities(
    text: str, country: Country | None
) -> None:
    assert country_in(text) is country


def test_cities_are_kept_out_of_the_country_names() -> None:
    assert CITIES and CITIES.isdisjoint(FORMS)
