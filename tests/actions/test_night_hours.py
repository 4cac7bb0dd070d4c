"""Times after midnight, as a Kabul reader takes them: 01:35 on Wednesday is "Tuesday night".

«فردا شب» / «سبا شپه» is the night after tomorrow's day, so «فردا ۱:۳۵ شب» said on Tuesday
evening of the 01:35 coming that night sends the reader a day late. Every hour of a day, asked
at four moments, in Dari and Pashto, on chat and SMS: the night is named by its evening, "after
midnight" is said, and the calendar day stays right; English and the hours from 04:00 as before.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, select

from actions.chat.flights import ActionAnswerFlights
from actions.common.kabul_time import KABUL
from actions.content import db
from actions.content.briefs import day_and_time
from actions.content.format import clock, departure
from actions.content.models import Flight
from kernel.lang.calendar import reckoned_day
from tests.actions.content_support import render, run, tracker

#: The flights leave on Wednesday 25 August 2021, at HH:35 Kabul time.
DAY = datetime(2021, 8, 25, tzinfo=KABUL)
#: When the person asks: the evening before, in the same night, the day before, two days before.
ASKED = {
    "evening before": datetime(2021, 8, 24, 21, 40, tzinfo=KABUL),
    "same night": datetime(2021, 8, 25, 0, 20, tzinfo=KABUL),
    "day before": datetime(2021, 8, 24, 10, 0, tzinfo=KABUL),
    "two days before": datetime(2021, 8, 23, 10, 0, tzinfo=KABUL),
}
NIGHT_HOURS = range(4)
#: The night of 00:35–03:35 on Wednesday is Tuesday's: "tonight" from Tuesday morning until
#: 04:00 on Wednesday, named by its weekday before then.
TONIGHT = {"prs": "امشب", "ps": "نن شپه"}
TUESDAY_NIGHT = {"prs": "سه‌شنبه شب", "ps": "د سه‌شنبې شپه"}
AFTER_MIDNIGHT = {"prs": "بعد از نیمه‌شب", "ps": "له نیمې شپې وروسته"}
WEDNESDAY_25 = {"prs": "چهارشنبه ۲۵ اگست", "ps": "چهارشنبه ۲۵ اګست"}
#: «فردا … شب» / «سبا د شپې»: tomorrow's night, the night after the one meant.
TOMORROW_NIGHT = {"prs": re.compile("فردا.*شب"), "ps": re.compile("سبا|د شپې")}
PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def persian(text: str) -> str:
    return text.translate(PERSIAN)


def flight_at(hour: int) -> datetime:
    return DAY.replace(hour=hour, minute=35)


def spoken(hour: int) -> str:
    """The 12-hour time a night hour is said with: 00:35 is «۱۲:۳۵»."""
    return persian(f"{hour % 12 or 12}:35")


def o_clock(hour: int) -> str:
    return "بجه" if hour % 12 == 1 else "بجې"


def tuesday_night(language: str, asked: str) -> str:
    return (TUESDAY_NIGHT if asked == "two days before" else TONIGHT)[language]


def expected_sms(hour: int, language: str, asked: str) -> str:
    return f"{tuesday_night(language, asked)} {spoken(hour)} {AFTER_MIDNIGHT[language]}"


def expected_chat(hour: int, language: str) -> str:
    hh_mm, day = persian(f"{hour:02d}:35"), WEDNESDAY_25[language]
    if language == "prs":
        return f"سه‌شنبه شب، ساعت {spoken(hour)} بعد از نیمه‌شب ({day}، {hh_mm})"
    return f"د سه‌شنبې شپه، له نیمې شپې وروسته {spoken(hour)} {o_clock(hour)} ({day}، {hh_mm})"


def sms_day(language: str, asked: str) -> str:
    """The calendar day of the 25th as the SMS names it by day, seen from ``asked``."""
    today, tomorrow, weekday = {
        "en": ("today", "tomorrow", "Wed 25"),
        "prs": ("امروز", "فردا", "چهارشنبه ۲۵"),
        "ps": ("نن", "سبا", "چهارشنبه ۲۵"),
    }[language]
    if asked == "same night":
        return today
    return weekday if asked == "two days before" else tomorrow


@pytest.mark.parametrize("asked", ASKED)
@pytest.mark.parametrize("language", ["prs", "ps"])
@pytest.mark.parametrize("hour", range(24))
def test_sms_names_the_night_a_time_after_midnight_falls_in(
    hour: int, language: str, asked: str
) -> None:
    said = day_and_time(flight_at(hour), ASKED[asked], language)
    if hour in NIGHT_HOURS:
        assert not TOMORROW_NIGHT[language].search(said), said
        assert "امروز" not in said and not said.startswith("نن د"), said
        assert tuesday_night(language, asked) in said and AFTER_MIDNIGHT[language] in said
        assert said == expected_sms(hour, language, asked)
    else:  # as before: the calendar day, then the time with the part of the day
        assert (
            said == f"{sms_day(language, asked)} {clock(flight_at(hour), language, 'brief.time')}"
        )
        assert AFTER_MIDNIGHT[language] not in said


@pytest.mark.parametrize("language", ["prs", "ps"])
@pytest.mark.parametrize("hour", range(24))
def test_chat_names_the_night_and_keeps_the_calendar_day_in_brackets(
    hour: int, language: str
) -> None:
    said = departure(flight_at(hour), language)
    if hour in NIGHT_HOURS:
        assert not TOMORROW_NIGHT[language].search(said), said
        assert said.startswith(TUESDAY_NIGHT[language]), said
        assert f"({WEDNESDAY_25[language]}، {persian(f'{hour:02d}:35')})" in said
        assert said == expected_chat(hour, language)
    else:
        assert said == f"{WEDNESDAY_25[language]}، {clock(flight_at(hour), language)}"


@pytest.mark.parametrize("asked", ASKED)
@pytest.mark.parametrize("hour", range(24))
def test_english_keeps_the_calendar_day_and_the_24_hour_clock(hour: int, asked: str) -> None:
    moment = flight_at(hour)
    assert day_and_time(moment, ASKED[asked], "en") == f"{sms_day('en', asked)} {hour:02d}:35"
    assert departure(moment, "en") == f"Wed 25 Aug, {hour:02d}:35"


@pytest.mark.parametrize(
    ("language", "sms", "chat"),
    [
        ("prs", "امشب ۱۲ نیمه‌شب", "سه‌شنبه شب، ساعت ۱۲ نیمه‌شب (چهارشنبه ۲۵ اگست، ۰۰:۰۰)"),
        (
            "ps",
            "نن شپه ۱۲ نیمه شپه",
            "د سه‌شنبې شپه، نیمه شپه ۱۲ بجې (چهارشنبه ۲۵ اګست، ۰۰:۰۰)",
        ),
    ],
)
def test_midnight_itself_is_midnight_not_twelve_after_it(
    language: str, sms: str, chat: str
) -> None:
    assert day_and_time(DAY, ASKED["evening before"], language) == sms
    assert departure(DAY, language) == chat


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("prs", "سه‌شنبه شب (۳۱ اگست) ۱:۳۵ بعد از نیمه‌شب"),
        ("ps", "د سه‌شنبې شپه (۳۱ اګست) ۱:۳۵ له نیمې شپې وروسته"),
    ],
)
def test_a_night_a_week_away_is_dated_not_taken_for_this_weeks(
    language: str, expected: str
) -> None:
    """Tuesday 24 at 10:00 asks about 01:35 on Wednesday 1 September: "Tuesday night" alone
    would be read as tonight."""
    assert day_and_time(flight_at(1) + timedelta(days=7), ASKED["day before"], language) == expected


def test_the_night_ends_at_four() -> None:
    assert reckoned_day(DAY.replace(hour=3, minute=59)) == ASKED["day before"].date()
    assert reckoned_day(DAY.replace(hour=4)) == DAY.date()
    assert day_and_time(DAY.replace(hour=4), ASKED["evening before"], "prs") == "فردا ۴ صبح"


async def ask_at_night(language: str) -> dict[str, Any]:
    """Flights to Doha, asked on Tuesday 21:40, when RCH871 leaves at 01:35 that night."""
    asked = ASKED["evening before"]
    with db.session_scope() as session:
        flight = session.scalars(select(Flight).where(Flight.flight_number == "RCH871")).one()
        flight.departs_at = flight_at(1)
        flight.verified_at, flight.valid_until = asked - timedelta(minutes=20), flight_at(4)
    messages, _ = await run(
        ActionAnswerFlights(clock=lambda: asked),
        tracker("ask_flights", language, {"destination": "Doha"}),
    )
    # The answer comes last, after what goes before it (RCH618, listed too, was checked 15 h
    # before: a warning says so).
    assert messages[-1]["response"] == "utter_flights_for", messages
    return messages[-1]


@pytest.mark.parametrize(
    ("language", "sms_line", "chat_line"),
    [
        (
            "prs",
            "RCH871 امشب ۱:۳۵ بعد از نیمه‌شب، مسافرها سوار می‌شوند",
            "سه‌شنبه شب، ساعت ۱:۳۵ بعد از نیمه‌شب (چهارشنبه ۲۵ اگست، ۰۱:۳۵)",
        ),
        (
            "ps",
            "RCH871 نن شپه ۱:۳۵ له نیمې شپې وروسته، مسافر سپرېږي",
            "د سه‌شنبې شپه، له نیمې شپې وروسته ۱:۳۵ بجه (چهارشنبه ۲۵ اګست، ۰۱:۳۵)",
        ),
    ],
)
async def test_a_flight_tonight_after_midnight_is_said_so_within_three_segments(
    content_db: Engine, language: str, sms_line: str, chat_line: str
) -> None:
    from kernel.sms_segments import MAX_SEGMENTS, fits

    message = await ask_at_night(language)
    sent = render(message, language, channel="sms_gateway")
    assert sms_line in re.sub("[\u2068\u2069]", "", sent), sent
    assert fits(sent, MAX_SEGMENTS), sent
    assert chat_line in message["flights"]
