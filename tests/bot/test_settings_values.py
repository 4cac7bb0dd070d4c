"""One syntax for durations and numbers in both runtimes' settings and in content files."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kernel.settings_values import (
    SettingsError,
    duration,
    duration_setting,
    fraction,
    parse_duration,
    positive_number,
    whole_number,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90m", timedelta(minutes=90)),
        ("2h", timedelta(hours=2)),
        ("1h30m", timedelta(minutes=90)),
        ("14d", timedelta(days=14)),
        ("1d 12H", timedelta(hours=36)),
        ("-1h", timedelta(hours=-1)),
    ],
)
def test_durations(text: str, expected: timedelta) -> None:
    assert duration(text) == expected


@pytest.mark.parametrize("text", ["", "h", "3", "1.5h", "3x", "2h1d", "two hours", "1h-"])
def test_what_is_not_a_duration_says_what_is(text: str) -> None:
    with pytest.raises(ValueError, match="not a duration like 45m"):
        duration(text)


def test_a_duration_setting_names_the_variable_and_must_be_longer_than_zero() -> None:
    assert duration_setting({}, "RETENTION", timedelta(days=7)) == timedelta(days=7)
    assert duration_setting({"RETENTION": "  "}, "RETENTION", timedelta(days=7)) == timedelta(7)
    assert duration_setting({"RETENTION": "36h"}, "RETENTION", timedelta(7)) == timedelta(hours=36)
    with pytest.raises(SettingsError, match="RETENTION is '3 days'; give a duration such as 90m"):
        duration_setting({"RETENTION": "3 days"}, "RETENTION", timedelta(days=7))
    for raw in ("0m", "-1h"):
        with pytest.raises(SettingsError, match=f"X is '{raw}'; it must be longer than zero"):
            parse_duration("X", raw)


def test_numbers() -> None:
    assert positive_number({}, "RATE", 25.0) == 25.0
    assert positive_number({"RATE": " 12.5 "}, "RATE", 25.0) == 12.5
    assert whole_number({"PORT": "5056"}, "PORT", 1) == 5056
    assert fraction({"CONFIDENCE": "0"}, "CONFIDENCE", 0.7) == 0.0
    assert fraction({"CONFIDENCE": "1"}, "CONFIDENCE", 0.7) == 1.0


@pytest.mark.parametrize("raw", ["0", "-3", "fast", "nan", "inf"])
def test_a_wrong_positive_number_names_the_variable(raw: str) -> None:
    with pytest.raises(SettingsError, match=f"RATE is '{raw}'; give a number above zero"):
        positive_number({"RATE": raw}, "RATE", 25.0)


@pytest.mark.parametrize("raw", ["0", "-5", "2.5", "half an hour"])
def test_a_wrong_whole_number_names_the_variable_and_an_example(raw: str) -> None:
    with pytest.raises(SettingsError, match=f"MINUTES is '{raw}'; give a whole number .* like 30"):
        whole_number({"MINUTES": raw}, "MINUTES", 30)


@pytest.mark.parametrize("raw", ["1.5", "-0.1", "high", "nan"])
def test_a_wrong_fraction_names_the_variable(raw: str) -> None:
    with pytest.raises(SettingsError, match=f"CONFIDENCE is '{raw}'; give a number from 0 to 1"):
        fraction({"CONFIDENCE": raw}, "CONFIDENCE", 0.7)


def test_settings_errors_are_value_errors() -> None:
    assert issubclass(SettingsError, ValueError)
