"""The last week of questions for editors: what people asked, in which language, on which channel,
when, and the messages we could not answer that several conversations sent.

A masked message is shown only when at least :data:`MIN_CONVERSATIONS` different conversations
sent the same one (same masked, normalised text; ``bot/question_mask.py``): what one person
typed, a name the masks missed included, never reaches the page. Counted by the database
(GROUP BY on the hour table and on the week's messages), so the page stays fast with a week of
200 000 turns (docs/BENCHMARKS.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete, desc, distinct, func, select
from sqlalchemy.orm import Session

from actions.content.format import KABUL
from actions.questions.models import QuestionCount, UnansweredQuestion

WINDOW: Final = timedelta(days=7)
MIN_CONVERSATIONS: Final = 3
SHOWN_MESSAGES: Final = 30
UNANSWERED: Final = ("nlu_fallback", "out_of_scope")


@dataclass(frozen=True)
class FrequentMessage:
    text: str
    conversations: int
    times: int


@dataclass(frozen=True)
class Week:
    """Counts of the week up to ``until``; each list is ordered biggest first (hours and days:
    in order of time)."""

    since: datetime
    until: datetime
    turns: int
    unanswered: int
    by_intent: list[tuple[str, int]]
    by_language: list[tuple[str, str, int]]
    by_channel: list[tuple[str, int]]
    #: Turns by the Kabul time of day their UTC hour starts at ("04:30"), over the week.
    by_hour: list[tuple[str, int]]
    #: Turns by Kabul day.
    by_day: list[tuple[date, int]]
    messages: list[FrequentMessage]


def _grouped(session: Session, since: datetime, *columns: Any) -> list[Any]:
    turns = func.sum(QuestionCount.turns)
    query = (
        select(*columns, turns)
        .where(QuestionCount.hour >= since)
        .group_by(*columns)
        .order_by(desc(turns), *columns)
    )
    return [tuple(row) for row in session.execute(query)]


def frequent_messages(session: Session, since: datetime) -> list[FrequentMessage]:
    """The unanswered messages sent by at least :data:`MIN_CONVERSATIONS` conversations."""
    conversations = func.count(distinct(UnansweredQuestion.conversation_tag))
    times = func.count()
    query = (
        select(UnansweredQuestion.text, conversations, times)
        .where(UnansweredQuestion.asked_at >= since)
        .group_by(UnansweredQuestion.text)
        .having(conversations >= MIN_CONVERSATIONS)
        .order_by(desc(conversations), desc(times), UnansweredQuestion.text)
        .limit(SHOWN_MESSAGES)
    )
    return [FrequentMessage(text, int(c), int(n)) for text, c, n in session.execute(query)]


def week(session: Session, now: datetime) -> Week:
    since = (now - WINDOW).replace(minute=0, second=0, microsecond=0)
    by_intent = [(str(i), int(n)) for i, n in _grouped(session, since, QuestionCount.intent)]
    hours = _grouped(session, since, QuestionCount.hour)
    of_day: Counter[str] = Counter()
    of_date: Counter[date] = Counter()
    for hour, turns in hours:
        local = hour.astimezone(KABUL)
        of_day[local.strftime("%H:%M")] += int(turns)
        of_date[local.date()] += int(turns)
    return Week(
        since=since,
        until=now,
        turns=sum(n for _, n in by_intent),
        unanswered=sum(n for i, n in by_intent if i in UNANSWERED),
        by_intent=by_intent,
        by_language=[
            (str(lang), str(script), int(n))
            for lang, script, n in _grouped(
                session, since, QuestionCount.language, QuestionCount.script
            )
        ],
        by_channel=[(str(c), int(n)) for c, n in _grouped(session, since, QuestionCount.channel)],
        by_hour=sorted(of_day.items()),
        by_day=sorted(of_date.items()),
        messages=frequent_messages(session, since),
    )


def purge(session: Session, before: datetime) -> int:
    """Deletes the hours and messages older than ``before`` (the conversation retention); the
    caller commits. Returns how many rows."""
    counts = session.execute(delete(QuestionCount).where(QuestionCount.hour < before))
    messages = session.execute(
        delete(UnansweredQuestion).where(UnansweredQuestion.asked_at < before)
    )
    return sum(int(getattr(result, "rowcount", 0) or 0) for result in (counts, messages))
