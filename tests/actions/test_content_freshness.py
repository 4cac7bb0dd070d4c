"""Facts checked long ago are still shown, after a warning that says when they were checked.

Per kind of fact a freshness limit (actions/settings.py) decides; exactly at the limit an answer
is fresh, a minute past it the warning goes first. Real actions, SQLite and PostgreSQL.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, update

from actions.chat.airport import ActionAnswerAirportStatus
from actions.chat.announcements import ActionAnswerAnnouncements
from actions.chat.documents import ActionAnswerDocuments
from actions.chat.flights import ActionAnswerFlights
from actions.chat.help import ActionAnswerHelp
from actions.content import db
from actions.content.answering import ContentAction
from actions.content.freshness import stalest_check
from actions.content.models import (
    AirportStatus,
    Announcement,
    Base,
    Flight,
    Gate,
    GuidanceKind,
    GuidanceTopic,
)
from actions.settings import FreshnessLimits, SettingsError, parse_duration
from tests.actions.content_support import LANGUAGES, NOW, clock, render, run, tracker

WARNING = "utter_content_may_be_outdated"


@dataclass(frozen=True)
class Kind:
    """One kind of fact: how to make its checks older, and the answer that shows it."""

    name: str
    action: type[ContentAction]
    fixture: str
    response: str
    default: timedelta
    models: tuple[type[Base], ...]
    guidance: tuple[GuidanceKind, ...] = ()

    def age_checks(self, age: timedelta) -> None:
        """Every current fact of this kind last checked ``age`` before NOW (still valid)."""
        with db.session_scope() as session:
            for model in self.models:
                statement = update(model).values(verified_at=NOW - age)
                if self.guidance:
                    statement = statement.where(GuidanceTopic.kind.in_(self.guidance))
                session.execute(statement)


KINDS = [
    Kind(
        "airport",
        ActionAnswerAirportStatus,
        "ask_airport_status",
        "utter_airport_status",
        timedelta(hours=2),
        (AirportStatus, Gate),
    ),
    Kind(
        "flights",
        ActionAnswerFlights,
        "ask_flights",
        "utter_flights_list",
        timedelta(hours=6),
        (Flight,),
    ),
    Kind(
        "announcements",
        ActionAnswerAnnouncements,
        "ask_announcements",
        "utter_announcements",
        timedelta(hours=72),
        (Announcement,),
    ),
    Kind(
        "guidance",
        ActionAnswerDocuments,
        "ask_documents",
        "utter_documents",
        timedelta(days=14),
        (GuidanceTopic,),
        (GuidanceKind.DOCUMENTS, GuidanceKind.ELIGIBILITY),
    ),
    Kind(
        "contacts",
        ActionAnswerHelp,
        "ask_help",
        "utter_help",
        timedelta(days=14),
        (GuidanceTopic,),
        (GuidanceKind.CONTACTS,),
    ),
]
CHECKED_AGO = {"airport": "2 h ago", "flights": "6 h ago", "announcements": "3 days ago"}


async def ask(kind: Kind, language: str = "en") -> list[dict[str, Any]]:
    messages, events = await run(kind.action(clock=clock()), tracker(kind.fixture, language, {}))
    assert events == []
    return messages


@pytest.fixture(autouse=True)
def _default_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    for kind in KINDS:
        monkeypatch.delenv(f"CONTENT_FRESHNESS_{kind.name.upper()}", raising=False)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
async def test_just_fresh_answers_without_a_warning(content_db: Engine, kind: Kind) -> None:
    kind.age_checks(kind.default)
    messages = await ask(kind)
    assert [m["response"] for m in messages] == [kind.response]


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
async def test_just_stale_warns_first_and_still_answers(content_db: Engine, kind: Kind) -> None:
    kind.age_checks(kind.default + timedelta(minutes=1))
    warning, answer = await ask(kind)
    assert warning["response"] == WARNING
    assert answer["response"] == kind.response
    expected_ago = CHECKED_AGO.get(kind.name, "14 days ago")
    assert warning["checked_ago"] == expected_ago
    assert f"last checked {expected_ago} (" in render(warning, "en")


WARNED = {  # airport checks 2 h 01 min before NOW (09:00 Kabul)
    "en": "⚠ This information may be out of date: it was last checked 2 h ago "
    "(Tue 24 Aug, 06:59 Kabul time).",
    "prs": "⚠ ممکن است این معلومات کهنه شده باشد: آخرین بار ۲ ساعت پیش، "
    "سه‌شنبه ۲۴ اگست، ساعت ۶:۵۹ صبح (۰۶:۵۹) به وقت کابل، تایید شده است.",
    "ps": "⚠ کېدای شي دا معلومات زاړه شوي وي: وروستی ځل ۲ ساعته مخکې، "
    "د کابل په وخت سه‌شنبه ۲۴ اګست، د سهار ۶:۵۹ بجې (۰۶:۵۹)، تایید شوي دي.",
}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_warning_is_in_the_users_language(content_db: Engine, language: str) -> None:
    KINDS[0].age_checks(timedelta(hours=2, minutes=1))
    warning, answer = await ask(KINDS[0], language)
    assert render(warning, language).startswith(WARNED[language])
    assert answer["response"] == "utter_airport_status"


async def test_one_stale_gate_is_enough_and_its_check_is_the_one_named(
    content_db: Engine,
) -> None:
    """The status is fresh; one current gate was checked 3 h ago."""
    with db.session_scope() as session:
        session.execute(
            update(Gate)
            .where(Gate.slug == "east-gate")
            .values(verified_at=NOW - timedelta(hours=3))
        )
    warning, answer = await ask(KINDS[0])
    assert (warning["checked_ago"], warning["checked_at"]) == ("3 h ago", "Tue 24 Aug, 06:00")
    assert "• East Gate: open" in answer["gates"]


async def test_an_out_of_date_answer_needs_no_freshness_warning(content_db: Engine) -> None:
    """Past valid_until the answer itself says the information is out of date."""
    messages, _ = await run(
        ActionAnswerAirportStatus(clock=clock(timedelta(hours=4, minutes=1))),
        tracker("ask_airport_status", "en", {}),
    )
    assert [m["response"] for m in messages] == ["utter_airport_status_outdated"]


@pytest.mark.parametrize(("age", "warned"), [("90m", False), ("91m", True)])
async def test_the_limit_of_one_kind_can_be_set_in_the_environment(
    content_db: Engine, monkeypatch: pytest.MonkeyPatch, age: str, warned: bool
) -> None:
    monkeypatch.setenv("CONTENT_FRESHNESS_AIRPORT", "90m")
    KINDS[0].age_checks(parse_duration("age", age))
    messages = await ask(KINDS[0])
    expected = [WARNING, "utter_airport_status"] if warned else ["utter_airport_status"]
    assert [m["response"] for m in messages] == expected
    KINDS[1].age_checks(timedelta(minutes=91))  # flights keep their own limit (6 h)
    assert [m["response"] for m in await ask(KINDS[1])] == ["utter_flights_list"]


def test_defaults_and_overrides_from_the_environment() -> None:
    assert FreshnessLimits.from_env({}) == FreshnessLimits(
        airport=timedelta(hours=2),
        flights=timedelta(hours=6),
        announcements=timedelta(hours=72),
        guidance=timedelta(days=14),
        contacts=timedelta(days=14),
    )
    limits = FreshnessLimits.from_env(
        {"CONTENT_FRESHNESS_AIRPORT": "90m", "CONTENT_FRESHNESS_CONTACTS": " 7d ", "OTHER": "1m"}
    )
    assert limits.airport == timedelta(minutes=90)
    assert limits.contacts == timedelta(days=7)
    assert limits.flights == timedelta(hours=6)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("90m", timedelta(minutes=90)),
        ("2h", timedelta(hours=2)),
        ("1h30m", timedelta(minutes=90)),
        ("14d", timedelta(days=14)),
        ("1d 12H", timedelta(hours=36)),
    ],
)
def test_durations(raw: str, expected: timedelta) -> None:
    assert parse_duration("X", raw) == expected


@pytest.mark.parametrize("raw", ["90", "two hours", "-1h", "0m", "1.5h", "h"])
def test_a_bad_duration_names_the_variable_and_what_to_give(raw: str) -> None:
    with pytest.raises(SettingsError, match=r"CONTENT_FRESHNESS_FLIGHTS is .*(90m|zero)"):
        FreshnessLimits.from_env({"CONTENT_FRESHNESS_FLIGHTS": raw})


def test_a_bad_limit_stops_the_action_server_when_it_creates_the_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CONTENT_FRESHNESS_ANNOUNCEMENTS", "3 days")
    with pytest.raises(SettingsError, match="CONTENT_FRESHNESS_ANNOUNCEMENTS"):
        ActionAnswerAnnouncements()


def test_the_stalest_check_of_the_stale_facts_is_named() -> None:
    limits = FreshnessLimits()
    fresh_flight = Flight(verified_at=NOW - timedelta(hours=5))
    stale_flight = Flight(verified_at=NOW - timedelta(hours=7))
    older_stale_flight = Flight(verified_at=NOW - timedelta(hours=9))
    announcement = Announcement(verified_at=NOW - timedelta(hours=9))  # fresh for 72 h
    contact = GuidanceTopic(kind=GuidanceKind.CONTACTS, verified_at=NOW - timedelta(days=15))
    advice = GuidanceTopic(kind=GuidanceKind.DOCUMENTS, verified_at=NOW - timedelta(days=13))
    assert stalest_check([fresh_flight, announcement, advice], NOW, limits) is None
    assert stalest_check([fresh_flight, older_stale_flight, stale_flight], NOW, limits) == (
        NOW - timedelta(hours=9)
    )
    assert stalest_check([contact, advice], NOW, limits) == NOW - timedelta(days=15)
