"""Weekday, month, day-part and night names, keyed by language and by number, never by position,
and when the night after midnight ends.

Gregorian months as they are named in Afghanistan (جنوری، اگست; not the Iranian ژانویه، اوت),
Pashto with its own letters (اګست، ډسمبر، مۍ). Weekdays are numbered as ``date.isoweekday()``
numbers them (1 = Monday … 7 = Sunday), months as ``date.month`` (1 = January). The English
names are the short forms tickets and call-ups use. Standard library only: both runtimes
import it (the action server's answers, the NLU's date parser).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps

#: Dari and Pashto write the weekdays alike.
_AFGHAN_WEEKDAYS: Final = {
    1: "دوشنبه",
    2: "سه‌شنبه",
    3: "چهارشنبه",
    4: "پنجشنبه",
    5: "جمعه",
    6: "شنبه",
    7: "یکشنبه",
}

WEEKDAYS: Final[dict[str, dict[int, str]]] = {
    ENGLISH: {1: "Mon", 2: "Tue", 3: "Wed", 4: "Thu", 5: "Fri", 6: "Sat", 7: "Sun"},
    DARI: dict(_AFGHAN_WEEKDAYS),
    PASHTO: dict(_AFGHAN_WEEKDAYS),
}

MONTHS: Final[dict[str, dict[int, str]]] = {
    ENGLISH: {
        1: "Jan",
        2: "Feb",
        3: "Mar",
        4: "Apr",
        5: "May",
        6: "Jun",
        7: "Jul",
        8: "Aug",
        9: "Sep",
        10: "Oct",
        11: "Nov",
        12: "Dec",
    },
    DARI: {
        1: "جنوری",
        2: "فبروری",
        3: "مارچ",
        4: "اپریل",
        5: "می",
        6: "جون",
        7: "جولای",
        8: "اگست",
        9: "سپتمبر",
        10: "اکتوبر",
        11: "نومبر",
        12: "دسمبر",
    },
    PASHTO: {
        1: "جنوري",
        2: "فبروري",
        3: "مارچ",
        4: "اپرېل",
        5: "مۍ",
        6: "جون",
        7: "جولای",
        8: "اګست",
        9: "سپټمبر",
        10: "اکتوبر",
        11: "نومبر",
        12: "ډسمبر",
    },
}

#: Hours before this are still the night of the day before: Kabul calls 01:35 on Monday
#: "Sunday night", so "tomorrow night" on Sunday is Monday evening, 24 hours too late for it
#: (docs/LANGUAGE.md, "Times after midnight"). The morning starts at it (``DAY_PARTS``).
MORNING: Final = 4

#: Parts of the day as Kabul names them on the 12-hour clock, keyed by the hour (24-hour clock)
#: each starts at. Dari: ساعت ۳ بعد از چاشت; Pashto: د ماسپښین ۳ بجې (docs/LANGUAGE.md, "Times").
#: The English words only say what each is; English answers show the 24-hour clock.
DAY_PARTS: Final[dict[str, dict[int, str]]] = {
    ENGLISH: {
        0: "night",
        MORNING: "morning",
        12: "noon",
        13: "afternoon",
        16: "late afternoon",
        18: "evening",
        20: "night",
    },
    DARI: {0: "شب", MORNING: "صبح", 12: "چاشت", 13: "بعد از چاشت", 16: "عصر", 18: "شام", 20: "شب"},
    PASHTO: {
        0: "د شپې",
        MORNING: "د سهار",
        12: "د غرمې",
        13: "د ماسپښین",
        16: "د مازدیګر",
        18: "د ماښام",
        20: "د شپې",
    },
}

#: The night that follows weekday N's day, as a time after midnight is named by it: «یکشنبه
#: شب» (Dari puts the weekday first: «شب یکشنبه» is the night before Sunday), Pashto with the
#: weekday's oblique form, «د یکشنبې شپه». English answers do not use it (they give the day
#: of the 24-hour time); the words only say what it is.
NIGHTS: Final[dict[str, dict[int, str]]] = {
    ENGLISH: {number: f"{name} night" for number, name in WEEKDAYS[ENGLISH].items()},
    DARI: {number: f"{name} شب" for number, name in _AFGHAN_WEEKDAYS.items()},
    PASHTO: {
        1: "د دوشنبې شپه",
        2: "د سه‌شنبې شپه",
        3: "د چهارشنبې شپه",
        4: "د پنجشنبې شپه",
        5: "د جمعې شپه",
        6: "د شنبې شپه",
        7: "د یکشنبې شپه",
    },
}

_NUMBERED: Final = {
    "WEEKDAYS": (WEEKDAYS, set(range(1, 8))),
    "MONTHS": (MONTHS, set(range(1, 13))),
    "DAY_PARTS": (DAY_PARTS, set(DAY_PARTS[ENGLISH])),
    "NIGHTS": (NIGHTS, set(range(1, 8))),
}


def weekday(number: int, language: str) -> str:
    """The name of ISO weekday ``number`` (1 = Monday) in ``language``."""
    return WEEKDAYS[language][number]


def month(number: int, language: str) -> str:
    """The name of month ``number`` (1 = January) in ``language``."""
    return MONTHS[language][number]


def day_part(hour: int, language: str) -> str:
    """The part of the day hour ``hour`` (0–23) belongs to: 15 → "بعد از چاشت"."""
    parts = DAY_PARTS[language]
    return parts[max(start for start in parts if start <= hour)]


def after_midnight(hour: int) -> bool:
    """Whether hour ``hour`` (0–23) belongs to the night of the day before."""
    return hour < MORNING


def reckoned_day(moment: datetime) -> date:
    """The day ``moment`` (a local time) counts in as people reckon it: the night after
    midnight still counts in the day before, so 01:35 and 21:40 are both Sunday's for a
    reader at 01:35 on Monday."""
    return (moment - timedelta(hours=MORNING)).date()


def night(number: int, language: str) -> str:
    """The night after ISO weekday ``number``'s day (7: «یکشنبه شب», «د یکشنبې شپه»)."""
    return NIGHTS[language][number]


def table_gaps() -> list[str]:
    """What the tables here lack for a language in ``LANGUAGES``, or for a weekday, month,
    part of the day or night (empty when complete)."""
    found: list[str] = []
    for name, (table, numbers) in _NUMBERED.items():
        found += gaps(table, f"kernel/lang/calendar.py {name}")
        for code, names in table.items():
            missing = sorted(numbers - set(names))
            if missing:
                found.append(f"kernel/lang/calendar.py {name}[{code!r}] has no {missing}")
    return found


refuse_gaps(table_gaps())
