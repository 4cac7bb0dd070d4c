"""A shared location or a named landmark gets the nearest gates and help points, each with its
state and its own check, in the person's language, short enough for SMS, and never the
coordinates back."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from rasa_sdk import Tracker
from sqlalchemy import Engine, update

from actions.chat.airport import ActionAnswerAirportStatus
from actions.chat.help import ActionAnswerHelp
from actions.content import db
from actions.content.models import Gate, GateState
from actions.content.nearby import Point, distance_m
from bot.channels.places import PLACE_QUESTION, place_metadata
from kernel.sms_segments import encoding, segment_count
from tests.actions.content_support import (
    LANGUAGES,
    clock,
    only_message,
    outside_isolates,
    render,
    run,
    tracker,
)

#: Where the channel's fixtures share a location: a few steps from Abbey Gate, on Airport Road.
NEAR_ABBEY = (34.5596, 69.2172)
#: Berlin: nothing the demo knows is near.
FAR_AWAY = (52.52, 13.405)
#: In Shahr-e Naw, 190 m from the Kabul Aid Network's help point and 4 km from the gates.
NEAR_AID_NETWORK = (34.5395, 69.18)
#: The help point as the answer heads it: its organisation, what it is, how far.
AID_NETWORK = {
    "en": "• Kabul Aid Network (example NGO) — Advice line in Dari and Pashto — 190 m away",
    "prs": "• شبکهٔ کمک‌رسانی کابل (مؤسسهٔ نمونه) — خط مشوره به دری و پشتو — به فاصلهٔ ۱۹۰ متر",
    "ps": "• د کابل د مرستې شبکه (بېلګه موسسه) — په دري او پښتو د مشورې کرښه — ۱۹۰ متره لرې",
}


def shared(lat: float, lon: float, language: str) -> Tracker:
    """The tracker of a location message as the channels hand it to Rasa."""
    state = tracker("ask_help", language)
    state.latest_message["text"] = PLACE_QUESTION
    state.latest_message["metadata"] = place_metadata(lat, lon)
    return state


def typed(text: str, language: str, fixture: str = "ask_help") -> Tracker:
    state = tracker(fixture, language)
    state.latest_message["text"] = text
    return state


async def answer(state: Tracker, action: Any = None) -> dict[str, Any]:
    messages, events = await run(action or ActionAnswerHelp(clock=clock()), state)
    assert events == []
    return only_message(messages)


def heads(message: dict[str, Any]) -> list[str]:
    return [block.split("\n")[0] for block in message["places"].split("\n\n")]


def test_distances_are_great_circle_metres() -> None:
    abbey, baron = Point(34.5594, 69.2175), Point(34.5620, 69.2220)
    assert distance_m(abbey, abbey) == 0
    assert 480 < distance_m(abbey, baron) < 520  # 0.0026° north, 0.0045° east
    assert 4_700_000 < distance_m(abbey, Point(*FAR_AWAY)) < 4_850_000  # Kabul-Berlin


async def test_a_point_near_abbey_gate_gets_abbey_gate_first_and_says_it_is_closed(
    content_db: Engine,
) -> None:
    message = await answer(shared(*NEAR_ABBEY, "en"))
    assert message["response"] == "utter_nearby"
    assert heads(message) == [
        "• Abbey Gate — right here",
        "• Baron Hotel side (UK processing centre) — 510 m away",
        "• Hamid Karzai International Airport — 830 m away",
    ]
    abbey, _, airport = (block.split("\n") for block in message["places"].split("\n\n"))
    assert abbey[1].startswith("  closed — Closed because of a serious security threat.")
    assert abbey[2] == "  verified 40 min ago · source: US Embassy Kabul"
    assert airport[1:] == [
        "  open with restrictions",
        "  verified 25 min ago · source: US Embassy Kabul",
    ]
    # The civilian terminal, 590 m away, was last checked past its validity: not listed.
    assert "Civilian terminal" not in message["places"]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_answer_is_in_the_persons_language_with_each_places_check(
    content_db: Engine, language: str
) -> None:
    message = await answer(shared(*NEAR_ABBEY, language))
    expected = {
        "en": ("closed", "verified 40 min ago", "510 m away"),
        "prs": ("بسته", "۴۰ دقیقه پیش تایید شده", "به فاصلهٔ ۵۱۰ متر"),
        "ps": ("بنده", "۴۰ دقیقې مخکې تایید شوي", "۵۱۰ متره لرې"),
    }[language]
    chat = render(message, language)
    for words in expected:
        assert words in chat
    if language != "en":
        assert not re.search("[A-Za-z0-9]", outside_isolates(chat)), "Latin only in isolates"


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_coordinates_are_never_said_back_nor_logged(
    content_db: Engine, language: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    message = await answer(shared(34.55961, 69.21723, language))
    everything = " ".join(
        [render(message, language)]
        + [render(message, language, channel) for channel in ("sms_gateway", "twilio_sms")]
    )
    digits = everything.translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789"))
    for coordinate in ("34.5", "69.2", "34,5", "69,2", "5596", "2172", "55961", "21723"):
        assert coordinate not in digits.replace("٫", ".")
        assert coordinate not in caplog.text


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_sms_answer_fits_in_three_segments(content_db: Engine, language: str) -> None:
    message = await answer(shared(*NEAR_ABBEY, language))
    sms = render(message, language, "sms_gateway")
    assert segment_count(sms) <= 3, (len(sms), sms)
    closed = {"en": "Abbey Gate, right here: closed", "prs": "بسته", "ps": "بنده"}[language]
    assert closed in sms
    if language == "en":
        assert encoding(sms) == "GSM-7", sms
    assert "checked" in sms or "تایید" in sms


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_help_point_near_the_person_is_listed_first_with_how_to_reach_it(
    content_db: Engine, language: str
) -> None:
    message = await answer(shared(*NEAR_AID_NETWORK, language))
    assert message["response"] == "utter_nearby"
    nearest, *farther = heads(message)
    assert nearest == AID_NETWORK[language]
    assert len(farther) == 2  # the gate and the airport, 4 km away, after it
    chat = render(message, language)
    sms = render(message, language, "sms_gateway")
    for answered in (chat, sms):
        assert "+93 700 000 141" in answered  # its WhatsApp number
    assert segment_count(sms) <= 3


async def test_a_gate_editors_opened_is_said_open(content_db: Engine) -> None:
    with db.session_scope() as session:
        session.execute(update(Gate).where(Gate.slug == "abbey-gate").values(state=GateState.OPEN))
    message = await answer(shared(*NEAR_ABBEY, "en"))
    assert message["places"].split("\n\n")[0].split("\n")[1].startswith("  open — ")


async def test_far_from_every_known_place_the_usual_help_answer(content_db: Engine) -> None:
    message = await answer(shared(*FAR_AWAY, "en"))
    assert message["response"] == "utter_help"


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("near Baron Hotel", "en"),
        ("نزدیک هوتل بارون", "prs"),
        ("د بارون هوټل ته نږدې", "ps"),
    ],
)
async def test_an_sms_reader_can_name_a_landmark_instead(
    content_db: Engine, text: str, language: str
) -> None:
    for fixture, action in (
        ("ask_help", ActionAnswerHelp(clock=clock())),
        ("ask_airport_status", ActionAnswerAirportStatus(clock=clock())),
    ):
        message = await answer(typed(text, language, fixture), action)
        assert message["response"] == "utter_nearby", fixture
        here = {"en": "right here", "prs": "همین‌جا", "ps": "همدلته"}[language]
        assert heads(message)[0].endswith(here)
        assert {"en": "Baron", "prs": "بارون", "ps": "بارون"}[language] in heads(message)[0]


async def test_a_gate_asked_about_without_near_keeps_the_gate_answer(content_db: Engine) -> None:
    state = typed("is Abbey Gate open?", "en", "ask_airport_status")
    state.latest_message["entities"] = [{"entity": "gate", "value": "KBL/abbey-gate"}]
    state.slots["gate"] = "KBL/abbey-gate"
    message = await answer(state, ActionAnswerAirportStatus(clock=clock()))
    assert message["response"] == "utter_gate_status"
