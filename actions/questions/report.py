"""The last week of questions for editors: what people asked, in which language, on which channel,
when, and the messages we could not answer that several conversations sent.

A masked message is shown only when enough different people sent the same one (same masked,
normalised text; ``kernel/question_mask.py``) on two channels or over hours: the rule of
``actions/content/crowd.py``, which the groups of asks keep too. A "conversation" here is the
tag Rasa keeps a message under: the person's address where the channel knows it, so three web
chat pages of one client count once (``bot/question_log.py``); where it does not, one person who
opens five windows within minutes to put a name on the editors' page still does not pass.
Counted by the database (GROUP BY on the hour table and on the week's messages), so the page
stays fast with a week of 200 000 turns (docs/BENCHMARKS.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Final

from sqlalchemy import delete, desc, distinct, func, select, union_all
from sqlalchemy.orm import Session

from actions.common.kabul_time import KABUL
from actions.content.crowd import MIN_PEOPLE, widely_asked
from actions.questions.models import FACETS, QuestionCount, UnansweredQuestion

WINDOW: Final = timedelta(days=7)
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
    #: Turns by Kabul hour of the day ("00:00"), over the week.
    by_hour: list[tuple[str, int]]
    #: Turns by Kabul day.
    by_day: list[tuple[date, int]]
    messages: list[FrequentMessage]


def _by_facet(session: Session, since: datetime) -> dict[str, list[tuple[str, int]]]:
    """Turns of the week by intent, by language-script and by channel, biggest first."""
    turns = func.sum(QuestionCount.turns)
    query = (
        select(QuestionCount.facet, QuestionCount.value, turns)
        .where(QuestionCount.hour >= since)
        .group_by(QuestionCount.facet, QuestionCount.value)
        .order_by(QuestionCount.facet, desc(turns), QuestionCount.value)
    )
    facets: dict[str, list[tuple[str, int]]] = {facet: [] for facet in FACETS}
    for facet, value, n in session.execute(query):
        facets.setdefault(facet, []).append((value, int(n)))
    return facets


def _by_hour(session: Session, since: datetime) -> list[tuple[datetime, int]]:
    turns = func.sum(QuestionCount.turns)
    query = (
        select(QuestionCount.hour, turns)
        .where(QuestionCount.hour >= since, QuestionCount.facet == "intent")
        .group_by(QuestionCount.hour)
    )
    return [(hour, int(n)) for hour, n in session.execute(query)]


def frequent_messages(session: Session, since: datetime) -> list[FrequentMessage]:
    """The unanswered messages enough different conversations sent (``crowd.widely_asked``).

    Grouped by ``wording`` (a hash of the text) and counted on integers along the index
    (wording, conversation_tag, asked_at); the texts of the few shown are read afterwards, one
    row each (reading them with the counts took longer than counting: a frequent message has
    thousands of rows). The spread is judged here, not in SQL: date arithmetic differs between
    SQLite and PostgreSQL, and only the few wordings past the threshold reach this point."""
    asked = UnansweredQuestion
    conversations = func.count(distinct(asked.conversation_tag)).label("conversations")
    times = func.count().label("times")
    channels = func.count(distinct(asked.channel))
    query = (
        select(
            asked.wording,
            conversations,
            times,
            channels,
            func.min(asked.asked_at),
            func.max(asked.asked_at),
        )
        .where(asked.asked_at >= since)
        .group_by(asked.wording)
        .having(conversations >= MIN_PEOPLE)
        .order_by(desc("conversations"), desc("times"), asked.wording)
    )
    counted = [
        (wording, int(c), int(n))
        for wording, c, n, on_channels, first, last in session.execute(query)
        if widely_asked(c, on_channels, first, last)
    ][:SHOWN_MESSAGES]
    if not counted:
        return []
    # Every row of a wording holds the same text: one row each, along the index, in one query.
    one_each = [
        select(asked.wording, asked.text).where(asked.wording == wording).limit(1).subquery()
        for wording, _, _ in counted
    ]
    texts = dict(session.execute(union_all(*(select(one) for one in one_each))).tuples().all())
    return [FrequentMessage(texts[wording], c, n) for wording, c, n in counted]


def week(session: Session, now: datetime) -> Week:
    since = (now - WINDOW).replace(minute=0, second=0, microsecond=0)
    facets = _by_facet(session, since)
    of_day: Counter[str] = Counter()
    of_date: Counter[date] = Counter()
    for hour, turns in _by_hour(session, since):
        # Counted by Kabul hour (bot/question_log.py); a row of a whole UTC hour, counted
        # before that, goes to the Kabul hour it starts in.
        local = hour.astimezone(KABUL).replace(minute=0)
        of_day[local.strftime("%H:%M")] += turns
        of_date[local.date()] += turns
    by_intent = facets["intent"]
    return Week(
        since=since,
        until=now,
        turns=sum(n for _, n in by_intent),
        unanswered=sum(n for i, n in by_intent if i in UNANSWERED),
        by_intent=by_intent,
        by_language=[(*_language_script(v), n) for v, n in facets["language"]],
        by_channel=facets["channel"],
        by_hour=sorted(of_day.items()),
        by_day=sorted(of_date.items()),
        messages=frequent_messages(session, since),
    )


def _language_script(value: str) -> tuple[str, str]:
    """ "ps-Arab" → ("ps", "Arab")."""
    language, _, script = value.partition("-")
    return language, script


def purge(session: Session, before: datetime) -> int:
    """Deletes the hours and messages older than ``before`` (the conversation retention); the
    caller commits. Returns how many rows."""
    counts = session.execute(delete(QuestionCount).where(QuestionCount.hour < before))
    messages = session.execute(
        delete(UnansweredQuestion).where(UnansweredQuestion.asked_at < before)
    )
    return sum(int(getattr(result, "rowcount", 0) or 0) for result in (counts, messages))
