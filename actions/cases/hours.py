"""When an organisation's caseworkers answer: daily hours in Kabul time, and who answers first.

An organisation takes cases when an editor set its ``case_hours`` ("08:00-20:00", Kabul time,
every day; "20:00-02:00" runs past midnight, "00:00-00:00" is round the clock) and
``case_wait_minutes`` (the usual wait, which the assistant promises no more precisely than that).
The hours themselves are read by ``kernel/case_hours.py``, which Rasa uses too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from actions.content.models import Organisation
from kernel.case_hours import Hours


@dataclass(frozen=True)
class Answerer:
    """The organisation that will answer a case, and when."""

    organisation: Organisation
    hours: Hours
    open_now: bool
    #: Now when open, else the next opening.
    answers_from: datetime
    wait: timedelta


def taking_cases(session: Session) -> list[Organisation]:
    """The organisations that take cases (current, with hours), by slug."""
    return list(
        session.scalars(
            select(Organisation)
            .where(Organisation.withdrawn_at.is_(None), Organisation.case_hours.is_not(None))
            .order_by(Organisation.slug)
        )
    )


def who_answers(
    session: Session, now: datetime, site: str | None = None, urgent: bool = False
) -> Answerer | None:
    """Of the organisations that take cases: one open now with the shortest wait, else the one
    that opens first; None when no organisation takes cases. The case opens with it and stays
    with it: only its caseworkers see it (``actions/cases/models.py`` ``seen_by``).

    ``site`` is the organisation whose own page the person wrote from (the web chat on its
    site): it answers when it takes cases, as the person expects of that page, unless the case
    is ``urgent`` and another answers sooner while it is closed (docs/HANDOFF.md)."""
    candidates = [_answerer(org, now) for org in taking_cases(session)]
    if not candidates:
        return None
    soonest = min(candidates, key=lambda a: (a.answers_from + a.wait, a.organisation.slug))
    own = next((a for a in candidates if a.organisation.slug == site), None)
    if own is None or (urgent and not own.open_now and soonest is not own):
        return soonest
    return own


def _answerer(org: Organisation, now: datetime) -> Answerer:
    hours = Hours.parse(str(org.case_hours))
    open_now = hours.is_open(now)
    start = now if open_now else hours.next_opening(now)
    return Answerer(org, hours, open_now, start, timedelta(minutes=org.case_wait_minutes or 0))
