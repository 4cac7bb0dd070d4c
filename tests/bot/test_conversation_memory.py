"""What a conversation remembers: a new question starts over, a follow-up changes one detail."""

from datetime import timedelta
from typing import Any

import pytest

from bot.policies.memory import DETAILS, gate_airport, remembered


def entity(kind: str, value: str) -> dict[str, Any]:
    return {"entity": kind, "value": value}


DOHA_TOMORROW = {"topic": "flights", "destination": "Doha", "date": "2021-08-25"}
SOON = timedelta(minutes=2)


def after(slots: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    return {**dict.fromkeys(("topic", *DETAILS)), **slots, **changes}


def test_a_full_question_keeps_only_what_it_names() -> None:
    slots = {**DOHA_TOMORROW, "date": "2021-08-26"}  # the mapping filled the new date already
    changes = remembered("ask_flights", [entity("date", "2021-08-26")], slots, SOON)
    assert after(slots, changes) == after({}, {"topic": "flights", "date": "2021-08-26"})


def test_a_new_topic_clears_the_old_details() -> None:
    changes = remembered("ask_airport_status", [], DOHA_TOMORROW, SOON)
    assert after(DOHA_TOMORROW, changes) == after({}, {"topic": "airport"})


def test_a_follow_up_changes_one_detail_and_keeps_the_rest() -> None:
    slots = {**DOHA_TOMORROW, "date": "2021-08-26"}
    changes = remembered("follow_up", [entity("date", "2021-08-26")], slots, SOON)
    assert changes == {}  # the slot mapping did it all: topic and destination stay
    slots = {**DOHA_TOMORROW, "destination": "Ramstein"}
    assert remembered("follow_up", [entity("destination", "Ramstein")], slots, SOON) == {}


@pytest.mark.parametrize(
    ("named", "topic"),
    [
        (entity("gate", "KBL/east-gate"), "airport"),
        (entity("airport", "MZR"), "airport"),
        (entity("date", "2021-08-26"), "flights"),
    ],
)
def test_a_detail_of_another_topic_moves_the_conversation_there(
    named: dict[str, Any], topic: str
) -> None:
    start = {"topic": "announcements"}
    slots = {**start, named["entity"]: named["value"]}
    assert remembered("follow_up", [named], slots, SOON)["topic"] == topic


def test_a_gate_brings_its_airport() -> None:
    slots = {"topic": "airport", "airport": "MZR", "gate": "KBL/east-gate"}
    changes = remembered("follow_up", [entity("gate", "KBL/east-gate")], slots, SOON)
    assert changes == {"airport": "KBL"}
    assert gate_airport("KBL/abbey-gate") == "KBL" and gate_airport("nonsense") is None


def test_a_new_airport_forgets_the_gate_of_the_old_one() -> None:
    slots = {"topic": "airport", "airport": "MZR", "gate": "KBL/east-gate"}
    assert remembered("follow_up", [entity("airport", "MZR")], slots, SOON) == {"gate": None}


def test_a_flight_number_and_a_place_exclude_each_other() -> None:
    slots = {**DOHA_TOMORROW, "flight_number": "QR8012"}
    changes = remembered("follow_up", [entity("flight_number", "QR8012")], slots, SOON)
    assert changes == {"destination": None, "date": None}
    slots = {"topic": "flights", "flight_number": "QR8012", "destination": "Dubai"}
    changes = remembered("follow_up", [entity("destination", "Dubai")], slots, SOON)
    assert changes == {"flight_number": None}


def test_after_a_long_silence_a_follow_up_inherits_nothing() -> None:
    slots = {**DOHA_TOMORROW, "date": "2021-08-27"}
    changes = remembered("follow_up", [entity("date", "2021-08-27")], slots, timedelta(minutes=31))
    assert after(slots, changes) == after({}, {"topic": "flights", "date": "2021-08-27"})
    nothing = remembered("follow_up", [], DOHA_TOMORROW, timedelta(hours=20))
    assert after(DOHA_TOMORROW, nothing) == after({}, {})  # no topic left: the menu answers


def test_the_memory_lasts_as_long_as_configured() -> None:
    slots = {**DOHA_TOMORROW, "date": "2021-08-27"}
    named = [entity("date", "2021-08-27")]
    assert remembered("follow_up", named, slots, timedelta(minutes=50), timedelta(hours=1)) == {}


def test_other_messages_change_nothing() -> None:
    assert remembered("thank", [], DOHA_TOMORROW, timedelta(days=3)) == {}
    assert remembered("EXTERNAL_alert", [entity("alert_delivery", "7")], DOHA_TOMORROW, None) == {}


def test_empty_entity_values_are_no_details() -> None:
    changes = remembered("ask_flights", [entity("destination", "")], DOHA_TOMORROW, SOON)
    assert after(DOHA_TOMORROW, changes)["destination"] is None
