"""``action_answer_flights``: upcoming evacuation flights, filtered by what the user asked."""

from __future__ import annotations

import logging
import re
from datetime import date, datetime

from rasa_sdk import Tracker
from sqlalchemy.orm import Session

from actions.content import format as fmt
from actions.content import queries
from actions.content.answering import ContentAction, Reply, latest_entity
from actions.content.models import Airport
from actions.content.queries import FlightQuery

logger = logging.getLogger(__name__)


def flight_query(tracker: Tracker) -> FlightQuery:
    """The filters in the latest message's entities (already canonical; tidied defensively)."""
    day: date | None = None
    raw_day = latest_entity(tracker, "date")
    if raw_day is not None:
        try:
            day = date.fromisoformat(raw_day)
        except ValueError:
            # Better all upcoming flights than none: the list shows each flight's day.
            logger.warning("ignoring a date entity that is not an ISO date")
    number = latest_entity(tracker, "flight_number")
    return FlightQuery(
        destination=latest_entity(tracker, "destination"),
        day=day,
        flight_number=re.sub(r"\s+", "", number).upper() if number else None,
    )


class ActionAnswerFlights(ContentAction):
    """Answers "next flights?", "flights to Doha tomorrow?", "is QR8010 on time?"."""

    def name(self) -> str:
        return "action_answer_flights"

    def answer(self, session: Session, tracker: Tracker, language: str, now: datetime) -> Reply:
        query = flight_query(tracker)
        flights = queries.upcoming_flights(session, now, query)
        if flights:
            return Reply(
                "utter_flights_list",
                {
                    "flights": fmt.flight_lines(flights, language),
                    "provenance": fmt.provenance(flights, now, language),
                },
            )

        destinations = fmt.places(
            queries.destinations_with_upcoming_flights(session, now), language
        )
        if query.flight_number:
            finished = queries.finished_flights(session, now, query.flight_number)
            if finished:
                return Reply(
                    "utter_flight_not_upcoming",
                    {
                        "flights": fmt.flight_lines(finished, language),
                        "provenance": fmt.provenance(finished, now, language),
                        "destinations": destinations,
                    },
                )

        asked_place: Airport | str | None = None
        if query.destination:
            # Name the place in the user's language when we know it (Frankfurt → فرانکفورت).
            asked_place = queries.airport_by_place(session, query.destination) or query.destination
        asked = fmt.query(asked_place, query.day, query.flight_number, language)
        outdated = queries.outdated_flights(session, now, query)
        if outdated:
            return Reply(
                "utter_flights_outdated",
                {"query": asked, "provenance": fmt.provenance(outdated, now, language)},
            )
        return Reply("utter_flights_none", {"query": asked, "destinations": destinations})
