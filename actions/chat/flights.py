"""``action_answer_flights``: upcoming evacuation flights, filtered by what the user asked."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import ClassVar, Final

from rasa_sdk import Tracker

from actions.chat.answers import AnswerFirst
from actions.chat.claim_verdicts import RumourFirst
from actions.chat.closures import CLOSURES, closures
from actions.chat.countries import asked_country
from actions.common.previous_turn import previous_turn
from actions.content import briefs, queries
from actions.content import format as fmt
from actions.content.answering import DETAIL, DETAILED, Reply, Shows, asked_detail, detail, shows
from actions.content.database_action import Turn
from actions.content.localise import digits, isolate_latin, word
from actions.content.models import Airport, Country, Flight, Provenance
from actions.content.queries import FlightQuery
from kernel.lang.letters import to_ascii_digits

logger = logging.getLogger(__name__)


def flight_query(tracker: Tracker) -> FlightQuery:
    """The filters of the question: this message's and, for a follow-up, those remembered
    (already canonical; tidied defensively)."""
    day: date | None = None
    raw_day = detail(tracker, "date")
    if raw_day is not None:
        try:
            day = date.fromisoformat(raw_day)
        except ValueError:
            # Better all upcoming flights than none: the list shows each flight's day.
            logger.warning("ignoring a date entity that is not an ISO date")
    number = detail(tracker, "flight_number")
    return FlightQuery(
        destination=detail(tracker, "destination"),
        day=day,
        flight_number=to_ascii_digits(re.sub(r"\s+", "", number)).upper() if number else None,
    )


def matched_numbers(
    query: FlightQuery, flights: Sequence[Flight], language: str
) -> tuple[Reply, ...]:
    """For a number asked without its letters, which flights it matched, said before the list.

    "871" may match more than one flight (RCH871, QR1871): the user must see which one is theirs.
    """
    if not query.by_digits or query.flight_number is None:
        return ()
    variables = {
        "digits": digits(query.flight_number, language),
        "numbers": fmt.flight_numbers(flights, language),
    }
    return (Reply("utter_flight_number_matches", variables),)


def asked_for(query: FlightQuery, airports: Sequence[Airport], language: str) -> str:
    """What the user asked for, the place named in their language when we know it
    (Frankfurt → فرانکفورت, Germany → آلمان): "Doha · Wed 2 Dec"."""
    place: Airport | str | None = airports[0] if airports else query.destination
    if query.country is not None:
        place = fmt.country_name(query.country, language)
    return fmt.query(place, query.day, query.flight_number, language)


def is_filtered(query: FlightQuery) -> bool:
    return bool(query.destination or query.country or query.day or query.flight_number)


def with_country(tracker: Tracker, query: FlightQuery) -> FlightQuery:
    """A question naming a country asks for it instead of the place the NLU gave it (Germany
    → Ramstein): the flights to its airports and those evacuating people for it."""
    country = asked_country(tracker, query.destination)
    if country is None:
        return query
    return replace(query, destination=None, country=country)


Stale = Callable[[Provenance], bool]
#: Flights an SMS answer lists at most, one line each, then one check line per source.
SMS_FLIGHTS = 3
#: Characters those lines may take, so that the SMS form around them (heading, "go only when
#: told", the numbers of the later flights, option 1) stays within three segments: 459 GSM-7
#: characters of English, 201 UCS-2 ones of Dari or Pashto (docs/SMS.md, "Budget").
SMS_LINES_BUDGET: Final[dict[str, int]] = {"en": 300, "prs": 100, "ps": 100}
#: Later flights named by number after those listed (each is one question away).
SMS_LATER = 2


def sms_listed(
    flights: Sequence[Flight],
    now: datetime,
    language: str,
    stale: Stale = lambda fact: False,
    country: Country | None = None,
) -> Sequence[Flight]:
    """The soonest flights whose lines and check lines fit the budget; at least one.

    Flights checked by several sources need a check line each, and a stale check says so, so
    fewer of them fit.
    """
    budget = SMS_LINES_BUDGET.get(language, SMS_LINES_BUDGET["prs"])
    for count in range(min(SMS_FLIGHTS, len(flights)), 1, -1):
        listed = flights[:count]
        lines = briefs.flights_brief(listed, now, language, country) + "\n"
        if len(lines + briefs.checked(listed, now, language, stale)) <= budget:
            return listed
    return flights[:1]


def short_forms(
    flights: Sequence[Flight],
    now: datetime,
    language: str,
    stale: Stale = lambda fact: False,
    country: Country | None = None,
) -> dict[str, str]:
    """What the SMS variations show: one line per flight listed, the numbers of the next ones
    (empty when there are none), and the flight whose details the numbered option "1" offers
    (the soonest)."""
    listed = sms_listed(flights, now, language, stale, country)
    later = flights[len(listed) : len(listed) + SMS_LATER]
    return {
        "brief": briefs.flights_brief(listed, now, language, country),
        "later": briefs.later_flights(later, language) if later else "",
        "first_flight": flights[0].flight_number,
    }


def flight_details(flight: Flight, now: datetime, language: str) -> tuple[Reply, ...]:
    """Who may board and where to meet, one message each (each alone fills most of an SMS)."""
    replies = []
    for field in ("eligibility", "assembly_point"):
        comma = word("label", "list_separator", language)
        line = f"{flight.flight_number}{comma}{word('label', field, language)}: "
        line += fmt.text(flight, field, language)
        variables = {"detail": isolate_latin(line, language)}
        variables["checked"] = briefs.checked([flight], now, language)
        replies.append(Reply(DETAIL, variables))
    return tuple(replies)


GATES_ONLY_NOW = "utter_gates_only_now"


def left_the_airport(tracker: Tracker) -> bool:
    """Whether this is a follow-up ("and tomorrow?") right after an answer about the airport or
    a gate: a day belongs to the flights (docs/CONVERSATIONS.md), and the person must hear
    that the answer changed topic, not take tomorrow's flights for tomorrow's gates."""
    if (tracker.latest_message.get("intent") or {}).get("name") != "follow_up":
        return False
    for event in previous_turn(tracker):
        name = event.get("name") or ""
        if event.get("event") == "action" and name.startswith("action_answer_"):
            return name == "action_answer_airport_status"
    return False


class ActionAnswerFlights(AnswerFirst, RumourFirst):
    """Answers "next flights?", "flights to Doha tomorrow?", "is QR8010 on time?", "871?".

    While a listed flight's airport or assembly gate is closed, that comes first
    (``closures.py``). An answer to a question with filters says what it answered ("Flights
    for Doha · Wed 2 Dec") and shows only those flights, with one line on how to see the
    others; a day with no flight shows the next one that matches the rest of the question.
    A question naming a country ("flights to Germany") answers the flights to its airports and
    those evacuating people for it, each saying which (``countries.py``).
    """

    RESPONSES: ClassVar[Mapping[str, Shows]] = {
        "utter_flights_list": shows("flights", sms=("brief", "checked", "later")),
        "utter_flights_for": shows("flights", "query", sms=("brief", "checked", "later", "query")),
        "utter_flights_none_then_next": shows(
            "flights", "query", sms=("brief", "checked", "later", "query")
        ),
        "utter_flights_none": shows("query", "destinations"),
        "utter_flights_outdated": shows("query", "provenance"),
        "utter_flight_not_upcoming": shows("flights", "destinations"),
        "utter_flight_number_matches": shows("digits", "numbers"),
        GATES_ONLY_NOW: shows("day"),
        **CLOSURES,
        **DETAILED,
    }

    def name(self) -> str:
        return "action_answer_flights"

    def answer(self, turn: Turn) -> Reply:
        session, tracker, language = turn.session, turn.tracker, turn.language
        query = with_country(tracker, flight_query(tracker))
        airports: Sequence[Airport] = ()
        if query.destination:
            # Looked up first: a place with no airport needs no search through the flights.
            airports = queries.airports_at(session, query.destination)
            query = replace(query, destination_ids=tuple(airport.id for airport in airports))
        reply = self._flights(turn, query, airports)
        shown = [fact for fact in reply.current if isinstance(fact, Flight)]
        closed = closures(session, shown, turn.now, language)
        if closed:
            reply = replace(reply, preface=(*closed, *reply.preface))
        if query.day is not None and left_the_airport(tracker):
            day = {"day": fmt.kabul_day(query.day, language)}
            reply = replace(reply, preface=(Reply(GATES_ONLY_NOW, day), *reply.preface))
        return reply

    def _flights(self, turn: Turn, query: FlightQuery, airports: Sequence[Airport]) -> Reply:
        session, tracker, language, now = turn.session, turn.tracker, turn.language, turn.now
        flights = queries.upcoming_flights(session, now, query)
        stale = self.is_stale(now)
        if flights and asked_detail(tracker) == "flight" and query.flight_number:
            *before, last = flight_details(flights[0], now, language)
            return replace(last, current=flights[:1], preface=tuple(before))
        country = query.country
        if flights:
            variables = {
                "flights": fmt.flight_lines(flights, now, language, country),
                **short_forms(flights, now, language, stale, country),
            }
            if is_filtered(query):
                variables["query"] = asked_for(query, airports, language)
            return Reply(
                "utter_flights_for" if is_filtered(query) else "utter_flights_list",
                variables,
                current=flights,
                listed=sms_listed(flights, now, language, stale, country),
                preface=matched_numbers(query, flights, language),
            )
        if query.day is not None:
            later = queries.upcoming_flights(session, now, replace(query, day=None), limit=1)
            if later:
                return Reply(
                    "utter_flights_none_then_next",
                    {
                        "query": asked_for(query, airports, language),
                        "flights": fmt.flight_lines(later, now, language, country),
                        **short_forms(later, now, language, stale, country),
                    },
                    current=later,
                    listed=sms_listed(later, now, language, stale, country),
                    preface=matched_numbers(query, later, language),
                )

        destinations = fmt.places(
            queries.destinations_with_upcoming_flights(session, now), language
        )
        if query.flight_number:
            finished = queries.finished_flights(session, now, query)
            if finished:
                return Reply(
                    "utter_flight_not_upcoming",
                    {
                        "flights": fmt.flight_lines(finished, now, language),
                        "destinations": destinations,
                    },
                    current=finished,
                    preface=matched_numbers(query, finished, language),
                )

        asked = asked_for(query, airports, language)
        outdated = queries.outdated_flights(session, now, query)
        if outdated:
            return Reply(
                "utter_flights_outdated",
                {"query": asked, "provenance": fmt.provenance(outdated, now, language)},
            )
        return Reply("utter_flights_none", {"query": asked, "destinations": destinations})
