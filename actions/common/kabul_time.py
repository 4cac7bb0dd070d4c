"""Kabul time: the zone every person and editor reads times in, and its calendar days.

Only the arithmetic of the zone lives here; the names of weekdays and months in Dari, Pashto
and English are in kernel/lang/calendar.py, and the sentences in actions/content/format.py.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from kernel.lang.calendar import MORNING

KABUL = ZoneInfo("Asia/Kabul")


def kabul(moment: datetime | str | None, missing: str = "—", offset: bool = True) -> str:
    """A time as Kabul editors read it, to the minute: "2021-08-24 09:00+04:30", or without
    ``offset`` "2021-08-24 09:00" (where the page already says the times are Kabul's).
    ``missing`` is shown for no time at all; an ISO string is read as the time it names."""
    if moment is None:
        return missing
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    local = moment.astimezone(KABUL)
    if not offset:
        return local.strftime("%Y-%m-%d %H:%M")
    return local.isoformat(sep=" ", timespec="minutes")


def kabul_day_bounds(day: date) -> tuple[datetime, datetime]:
    """The UTC instants a Kabul calendar day starts and ends (end exclusive)."""
    start = datetime.combine(day, time.min, tzinfo=KABUL)
    return start, start + timedelta(days=1)


def asked_day_bounds(day: date) -> tuple[datetime, datetime]:
    """A day a person asks about ("tonight", «امشب», "Sunday"): its calendar day and the night
    after it, until ``MORNING`` (04:00). The answers name a 01:35 flight by the evening it
    belongs to («امشب ۱:۳۵ بعد از نیمه‌شب»), so "tonight?" asked at 21:40 must find it."""
    start, end = kabul_day_bounds(day)
    return start, end + timedelta(hours=MORNING)
