"""When an organisation's caseworkers answer: daily hours in Kabul time, and who answers first.

An organisation takes cases when an editor set its ``case_hours`` ("08:00-20:00", Kabul time,
every day; "20:00-02:00" runs past midnight, "00:00-00:00" is round the clock) and
``case_wait_minutes`` (the usual wait, which the assistant promises no more precisely than that).
The hours themselves are read by ``bot/case_hours.py``, which Rasa uses too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from actions.content.models import Organisation
from bot.case_hours import Hours


@dataclass(frozen=True)
class Answerer:
    """The organisation that will answer a case, and when."""

    organisation: Organisation
    hours: Hours
    open_now: bool
    #: Now when open, else the next opening.
    answers_from: datetime
    wait: timedelta


def who_answers(session: Session, now: datetime) -> Answerer | None:
    """Of the organisations that take cases: one open now with the shortest wait, else the one
    that opens first; None when no organisation takes cases."""
    rows = session.scalars(
        select(Organisation)
        .where(Organisation.withdrawn_at.is_(None), Organisation.case_hours.is_not(None))
        .order_by(Organisation.slug)
    )
    candidates = []
    for org in rows:
        hours = Hours.parse(str(org.case_hours))
        open_now = hours.is_open(now)
        start = now if open_now else hours.next_opening(now)
        wait = timedelta(minutes=org.case_wait_minutes or 0)
        candidates.append(Answerer(org, hours, open_now, start, wait))
    if not candidates:
        return None
    return min(candidates, key=lambda a: (a.answers_from + a.wait, a.organisation.slug))
