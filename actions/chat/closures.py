"""A flight answer given while its airport or its assembly gate is closed says so first.

"Assembly point: North Gate. Come only if you received the call-up e-mail" read while the
airport is closed after an explosion sends people into danger. So before the flights, each
closed airport they leave from gets one line, its advice and its check (a closed airport
says it for all its gates), and otherwise each closed gate that a listed flight's assembly
point names. A gate is named when its short name ("North Gate") is in the assembly point's
text, in any of the three languages: the assembly point is the editor's free text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Final

from sqlalchemy.orm import Session

from actions.content import format as fmt
from actions.content import queries
from actions.content.answering import Reply, Shows, shows
from actions.content.localise import isolate_latin
from actions.content.models import Airport, AirportState, Flight, Gate, GateState
from kernel.lang.codes import LANGUAGES

AIRPORT_CLOSED = "utter_flights_airport_closed"
GATE_CLOSED = "utter_flights_gate_closed"
#: What ``closures`` sends (``ContentAction.RESPONSES``).
CLOSURES: Final[Mapping[str, Shows]] = {
    AIRPORT_CLOSED: shows("advice", "airport", "provenance", sms=("airport",)),
    GATE_CLOSED: shows("flights", "gate", sms=("flights", "gate_name")),
}


def closures(
    session: Session, flights: Sequence[Flight], now: datetime, language: str
) -> tuple[Reply, ...]:
    """What is closed now that the listed flights depend on, one reply each, before them."""
    said: list[Reply] = []
    for iata in dict.fromkeys(flight.origin.iata for flight in flights):
        airport = queries.airport_with_status(session, iata)
        if airport is None:
            continue
        leaving = [flight for flight in flights if flight.origin.iata == iata]
        closed = _airport_closed(airport, now, language)
        if closed is not None:
            said.append(closed)
            continue
        said.extend(_gates_closed(airport.gates, leaving, now, language))
    return tuple(said)


def _airport_closed(airport: Airport, now: datetime, language: str) -> Reply | None:
    status = airport.status
    if status is None or not status.is_current(now) or status.state is not AirportState.CLOSED:
        return None
    return Reply(
        AIRPORT_CLOSED,
        {
            "airport": isolate_latin(fmt.text(airport, "name", language), language),
            "advice": isolate_latin(fmt.text(status, "advice", language), language),
            "provenance": fmt.verified(status, now, language),
        },
        current=[status],
    )


def _gates_closed(
    gates: Iterable[Gate], flights: Sequence[Flight], now: datetime, language: str
) -> list[Reply]:
    said = []
    for gate in gates:
        if not gate.is_current(now) or gate.state is not GateState.CLOSED:
            continue
        meeting = [flight for flight in flights if _names(flight, gate)]
        if not meeting:
            continue
        numbers = fmt.flight_numbers(meeting, language)
        said.append(
            Reply(
                GATE_CLOSED,
                {
                    "flights": numbers,
                    "gate": fmt.gate_line(gate, now, language),
                    "gate_name": isolate_latin(
                        fmt.short_name(fmt.text(gate, "name", language)), language
                    ),
                },
                current=[gate],
            )
        )
    return said


def _names(flight: Flight, gate: Gate) -> bool:
    """Whether the flight's assembly point names the gate, in any language."""
    for language in LANGUAGES:
        name = fmt.short_name(fmt.text(gate, "name", language)).casefold()
        if name and name in fmt.text(flight, "assembly_point", language).casefold():
            return True
    return False
