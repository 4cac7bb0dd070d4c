"""Withdrawn facts are never shown, and texts missing a language are shown in another one.

Asks the real actions with a CollectingDispatcher, on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine

from actions.chat.airport import ActionAnswerAirportStatus
from actions.chat.announcements import ActionAnswerAnnouncements
from actions.chat.documents import ActionAnswerDocuments
from actions.chat.flights import ActionAnswerFlights
from actions.chat.help import ActionAnswerHelp
from actions.content import db, editing
from actions.content.answering import ContentAction
from actions.content.review import MissingText, missing_translations
from tests.actions.content_support import NOW, clock, only_message, render, run, tracker

LATER = NOW + timedelta(minutes=5)


async def ask(
    action: Callable[..., ContentAction],
    fixture: str,
    language: str = "en",
    entities: dict[str, str] | None = None,
) -> dict[str, Any]:
    messages, events = await run(action(clock=clock()), tracker(fixture, language, entities))
    assert events == []
    return only_message(messages)


def withdraw(kind: str, key: str) -> int:
    with db.session_scope() as session:
        return editing.withdraw(session, "amina", kind, key, "taken back", now=LATER).id


def rollback(revision_id: int) -> None:
    with db.session_scope() as session:
        editing.rollback(session, "amina", revision_id, now=LATER)


CASES = [
    ("flight", "RCH871@2021-08-24", ActionAnswerFlights, "ask_flights", {}, "RCH871"),
    ("gate", "KBL/east-gate", ActionAnswerAirportStatus, "ask_airport_status", {}, "East Gate"),
    ("airport", "KBL", ActionAnswerAirportStatus, "ask_airport_status", {}, "open with restr"),
    (
        "announcement",
        "us-embassy-gates-2021-08-21",
        ActionAnswerAnnouncements,
        "ask_announcements",
        {},
        "stay away from the airport gates",
    ),
    ("guidance", "keep-documents-hidden", ActionAnswerDocuments, "ask_documents", {}, "hidden"),
    ("guidance", "unhcr-protection-line", ActionAnswerHelp, "ask_help", {}, "+93 700 000 101"),
]


@pytest.mark.parametrize(("kind", "key", "action", "fixture", "entities", "shown"), CASES)
async def test_a_withdrawn_fact_is_not_shown_until_the_withdrawal_is_rolled_back(
    content_db: Engine,
    kind: str,
    key: str,
    action: Callable[..., ContentAction],
    fixture: str,
    entities: dict[str, str],
    shown: str,
) -> None:
    assert shown in render(await ask(action, fixture, entities=entities), "en")
    revision = withdraw(kind, key)
    assert shown not in render(await ask(action, fixture, entities=entities), "en")
    rollback(revision)
    assert shown in render(await ask(action, fixture, entities=entities), "en")


async def test_a_withdrawn_airport_status_reads_as_unknown(content_db: Engine) -> None:
    withdraw("airport", "KBL")
    message = await ask(ActionAnswerAirportStatus, "ask_airport_status")
    assert message["response"] == "utter_airport_status_unknown"


async def test_a_withdrawn_flight_is_not_even_reported_out_of_date(content_db: Engine) -> None:
    asked = {"destination": "Islamabad"}  # PK6250's information expired on purpose
    assert (await ask(ActionAnswerFlights, "ask_flights", entities=asked))["response"] == (
        "utter_flights_outdated"
    )
    withdraw("flight", "PK6250@2021-08-24")
    message = await ask(ActionAnswerFlights, "ask_flights", entities=asked)
    assert message["response"] == "utter_flights_none"
    assert "Islamabad" not in message["destinations"]


async def test_a_withdrawn_flight_asked_by_number_is_not_found(content_db: Engine) -> None:
    withdraw("flight", "QR8010@2021-08-24")
    message = await ask(ActionAnswerFlights, "ask_flights", entities={"flight_number": "QR8010"})
    assert message["response"] == "utter_flights_none"


async def test_a_missing_translation_is_shown_in_english_and_reported(content_db: Engine) -> None:
    note = "Open again for people called by their embassy."
    with db.session_scope() as session:
        revision = editing.publish(
            session,
            "amina",
            "gate",
            "KBL/abbey-gate",
            {"state": "open", "note": {"en": note}},
            now=LATER,
            allow_missing_translation=True,
        )
        assert revision is not None
        assert revision.after["note"] == {"en": note, "prs": "", "ps": ""}
        assert missing_translations(session) == [
            MissingText(revision.kind, "KBL/abbey-gate", "note", ("prs", "ps"))
        ]
    message = await ask(ActionAnswerAirportStatus, "ask_airport_status", "prs")
    assert f"باز — {note}" in message["gates"].replace("\u2068", "").replace("\u2069", "")

    translated = {"prs": "دوباره باز است.", "ps": "بیا خلاصه ده."}
    with db.session_scope() as session:
        filled = editing.publish(
            session, "bilal", "gate", "KBL/abbey-gate", {"note": translated}, now=LATER
        )
        assert filled is not None and filled.changed_fields() == ["note"]  # not re-verified
        assert missing_translations(session) == []
    message = await ask(ActionAnswerAirportStatus, "ask_airport_status", "prs")
    assert "باز — دوباره باز است." in message["gates"]


def test_a_text_cannot_be_published_in_no_language_at_all(content_db: Engine) -> None:
    empty = pytest.raises(editing.ContentError, match="'note' needs a text in at least one")
    with empty, db.session_scope() as session:
        editing.publish(
            session,
            "amina",
            "gate",
            "KBL/abbey-gate",
            {"note": {"en": " "}},
            allow_missing_translation=True,
            now=LATER,
        )
