"""A text not yet translated is shown in the language the reader most likely reads, with a note.

Never blank: Pashto readers get Dari, then English; Dari readers get English, then Pashto;
English readers get Dari, then Pashto (the reasons: ``READING_ORDER`` in localise.py). Each
action is asked after an editor published a text with ``allow_missing_translation``.
"""

from __future__ import annotations

from dataclasses import dataclass
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
from actions.content import format as fmt
from actions.content.answering import ContentAction
from actions.content.models import Organisation
from tests.actions.content_support import NOW, clock, only_message, run, tracker

FSI, PDI = "\u2068", "\u2069"
EN, PRS, PS = "Bring water.", "آب همراه داشته باشید.", "اوبه له ځان سره راوړئ."
IN_ENGLISH = {"prs": "(به انگلیسی — هنوز ترجمه نشده)", "ps": "(په انګلیسي — لا نه دی ژباړل شوی)"}


@pytest.mark.parametrize(
    ("reader", "stored", "shown"),
    [
        ("prs", {"prs": PRS, "en": EN}, PRS),
        ("prs", {"en": EN}, f"{FSI}{EN}{PDI} {IN_ENGLISH['prs']}"),
        ("prs", {"en": EN, "ps": PS}, f"{FSI}{EN}{PDI} {IN_ENGLISH['prs']}"),
        ("prs", {"ps": PS}, f"{PS} (به پشتو — هنوز ترجمه نشده)"),
        ("ps", {"en": EN, "prs": PRS}, f"{PRS} (په دري — لا نه دی ژباړل شوی)"),
        ("ps", {"en": EN}, f"{FSI}{EN}{PDI} {IN_ENGLISH['ps']}"),
        ("en", {"prs": PRS, "ps": PS}, f"{FSI}{PRS}{PDI} (in Dari — not yet translated)"),
        ("en", {"ps": PS}, f"{FSI}{PS}{PDI} (in Pashto — not yet translated)"),
        ("en", {"en": EN, "prs": PRS}, EN),
    ],
)
def test_reading_order_and_note(reader: str, stored: dict[str, str], shown: str) -> None:
    org = Organisation(**{f"name_{lang}": stored.get(lang, "") for lang in ("en", "prs", "ps")})
    assert fmt.text(org, "name", reader) == shown


def test_a_text_no_language_has_stays_empty_without_a_note() -> None:
    org = Organisation(name_en="", name_prs="", name_ps="")
    assert fmt.text(org, "name", "prs") == ""


@dataclass(frozen=True)
class Place:
    """Where one action shows one editable text: which record, field and answer variable."""

    action: type[ContentAction]
    fixture: str
    kind: str
    key: str
    field: str
    variable: str
    entities: dict[str, str] | None = None


PLACES = {
    "flights": Place(
        ActionAnswerFlights, "ask_flights", "flight", "RCH871@2021-08-24", "eligibility", "flights"
    ),
    "airport": Place(
        ActionAnswerAirportStatus, "ask_airport_status", "airport", "KBL", "advice", "advice"
    ),
    "gate": Place(
        ActionAnswerAirportStatus, "ask_airport_status", "gate", "KBL/east-gate", "note", "gates"
    ),
    "announcements": Place(
        ActionAnswerAnnouncements,
        "ask_announcements",
        "announcement",
        "us-embassy-gates-2021-08-21",
        "text",
        "announcements",
    ),
    "documents": Place(
        ActionAnswerDocuments,
        "ask_documents",
        "guidance",
        "passport-or-tazkira",
        "body",
        "documents",
    ),
    "help": Place(
        ActionAnswerHelp, "ask_help", "guidance", "unhcr-protection-line", "hours", "contacts"
    ),
    "source": Place(
        ActionAnswerAirportStatus,
        "ask_airport_status",
        "organisation",
        "us-embassy-kabul",
        "name",
        "provenance",
    ),
}


def publish(place: Place, texts: dict[str, str]) -> None:
    with db.session_scope() as session:
        revision = editing.publish(
            session,
            "amina",
            place.kind,
            place.key,
            {place.field: texts},
            now=NOW - timedelta(minutes=1),
            allow_missing_translation=True,
        )
        assert revision is not None


async def ask(place: Place, language: str) -> dict[str, Any]:
    state = tracker(place.fixture, language, place.entities or {})
    messages, events = await run(place.action(clock=clock()), state)
    assert events == []
    return only_message(messages)


@pytest.mark.parametrize("where", PLACES)
@pytest.mark.parametrize("reader", ["prs", "ps"])
async def test_an_english_only_text_is_shown_in_english_with_a_note(
    content_db: Engine, where: str, reader: str
) -> None:
    place = PLACES[where]
    publish(place, {"en": EN})
    message = await ask(place, reader)
    assert f"{FSI}{EN}{PDI} {IN_ENGLISH[reader]}" in message[place.variable]


@pytest.mark.parametrize("where", PLACES)
async def test_a_pashto_reader_gets_dari_before_english(content_db: Engine, where: str) -> None:
    place = PLACES[where]
    publish(place, {"en": EN, "prs": PRS})
    message = await ask(place, "ps")
    assert f"{PRS} (په دري — لا نه دی ژباړل شوی)" in message[place.variable]
    assert EN not in message[place.variable]


@pytest.mark.parametrize("where", PLACES)
async def test_an_english_reader_gets_dari_when_english_is_missing(
    content_db: Engine, where: str
) -> None:
    place = PLACES[where]
    publish(place, {"prs": PRS, "ps": PS})
    message = await ask(place, "en")
    assert f"{FSI}{PRS}{PDI} (in Dari — not yet translated)" in message[place.variable]


async def test_a_translated_text_has_no_note(content_db: Engine) -> None:
    place = PLACES["flights"]
    publish(place, {"en": EN, "prs": PRS, "ps": PS})
    message = await ask(place, "prs")
    assert f"{PRS}\n" in message["flights"]
    assert "ترجمه نشده" not in message["flights"]
