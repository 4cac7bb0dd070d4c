"""When the content database cannot be read, every content action still answers, fast.

With ``EMERGENCY_HOTLINE`` set the answer names that number, since the hotlines users are
normally given live in the database that cannot be read.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest

from actions.chat.airport import ActionAnswerAirportStatus
from actions.chat.announcements import ActionAnswerAnnouncements
from actions.chat.documents import ActionAnswerDocuments
from actions.chat.flights import ActionAnswerFlights
from actions.chat.help import ActionAnswerHelp
from actions.content import db
from actions.content.answering import ContentAction
from actions.settings import EMERGENCY_HOTLINE, SettingsError
from tests.actions.content_support import (
    LANGUAGES,
    clock,
    only_message,
    outside_isolates,
    render,
    run,
    tracker,
)

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
HOTLINE = "+93 700 000 100 (Kabul Aid Network)"
ISOLATED_HOTLINE = f"\u2068{HOTLINE}\u2069"
CALL = {
    "en": f"If you need help now, call {HOTLINE}.",
    "prs": f"اگر همین حالا به کمک ضرورت دارید، به {ISOLATED_HOTLINE} زنگ بزنید.",
    "ps": f"که همدا اوس مرستې ته اړتیا لرئ، {ISOLATED_HOTLINE} ته زنګ ووهئ.",
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
    monkeypatch.delenv(EMERGENCY_HOTLINE, raising=False)
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


@pytest.mark.parametrize(("action_class", "fixture"), ACTIONS)
@pytest.mark.parametrize("broken", ["not-migrated", "closed-port"])
@pytest.mark.parametrize("language", LANGUAGES)
async def test_database_down_names_the_operators_hotline_when_one_is_set(
    action_class: type[ContentAction],
    fixture: str,
    broken: str,
    language: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(db.URL_ENV, BROKEN[broken].format(tmp=tmp_path))
    monkeypatch.setenv(EMERGENCY_HOTLINE, f"  {HOTLINE} ")
    messages, events = await run(action_class(clock=clock()), tracker(fixture, language))
    db.dispose_engine()

    assert events == []
    message = only_message(messages)
    assert message["response"] == "utter_content_unavailable_hotline"
    shown = render(message, language)
    assert shown.startswith(SORRY[language])
    assert CALL[language] in shown
    if language == "en":
        assert message["hotline"] == HOTLINE
    else:  # kept whole and in ASCII digits, so that it reads left to right and phones dial it
        assert message["hotline"] == ISOLATED_HOTLINE
        assert HOTLINE not in outside_isolates(shown)


@pytest.mark.parametrize("raw", ["", "   "])
async def test_an_empty_hotline_is_no_hotline(
    raw: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(db.URL_ENV, BROKEN["not-migrated"].format(tmp=tmp_path))
    monkeypatch.setenv(EMERGENCY_HOTLINE, raw)
    messages, _ = await run(ActionAnswerHelp(clock=clock()), tracker("ask_help", "prs"))
    db.dispose_engine()
    message = only_message(messages)
    assert message["response"] == "utter_content_unavailable"
    assert "hotline" not in message


def test_a_hotline_without_a_number_stops_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EMERGENCY_HOTLINE, "Kabul Aid Network")
    with pytest.raises(SettingsError, match="EMERGENCY_HOTLINE is 'Kabul Aid Network'; give a"):
        ActionAnswerHelp()
