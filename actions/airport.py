"""``action_answer_airport_status``: is the airport open, which gates, what to watch out for."""

from __future__ import annotations

from datetime import datetime

from rasa_sdk import Tracker
from sqlalchemy.orm import Session

from actions.content import format as fmt
from actions.content import queries
from actions.content.answering import ContentAction, Reply, latest_entity
from actions.content.localise import LABELS, STATUS, isolate_latin, word

DEFAULT_AIRPORT = "KBL"


class ActionAnswerAirportStatus(ContentAction):
    """Answers "is the airport open?", "is Abbey Gate open?" (entity ``airport``, default KBL)."""

    def name(self) -> str:
        return "action_answer_airport_status"

    def answer(self, session: Session, tracker: Tracker, language: str, now: datetime) -> Reply:
        iata = (latest_entity(tracker, "airport") or DEFAULT_AIRPORT).upper()
        return airport_reply(session, iata, language, now)


def airport_reply(session: Session, iata: str, language: str, now: datetime) -> Reply:
    """The airport's state, gates, advice and their checks; also the body of an airport alert."""
    airport = queries.airport_with_status(session, iata)
    if airport is None:
        return Reply("utter_airport_status_unknown", {"airport": isolate_latin(iata, language)})

    name = isolate_latin(fmt.text(airport, "name", language), language)
    status = airport.status
    if status is None:
        return Reply("utter_airport_status_unknown", {"airport": name})
    if not status.is_current(now):
        return Reply(
            "utter_airport_status_outdated",
            {"airport": name, "provenance": fmt.provenance([status], now, language)},
        )

    current_gates = [gate for gate in airport.gates if gate.is_current(now)]
    gates = "\n".join(fmt.gate_line(gate, now, language) for gate in airport.gates)
    return Reply(
        "utter_airport_status",
        {
            "airport": name,
            "status": word(STATUS, status.state.value, language),
            "gates": gates or word(LABELS, "none", language),
            "advice": isolate_latin(fmt.text(status, "advice", language), language),
            "provenance": fmt.provenance([status, *current_gates], now, language),
        },
        current=[status, *current_gates],
    )
