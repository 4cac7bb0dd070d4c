"""``action_answer_airport_status``: is the airport open, which gates, what to watch out for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import ClassVar, Final

from rasa_sdk import Tracker
from sqlalchemy.orm import Session

from actions.chat.answers import AnswerFirst
from actions.chat.claim_verdicts import RumourFirst
from actions.chat.nearby import NEARBY_SHOWN, named_point, nearby_reply
from actions.content import briefs, queries
from actions.content import format as fmt
from actions.content.answering import DETAIL, DETAILED, Reply, Shows, asked_detail, detail, shows
from actions.content.database_action import Turn
from actions.content.localise import isolate_latin, word
from actions.content.models import Provenance

#: The airport a question names none for, and whose alerts a subscription names no airport for.
DEFAULT_AIRPORT = "KBL"
#: What ``airport_reply`` sends.
AIRPORT_STATUS: Final[Mapping[str, Shows]] = {
    "utter_airport_status": shows(
        "airport", "status", "gates", "advice", "provenance",
        sms=("city", "status", "gates_brief", "checked", "gates_elsewhere"),
    ),
    "utter_airport_status_outdated": shows("airport", "provenance"),
    "utter_airport_status_unknown": shows("airport"),
}  # fmt: skip
#: What ``gate_reply`` sends.
GATE_STATUS: Final[Mapping[str, Shows]] = {
    "utter_gate_status": shows(
        "airport", "gate", "provenance", "status", sms=("checked", "gate_brief")
    )
}


class ActionAnswerAirportStatus(AnswerFirst, RumourFirst):
    """Answers "is the airport open?" (entity ``airport``, default KBL) and "is the East Gate
    open?" (entity ``gate``: that gate first and fully, one line on how to see the others;
    each gate a message names, when it names several);
    a rumour's own phrasing ("Is the Torkham border open?") gets its verdict first."""

    RESPONSES: ClassVar[Mapping[str, Shows]] = {
        **AIRPORT_STATUS,
        **GATE_STATUS,
        **NEARBY_SHOWN,
        **DETAILED,
    }

    def name(self) -> str:
        return "action_answer_airport_status"

    def answer(self, turn: Turn) -> Reply:
        session, tracker, language, now = turn.session, turn.tracker, turn.language, turn.now
        iata = (detail(tracker, "airport") or DEFAULT_AIRPORT).upper()
        if asked_detail(tracker) == "advice":
            return advice_reply(session, iata, language, now)
        # "Near Baron Hotel": the places around it, not only that gate (nearby.py).
        point = named_point(session, tracker, now)
        near = None if point is None else nearby_reply(session, point, language, now)
        if near is not None:
            return near
        named = named_gates(tracker)
        if len(named) > 1:
            # "Is Abbey Gate or East Gate open?": each gate, in the order asked.
            *first, last = (gate_reply(session, iata, gate, language, now) for gate in named)
            before = tuple(part for reply in first for part in self.completed(reply, turn))
            return replace(last, preface=(*before, *last.preface))
        gate = detail(tracker, "gate")
        if gate:
            return gate_reply(session, iata, gate, language, now)
        return airport_reply(session, iata, language, now, self.is_stale(now))


def named_gates(tracker: Tracker) -> list[str]:
    """The gates the latest message names, each once, in its order."""
    values = tracker.get_latest_entity_values("gate")
    return list(dict.fromkeys(v.strip() for v in values if isinstance(v, str) and v.strip()))


def gate_reply(session: Session, iata: str, gate_key: str, language: str, now: datetime) -> Reply:
    """One gate's state and note, with its airport's state; the whole airport when the gate is
    not one of this airport's (a gate named with another airport) or its airport has no
    current status (the airport's answer says so)."""
    airport = queries.airport_with_status(session, iata)
    slug = gate_key.partition("/")[2] if "/" in gate_key else gate_key
    gate = next((g for g in airport.gates if g.slug == slug), None) if airport else None
    status = airport.status if airport else None
    if airport is None or gate is None or status is None or not status.is_current(now):
        return airport_reply(session, iata, language, now)
    facts: list[Provenance] = [status, gate] if gate.is_current(now) else [status]
    return Reply(
        "utter_gate_status",
        {
            "gate": fmt.gate_line(gate, now, language),
            "airport": isolate_latin(fmt.text(airport, "name", language), language),
            "status": word("status", status.state.value, language),
            # The gate line carries the gate's own check; this one is the airport's.
            "provenance": fmt.verified(status, now, language),
            "gate_brief": briefs.gate_brief(gate, now, language),
        },
        current=facts,
        # The SMS form shows the gate alone: its check, not the airport's.
        listed=[gate],
    )


def airport_reply(
    session: Session,
    iata: str,
    language: str,
    now: datetime,
    stale: Callable[[Provenance], bool] = lambda fact: False,
) -> Reply:
    """The airport's state, gates, advice and their checks; also the body of an airport alert.

    The SMS form lists the gates the airport's own source checked under its check line, and
    those another source checked each on a line with that source's check (``stale`` says
    which checks are past their freshness limit).
    """
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
    same_source = [gate for gate in current_gates if gate.source_id == status.source_id]
    gates = "\n".join(fmt.gate_line(gate, now, language) for gate in airport.gates)
    return Reply(
        "utter_airport_status",
        {
            "airport": name,
            "status": word("status", status.state.value, language),
            "gates": gates or word("label", "none", language),
            "advice": isolate_latin(fmt.text(status, "advice", language), language),
            # Each gate line carries its own check; this one is the airport's and its advice's.
            "provenance": fmt.verified(status, now, language),
            "gates_brief": briefs.gates_brief(airport.gates, now, language, status.source_id),
            "gates_elsewhere": briefs.gates_elsewhere(
                airport.gates, now, language, status.source_id, stale
            ),
            "city": isolate_latin(fmt.text(airport, "city", language), language),
        },
        current=[status, *current_gates],
        listed=[status, *same_source],
    )


def advice_reply(session: Session, iata: str, language: str, now: datetime) -> Reply:
    """The airport's crowd and safety advice alone: the detail an SMS answer offers by number."""
    airport = queries.airport_with_status(session, iata)
    status = airport.status if airport else None
    if airport is None or status is None or not status.is_current(now):
        return airport_reply(session, iata, language, now)
    advice = isolate_latin(fmt.text(status, "advice", language), language)
    return Reply(DETAIL, {"detail": advice}, current=[status])
