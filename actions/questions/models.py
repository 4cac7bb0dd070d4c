"""The question log's tables (migration 0014), as the console reads and the retention job purges
them. The bot runtime writes them (``bot/question_log.py``); both use the one definition of
the tables in ``kernel/contentdb/tables.py``, which these models are mapped onto."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Mapped

from actions.content.columns import Base
from kernel.contentdb import tables

#: What a count is by: the intent, the language and script ("ps-Arab"), the channel.
FACETS = ("intent", "language", "channel")


class QuestionCount(Base):
    """How many turns of one Kabul hour (``hour``: the UTC instant it starts) had this intent,
    or this language, or came on this channel: counts by one facet at a time, with no
    conversation id and no text. (Not every
    combination: a lone Pashto SMS at 03:00 about help would single a person out, and the page
    reads a few thousand rows for a week instead of tens of thousands.)"""

    __table__ = tables.question_counts

    hour: Mapped[datetime]
    facet: Mapped[str]
    value: Mapped[str]
    turns: Mapped[int]


class UnansweredQuestion(Base):
    """A message the assistant could not answer, masked before it was stored
    (``kernel/question_mask.py``). ``conversation_tag`` is a keyed hash of the conversation id
    under a key only the bot runtime holds: it tells conversations apart, never which one.
    ``wording`` is a hash of the text, so the week's messages are grouped on integers along
    one index (docs/BENCHMARKS.md)."""

    __table__ = tables.unanswered_questions

    id: Mapped[int]
    asked_at: Mapped[datetime]
    conversation_tag: Mapped[int]
    wording: Mapped[int]
    intent: Mapped[str]
    language: Mapped[str]
    script: Mapped[str]
    channel: Mapped[str]
    text: Mapped[str]
