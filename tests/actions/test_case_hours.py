"""Caseworkers' hours in Kabul time: daily, past midnight, round the clock; the next opening."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from actions.cases.hours import Hours
from actions.common.kabul_time import KABUL


def kabul(hour: int, minute: int = 0) -> datetime:
    return datetime(2021, 8, 24, hour, minute, tzinfo=KABUL).astimezone(timezone.utc)


@pytest.mark.parametrize(
    ("hours", "at", "open_now"),
    [
        ("08:00-20:00", kabul(8), True),
        ("08:00-20:00", kabul(19, 59), True),
        ("08:00-20:00", kabul(20), False),
        ("08:00-20:00", kabul(7, 59), False),
        ("20:00-02:00", kabul(23), True),
        ("20:00-02:00", kabul(1, 30), True),
        ("20:00-02:00", kabul(2), False),
        ("20:00-02:00", kabul(12), False),
        ("00:00-00:00", kabul(3), True),
    ],
)
def test_open_in_kabul_time(hours: str, at: datetime, open_now: bool) -> None:
    assert Hours.parse(hours).is_open(at) is open_now


def test_the_next_opening_is_today_or_tomorrow_in_kabul() -> None:
    day = Hours.parse("08:00-20:00")
    assert day.next_opening(kabul(6)) == datetime(2021, 8, 24, 8, tzinfo=KABUL)
    assert day.next_opening(kabul(21)) == datetime(2021, 8, 25, 8, tzinfo=KABUL)
