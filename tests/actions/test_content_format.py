"""Kabul time, Persian digits, isolates and "… ago", in the three languages."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any

import pytest

from actions.common.kabul_time import KABUL, kabul_day_bounds
from actions.content.format import ago, calendar_date, clock, departure
from actions.content.localise import (
    digits,
    isolate,
    isolate_latin,
    language_or_default,
)
from actions.content.models import AirportState, AnnouncementKind, FlightStatus, Verification
from kernel.lang.calendar import MONTHS, WEEKDAYS
from kernel.lang.codes import LANGUAGES
from kernel.lang.texts import CATALOGUE

UTC = timezone.utc
NOW = datetime(2021, 8, 24, 4, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("group", "keys"),
    [
        ("status", {*FlightStatus, *AirportState}),
        ("gate", {"open", "closed", "outdated"}),
        ("verification", set(Verification)),
        ("kind", set(AnnouncementKind)),
        ("pattern", {"departure", "date", "verified"}),
        ("ago", {f"{unit}.{n}" for unit in ("minutes", "hours", "days") for n in ("one", "many")}),
    ],
)
def test_every_value_has_its_words(group: str, keys: set[Any]) -> None:
    """Every database value shown has an entry (that it is in every language is
    tests/bot/test_texts.py's to check)."""
    named = {f"content.{group}.{getattr(key, 'value', key)}" for key in keys}
    assert named <= set(CATALOGUE.entries)


def test_weekdays_and_months_in_every_language() -> None:
    assert {tuple(WEEKDAYS[lang]) for lang in LANGUAGES} == {(1, 2, 3, 4, 5, 6, 7)}
    assert {tuple(MONTHS[lang]) for lang in LANGUAGES} == {tuple(range(1, 13))}
    assert MONTHS["prs"][8] == "اگست" and MONTHS["ps"][8] == "اګست"
    assert WEEKDAYS["en"][2] == "Tue" and WEEKDAYS["prs"][2] == "سه‌شنبه"


@pytest.mark.parametrize(
    ("moment", "language", "expected"),
    [
        (NOW, "en", "Tue 24 Aug, 09:00"),
        (NOW, "prs", "سه‌شنبه ۲۴ اگست، ساعت ۹ صبح (۰۹:۰۰)"),
        (NOW, "ps", "سه‌شنبه ۲۴ اګست، د سهار ۹ بجې (۰۹:۰۰)"),
        (datetime(2021, 8, 24, 19, 45, tzinfo=UTC), "en", "Wed 25 Aug, 00:15"),
        # After midnight: the night named by its evening, the calendar day in brackets.
        (
            NOW.replace(hour=19, minute=45),
            "prs",
            "سه‌شنبه شب، ساعت ۱۲:۱۵ بعد از نیمه‌شب (چهارشنبه ۲۵ اگست، ۰۰:۱۵)",
        ),
    ],
)
def test_departure_in_kabul_time(moment: datetime, language: str, expected: str) -> None:
    assert departure(moment, language) == expected


@pytest.mark.parametrize(
    ("hour", "minute", "en", "prs", "ps"),
    [
        (0, 0, "00:00", "ساعت ۱۲ شب (۰۰:۰۰)", "د شپې ۱۲ بجې (۰۰:۰۰)"),
        (1, 0, "01:00", "ساعت ۱ شب (۰۱:۰۰)", "د شپې ۱ بجه (۰۱:۰۰)"),  # یوه بجه: singular
        (3, 0, "03:00", "ساعت ۳ شب (۰۳:۰۰)", "د شپې ۳ بجې (۰۳:۰۰)"),  # not the afternoon
        (4, 30, "04:30", "ساعت ۴:۳۰ صبح (۰۴:۳۰)", "د سهار ۴:۳۰ بجې (۰۴:۳۰)"),
        (11, 59, "11:59", "ساعت ۱۱:۵۹ صبح (۱۱:۵۹)", "د سهار ۱۱:۵۹ بجې (۱۱:۵۹)"),
        (12, 0, "12:00", "ساعت ۱۲ چاشت (۱۲:۰۰)", "د غرمې ۱۲ بجې (۱۲:۰۰)"),
        (13, 0, "13:00", "ساعت ۱ بعد از چاشت (۱۳:۰۰)", "د ماسپښین ۱ بجه (۱۳:۰۰)"),
        (15, 30, "15:30", "ساعت ۳:۳۰ بعد از چاشت (۱۵:۳۰)", "د ماسپښین ۳:۳۰ بجې (۱۵:۳۰)"),
        (16, 0, "16:00", "ساعت ۴ عصر (۱۶:۰۰)", "د مازدیګر ۴ بجې (۱۶:۰۰)"),
        (19, 0, "19:00", "ساعت ۷ شام (۱۹:۰۰)", "د ماښام ۷ بجې (۱۹:۰۰)"),
        (20, 0, "20:00", "ساعت ۸ شب (۲۰:۰۰)", "د شپې ۸ بجې (۲۰:۰۰)"),
        (23, 5, "23:05", "ساعت ۱۱:۰۵ شب (۲۳:۰۵)", "د شپې ۱۱:۰۵ بجې (۲۳:۰۵)"),
    ],
)
def test_times_carry_the_part_of_day(hour: int, minute: int, en: str, prs: str, ps: str) -> None:
    """Dari and Pashto on the 12-hour clock with the part of day, 24-hour in brackets."""
    moment = datetime(2021, 8, 24, hour, minute, tzinfo=KABUL)
    assert [clock(moment, lang) for lang in LANGUAGES] == [en, prs, ps]


def test_calendar_date() -> None:
    published = datetime(2021, 8, 17, 12, 30, tzinfo=UTC)
    assert [calendar_date(published, lang) for lang in LANGUAGES] == [
        "17 Aug 2021",
        "۱۷ اگست ۲۰۲۱",
        "۱۷ اګست ۲۰۲۱",
    ]


def test_kabul_day_bounds_are_utc_plus_four_thirty() -> None:
    start, end = kabul_day_bounds(date(2021, 8, 25))
    assert start == datetime(2021, 8, 24, 19, 30, tzinfo=UTC)
    assert end - start == timedelta(days=1)


@pytest.mark.parametrize(
    ("elapsed", "en", "prs", "ps"),
    [
        (timedelta(seconds=30), "just now", "همین حالا", "همدا اوس"),
        (timedelta(minutes=1), "1 min ago", "۱ دقیقه پیش", "۱ دقیقه مخکې"),
        (timedelta(minutes=40), "40 min ago", "۴۰ دقیقه پیش", "۴۰ دقیقې مخکې"),
        (timedelta(hours=1, minutes=59), "1 h ago", "۱ ساعت پیش", "۱ ساعت مخکې"),
        (timedelta(hours=47), "47 h ago", "۴۷ ساعت پیش", "۴۷ ساعته مخکې"),
        (timedelta(days=2), "2 days ago", "۲ روز پیش", "۲ ورځې مخکې"),
        (timedelta(minutes=-5), "just now", "همین حالا", "همدا اوس"),  # clock skew
    ],
)
def test_ago(elapsed: timedelta, en: str, prs: str, ps: str) -> None:
    assert [ago(NOW - elapsed, NOW, lang) for lang in LANGUAGES] == [en, prs, ps]


def test_digits() -> None:
    assert digits("14:05", "prs") == "۱۴:۰۵"
    assert digits("14:05", "en") == "14:05"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("RCH871 · سه‌شنبه", "\u2068RCH871\u2069 · سه‌شنبه"),
        ("دوحه (XJD)", "دوحه (\u2068XJD\u2069)"),
        ("دروازهٔ ابی (Abbey Gate)", "دروازهٔ ابی (\u2068Abbey Gate\u2069)"),
        ("C-17 و A400M", "\u2068C-17\u2069 و \u2068A400M\u2069"),
        ("۱۱:۰۰ بجې", "۱۱:۰۰ بجې"),
    ],
)
def test_isolate_latin_runs(text: str, expected: str) -> None:
    assert isolate_latin(text, "ps") == expected
    assert isolate_latin(expected, "ps") == expected  # idempotent
    assert isolate_latin(text, "en") == text


@pytest.mark.parametrize(
    ("value", "expected"), [("prs", "prs"), ("ps", "ps"), (None, "en"), ("fa", "en"), (1, "en")]
)
def test_language_or_default(value: object, expected: str) -> None:
    assert language_or_default(value) == expected


def test_contact_labels_exist_in_every_language() -> None:
    assert set(CATALOGUE.ids("content.contact.")) == {
        f"content.contact.{channel}" for channel in ("phone", "whatsapp", "email", "hours")
    }


@pytest.mark.parametrize("text", ["+93 700 000 101", "us-evacuation@example.org"])
def test_numbers_and_addresses_are_isolated_whole(text: str) -> None:
    assert isolate(text, "en") == text
    for language in ("prs", "ps"):
        isolated = isolate(text, language)
        assert isolated == f"\u2068{text}\u2069"
        assert isolate_latin(isolated, language) == isolated  # not split up again
