"""Day words in three languages resolve to the Kabul-calendar date people mean."""

from datetime import date, datetime, timezone

import pytest

from bot.nlu.dates import resolve_date, today_in_kabul

WEDNESDAY = date(2021, 8, 25)


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("today", date(2021, 8, 25)),
        ("tomorrow", date(2021, 8, 26)),
        ("امروز", date(2021, 8, 25)),
        ("صبا", date(2021, 8, 26)),
        ("فردا", date(2021, 8, 26)),
        ("sabah", date(2021, 8, 26)),
        ("نن", date(2021, 8, 25)),
        ("سبا", date(2021, 8, 26)),
        ("friday", date(2021, 8, 27)),
        ("جمعه", date(2021, 8, 27)),
        ("wednesday", date(2021, 8, 25)),
        ("۲۸ اګست", date(2021, 8, 28)),
        ("28 august", date(2021, 8, 28)),
        ("aug 30", date(2021, 8, 30)),
        ("30/08", date(2021, 8, 30)),
        ("2021-08-31", date(2021, 8, 31)),
    ],
)
def test_day_words(words: str, expected: date) -> None:
    assert resolve_date(words, WEDNESDAY) == expected


@pytest.mark.parametrize("words", ["", "soon", "31/02", "45 august", "🙂"])
def test_not_a_day(words: str) -> None:
    assert resolve_date(words, WEDNESDAY) is None


def test_kabul_day_starts_four_and_a_half_hours_before_utc() -> None:
    late_utc_evening = datetime(2021, 8, 25, 20, 0, tzinfo=timezone.utc)
    assert today_in_kabul(late_utc_evening) == date(2021, 8, 26)


def test_a_day_phrase_whose_first_word_was_missed_is_widened() -> None:
    """The extractor may catch only «سبا» of «بل سبا» (the day after tomorrow)."""
    from bot.nlu.dates import widened_start

    text = "که بل سبا وي نو؟"
    start = text.index("سبا")
    assert text[widened_start(text, start, start + 3) :].startswith("بل سبا")
    plain = "flights tomorrow"
    assert widened_start(plain, plain.index("tomorrow"), len(plain)) == plain.index("tomorrow")
