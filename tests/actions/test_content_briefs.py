"""The short forms SMS answers show: one line per item, the shortest provenance, GSM-7 English."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine, select

from actions.content import briefs, db
from actions.content.models import Airport, Flight, Organisation
from actions.help import ActionAnswerHelp
from actions.settings import FreshnessLimits
from bot.channels.sms_segments import encoding
from tests.actions.content_support import LANGUAGES, NOW, clock, only_message, run, tracker


def test_the_day_is_today_tomorrow_or_a_weekday_in_kabul_time() -> None:
    # NOW is 09:00 in Kabul on Tue 24 Aug 2021.
    assert briefs.day_and_time(NOW + timedelta(hours=2), NOW, "en") == "today 11:00"
    assert briefs.day_and_time(NOW + timedelta(hours=20), NOW, "prs") == "فردا ۰۵:۰۰"
    assert briefs.day_and_time(NOW + timedelta(days=2), NOW, "ps") == "پنجشنبه ۲۶ ۰۹:۰۰"


@pytest.mark.parametrize("stale", [False, True])
def test_the_shortest_provenance_is_the_oldest_check_and_its_source(
    content_db: Engine, stale: bool
) -> None:
    with db.session_scope() as session:
        flights = session.scalars(select(Flight).order_by(Flight.verified_at)).all()
        oldest = flights[0]
        line = briefs.checked(flights, NOW, "en", stale)
        source = session.get(Organisation, oldest.source_id)
        assert source is not None
        assert line.endswith(f"ago, {source.name_en}")
        assert line.startswith("May be out of date: checked" if stale else "checked")
        assert briefs.checked([], NOW, "en", stale) == ""


def test_english_short_forms_stay_in_the_gsm_alphabet(content_db: Engine) -> None:
    with db.session_scope() as session:
        flights = session.scalars(select(Flight)).all()
        kabul = session.scalars(select(Airport).where(Airport.iata == "KBL")).one()
        texts = [
            briefs.flights_brief(flights, NOW, "en"),
            briefs.gates_brief(kabul.gates, NOW, "en"),
            briefs.checked(flights, NOW, "en", stale=True),
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
    assert len(message["contacts_brief"].split("\n")) == 2
    words = {"en": "May be out of date", "prs": "ممکن کهنه باشد", "ps": "کېدای شي زاړه وي"}
    assert message["checked"].startswith(words[language])
    fresh = ActionAnswerHelp(clock=clock())
    message = only_message((await run(fresh, tracker("ask_help", language)))[0])
    assert not message["checked"].startswith(words[language])
