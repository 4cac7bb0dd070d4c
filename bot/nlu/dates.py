"""Turn the words people use for a day ("sabah", "سبا", "friday", "۲۵ اګست", "26/08") into a date.

Relative words resolve against today's date in Kabul, where the flights leave from.
"""

import re
from datetime import date, datetime, timedelta, timezone
from typing import Final

from kernel.lang.calendar import MONTHS, WEEKDAYS
from kernel.lang.letters import to_ascii_digits
from kernel.lang.normalise import normalise

#: Afghanistan has had no daylight-saving time since 1945: a fixed offset is exact.
KABUL: Final = timezone(timedelta(hours=4, minutes=30), "Asia/Kabul")


def _normalised_keys(table: dict[str, int]) -> dict[str, int]:
    return {normalise(word): value for word, value in table.items()}


_RELATIVE_DAYS: Final[dict[str, int]] = _normalised_keys(
    {
        **dict.fromkeys(["today", "tonight", "now", "this evening", "tnight"], 0),
        **dict.fromkeys(["tomorrow", "tmrw", "tmr", "tomorow", "tommorow", "tomoro"], 1),
        **dict.fromkeys(["day after tomorrow"], 2),
        # Dari, Arabic script and romanized
        **dict.fromkeys(["امروز", "امشب", "همی امروز", "emroz", "imroz", "amroz", "emshab"], 0),
        **dict.fromkeys(["فردا", "صبا", "farda", "saba", "sabah", "sabaa"], 1),
        **dict.fromkeys(["پس فردا", "پس صبا", "pas farda", "pas saba"], 2),
        # Pashto, Arabic script and romanized
        **dict.fromkeys(["نن", "نن شپه", "نن ورځ", "nan", "nun", "nan shpa", "nun shpa"], 0),
        **dict.fromkeys(["سبا"], 1),
        **dict.fromkeys(["بل سبا", "bal saba"], 2),
    }
)

#: The longest relative day phrase, in words: how far back ``widened_start`` looks.
_LONGEST_PHRASE: Final = max(len(phrase.split()) for phrase in _RELATIVE_DAYS)


def widened_start(text: str, start: int, end: int) -> int:
    """Where a day phrase really starts when the entity extractor caught only its end: «سبا» in
    «که بل سبا وي» is the day after tomorrow, "tomorrow" in "the day after tomorrow" too. The
    earliest start, within ``text``, of a known relative phrase ending at ``end``; else ``start``.
    """
    words = list(re.finditer(r"\S+", text[:start]))
    best = start
    for count in range(1, _LONGEST_PHRASE):
        if count > len(words):
            break
        begin = words[-count].start()
        if normalise(text[begin:end]) in _RELATIVE_DAYS:
            best = begin
    return best


_WEEKDAYS: Final[dict[str, int]] = _normalised_keys(
    {
        **dict.fromkeys(["monday", "mon", "دوشنبه", "doshanbe", "dushanbe", "doshamba"], 0),
        **dict.fromkeys(["tuesday", "tue", "سه شنبه", "سه‌شنبه", "درېشنبه", "seshanbe"], 1),
        **dict.fromkeys(["wednesday", "wed", "چهارشنبه", "چارشنبه", "chaharshanbe"], 2),
        **dict.fromkeys(["thursday", "thu", "پنجشنبه", "پنج شنبه", "panjshanbe"], 3),
        **dict.fromkeys(["friday", "fri", "جمعه", "juma", "jumma", "joma"], 4),
        **dict.fromkeys(["saturday", "sat", "شنبه", "shanbe", "shamba"], 5),
        **dict.fromkeys(["sunday", "sun", "یکشنبه", "یک شنبه", "اتوار", "yakshanbe", "itwar"], 6),
        # Every name the answers write (kernel/lang/calendar.py), counted as date.weekday() counts.
        **{name: number - 1 for names in WEEKDAYS.values() for number, name in names.items()},
    }
)

_MONTHS: Final[dict[str, int]] = {}
for _number, _names in enumerate(
    [
        "january jan جنوری جنوري",
        "february feb فبروری فبروري",
        "march mar مارچ",
        "april apr اپریل اپرېل",
        "may می مې",
        "june jun جون",
        "july jul جولای جولاي",
        "august aug agust اګست اگست آگست اګسټ",
        "september sep sept سپتمبر سپتامبر",
        "october oct اکتوبر",
        "november nov نومبر",
        "december dec دسمبر",
    ],
    start=1,
):
    for _name in _names.split():
        _MONTHS[normalise(_name)] = _number
#: Every month name the answers write, too.
_MONTHS.update(
    {normalise(name): number for names in MONTHS.values() for number, name in names.items()}
)

_DAY_MONTH_NUMERIC: Final = re.compile(
    r"^(\d{1,2})\s*[/.\-]\s*(\d{1,2})(?:\s*[/.\-]\s*(\d{2,4}))?$"
)
_ISO: Final = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_WORDS_AND_NUMBERS: Final = re.compile(r"\d+|[^\W\d_]+")


def today_in_kabul(now: datetime | None = None) -> date:
    return (now or datetime.now(timezone.utc)).astimezone(KABUL).date()


def resolve_date(text: str, today: date) -> date | None:
    """The day ``text`` means, or None when it does not name a day we understand."""
    phrase = to_ascii_digits(normalise(text)).strip(" ?!.,؟،")
    if phrase in _RELATIVE_DAYS:
        return today + timedelta(days=_RELATIVE_DAYS[phrase])
    if phrase in _WEEKDAYS:
        ahead = (_WEEKDAYS[phrase] - today.weekday()) % 7
        return today + timedelta(days=ahead)
    if match := _ISO.match(phrase):
        return _safe_date(*(int(g) for g in match.groups()))
    if match := _DAY_MONTH_NUMERIC.match(phrase):
        day, month, year = match.groups()
        return _safe_date(_full_year(year, today), int(month), int(day))
    return _day_and_month_name(phrase, today)


def _day_and_month_name(phrase: str, today: date) -> date | None:
    """ "25 august", "august 25", "۲۵ اګست ۲۰۲۱" (month name and day in either order)."""
    day = month = year = None
    for token in _WORDS_AND_NUMBERS.findall(phrase):
        if token.isdigit():
            number = int(token)
            if number > 31:
                year = number
            elif day is None:
                day = number
        elif token in _MONTHS:
            month = _MONTHS[token]
    if day is None or month is None:
        return None
    return _safe_date(year or today.year, month, day)


def _full_year(year: str | None, today: date) -> int:
    if year is None:
        return today.year
    return int(year) + 2000 if len(year) == 2 else int(year)


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None
