"""When the content database cannot be read, every content action still answers, fast."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest

from actions.airport import ActionAnswerAirportStatus
from actions.announcements import ActionAnswerAnnouncements
from actions.content import db
from actions.content.answering import ContentAction
from actions.documents import ActionAnswerDocuments
from actions.flights import ActionAnswerFlights
from actions.help import ActionAnswerHelp
from tests.actions.content_support import LANGUAGES, clock, only_message, render, run, tracker

ACTIONS: list[tuple[type[ContentAction], str]] = [
    (ActionAnswerFlights, "ask_flights"),
    (ActionAnswerAirportStatus, "ask_airport_status"),
    (ActionAnswerAnnouncements, "ask_announcements"),
    (ActionAnswerDocuments, "ask_documents"),
    (ActionAnswerHelp, "ask_help"),
]
BROKEN = {
    "unopenable-file": "sqlite:///{tmp}/no/such/dir/content.db",
    "not-migrated": "sqlite:///{tmp}/empty.db",
    "closed-port": "postgresql+psycopg://postgres@127.0.0.1:1/content",
}
SORRY = {
    "en": "Sorry, I cannot read the latest checked information right now.",
    "prs": "متأسفانه همین حالا نمی‌توانم تازه‌ترین معلومات تایید شده را بخوانم.",
    "ps": "بښنه غواړم، اوس مهال تازه تایید شوي معلومات نه شم لوستلای.",
}


@pytest.mark.parametrize(("action_class", "fixture"), ACTIONS)
@pytest.mark.parametrize("broken", BROKEN)
@pytest.mark.parametrize("language", LANGUAGES)
async def test_database_down_answers_content_unavailable(
    action_class: type[ContentAction],
    fixture: str,
    broken: str,
    language: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv(db.URL_ENV, BROKEN[broken].format(tmp=tmp_path))
    state = tracker(fixture, language, {"destination": "Doha"})
    started = time.monotonic()
    with caplog.at_level(logging.DEBUG):
        messages, events = await run(action_class(clock=clock()), state)
    db.dispose_engine()

    assert time.monotonic() - started < 5, "a dead database must fail fast"
    assert events == []
    message = only_message(messages)
    assert message["response"] == "utter_content_unavailable"
    assert render(message, language).startswith(SORRY[language])

    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None
    assert action_class().name() in errors[0].getMessage()
    assert state.sender_id not in caplog.text
    assert state.latest_message["text"] not in caplog.text
