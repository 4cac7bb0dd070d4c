"""The short forms SMS answers show: one line per item, the shortest provenance, GSM-7 English."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import Engine, select

from actions.chat.help import ActionAnswerHelp
from actions.content import briefs, db
from actions.content.models import Airport, Flight, Organisation
from actions.settings import FreshnessLimits
from kernel.sms_segments import encoding
from tests.actions.content_support import LANGUAGES, NOW, clock, only_message, run, tracker

SOURCE = "us-embassy-kabul"


def test_the_day_is_today_tomorrow_or_a_weekday_in_kabul_time() -> None:
    # NOW is 09:00 in Kabul on Tue 24 Aug 2021. Dari and Pashto say the part of the day, and
    # name a time after midnight by its night (tests/actions/test_night_hours.py).
    assert briefs.day_and_time(NOW + timedelta(hours=2), NOW, "en") == "today 11:00"
    assert briefs.day_and_time(NOW + timedelta(hours=20), NOW, "prs") == "فردا ۵ صبح"
    assert (
        briefs.day_and_time(NOW + timedelta(hours=16, minutes=58), NOW, "prs")
        == "امشب ۱:۵۸ بعد از نیمه‌شب"
    )
    assert briefs.day_and_time(NOW + timedelta(hours=6), NOW, "prs") == "امروز ۳ بعد از چاشت"
    assert briefs.day_and_time(NOW + timedelta(days=2), NOW, "ps") == "پنجشنبه ۲۶ د سهار ۹ بجې"
    assert (
        briefs.day_and_time(NOW + timedelta(hours=16), NOW, "ps") == "نن شپه ۱ له نیمې شپې وروسته"
    )
    assert briefs.day_and_time(NOW + timedelta(hours=16), NOW, "en") == "tomorrow 01:00"


def test_no_sms_flight_time_is_a_bare_24_hour_time() -> None:
    for hour in range(24):
        for language in ("prs", "ps"):
            said = briefs.day_and_time(NOW + timedelta(hours=hour), NOW, language)
            assert not re.search("[۰-۹]{2}:[۰-۹]{2}", said), said


@pytest.mark.parametrize("stale", [False, True])
def test_one_source_vouches_with_its_oldest_check(content_db: Engine, stale: bool) -> None:
    with db.session_scope() as session:
        embassy = session.scalars(select(Organisation).where(Organisation.slug == SOURCE)).one()
        flights = session.scalars(
            select(Flight).where(Flight.source_id == embassy.id).order_by(Flight.verified_at)
        ).all()
        line = briefs.checked(flights, NOW, "en", lambda fact: stale)
        assert (
            line == ("May be out of date: " if stale else "") + "checked 3 h ago, US Embassy Kabul"
        )
        assert briefs.checked([], NOW, "en") == ""


def test_several_sources_each_name_what_they_checked(content_db: Engine) -> None:
    with db.session_scope() as session:
        by_number = {f.flight_number: f for f in session.scalars(select(Flight))}
        listed = [by_number[n] for n in ("RCH871", "GAF612", "RCH618")]
        stale = {by_number["RCH618"].id}  # the embassy's group holds a stale check
        line = briefs.checked(listed, NOW, "en", lambda fact: fact.id in stale)
        assert line.split("\n") == [
            "RCH871, RCH618: May be out of date: checked 3 h ago, US Embassy Kabul",
            "GAF612: checked 35 min ago, German Federal Foreign Office",
        ]
        # A long list (an airport and its gates) names the exceptions only.
        kabul = session.scalars(select(Airport).where(Airport.iata == "KBL")).one()
        facts = [kabul.status, *(gate for gate in kabul.gates if gate.is_current(NOW))]
        assert briefs.checked(facts, NOW, "en").split("\n") == [
            "checked 1 h ago, US Embassy Kabul",
            "Baron Hotel side: checked 1 h ago, UK Foreign Office (FCDO)",
        ]


def test_english_short_forms_stay_in_the_gsm_alphabet(content_db: Engine) -> None:
    with db.session_scope() as session:
        flights = session.scalars(select(Flight)).all()
        kabul = session.scalars(select(Airport).where(Airport.iata == "KBL")).one()
        texts = [
            briefs.flights_brief(flights, NOW, "en"),
            briefs.later_flights(flights, "en"),
            briefs.gates_brief(kabul.gates, NOW, "en"),
            briefs.gates_elsewhere(kabul.gates, NOW, "en", source_id=-1),
            briefs.checked(flights, NOW, "en", lambda fact: True),
            *(briefs.gate_brief(gate, NOW, "en") for gate in kabul.gates),
        ]
    for text in texts:
        assert encoding(text) == "GSM-7", text


@pytest.mark.parametrize("language", LANGUAGES)
async def test_help_on_sms_vouches_only_for_the_numbers_it_shows(
    content_db: Engine, language: str
) -> None:
    # Contacts are 2 h fresh or older; a 1 h limit makes every shown number stale.
    limits = FreshnessLimits.from_env({"CONTENT_FRESHNESS_CONTACTS": "1h"})
    action = ActionAnswerHelp(clock=clock(), freshness=limits)
    messages, _ = await run(action, tracker("ask_help", language))
    message = messages[-1]
    assert message["response"] == "utter_help"
    assert len(message["contacts_brief"].split("\n")) == {"en": 2}.get(language, 1)
    words = {"en": "May be out of date", "prs": "ممکن کهنه باشد", "ps": "کېدای شي زاړه وي"}
    assert all(words[language] in line for line in message["checked"].split("\n"))
    fresh = ActionAnswerHelp(clock=clock())
    message = only_message((await run(fresh, tracker("ask_help", language)))[0])
    assert words[language] not in message["checked"]
