"""An organisation's daily caseworker hours in Kabul time: open now, and when next.

Standard library only: the action server picks who answers a case with it
(``actions/cases/hours.py``), and Rasa, when it gives a conversation back its case after a
restart, asks whether that organisation is staffed now (``bot/case_inbox.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Final
from zoneinfo import ZoneInfo

KABUL: Final = ZoneInfo("Asia/Kabul")


@dataclass(frozen=True)
class Hours:
    opens: time
    closes: time

    @classmethod
    def parse(cls, text: str) -> Hours:
        """``"08:00-20:00"`` (validated when an editor saved it: ``validation.CASE_HOURS``)."""
        start, _, end = text.partition("-")
        return cls(time.fromisoformat(start), time.fromisoformat(end))

    @property
    def round_the_clock(self) -> bool:
        """ "00:00-00:00" (any time that both opens and closes): day and night."""
        return self.opens == self.closes

    def is_open(self, now: datetime) -> bool:
        local = now.astimezone(KABUL).time().replace(tzinfo=None)
        if self.round_the_clock:
            return True
        if self.opens < self.closes:
            return self.opens <= local < self.closes
        return local >= self.opens or local < self.closes  # past midnight

    def next_opening(self, now: datetime) -> datetime:
        """The next time (Kabul) the caseworkers start, after ``now``."""
        local = now.astimezone(KABUL)
        opening = datetime.combine(local.date(), self.opens, tzinfo=KABUL)
        return opening if opening > local else opening + timedelta(days=1)


def staffed(case_hours: str | None, now: datetime) -> bool:
    """Whether an organisation with these hours (None: takes no cases) is staffed at ``now``."""
    return bool(case_hours) and Hours.parse(str(case_hours)).is_open(now)
