"""The question log's tables (migration 0014), as the console reads and the retention job purges
them. The bot runtime writes them (``bot/question_log.py``, SQLAlchemy Core, same columns)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from actions.content.columns import Base, UTCDateTime
from actions.content.outgoing import CHANNEL

INTENT = String(64)
LANGUAGE = String(8)
SCRIPT = String(4)


#: What a count is by: the intent, the language and script ("ps-Arab"), the channel.
FACETS = ("intent", "language", "channel")


class QuestionCount(Base):
    """How many turns of one Kabul hour (``hour``: the UTC instant it starts) had this intent,
    or this language, or came on this channel: counts by one facet at a time, with no
    conversation id and no text. (Not every
    combination: a lone Pashto SMS at 03:00 about help would single a person out, and the page
    reads a few thousand rows for a week instead of tens of thousands.)"""

    __tablename__ = "question_counts"

    hour: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    facet: Mapped[str] = mapped_column(String(16), primary_key=True)
    value: Mapped[str] = mapped_column(String(64), primary_key=True)
    turns: Mapped[int] = mapped_column(Integer)


class UnansweredQuestion(Base):
    """A message the assistant could not answer, masked before it was stored
    (``bot/question_mask.py``). ``conversation_tag`` is a keyed hash of the conversation id
    under a key only the bot runtime holds: it tells conversations apart, never which one.
    ``wording`` is a hash of the text, so the week's messages are grouped on integers along
    one index (docs/BENCHMARKS.md)."""

    __tablename__ = "unanswered_questions"
    __table_args__ = (
        Index(
            "ix_unanswered_questions_wording_conversation_tag_asked_at",
            "wording",
            "conversation_tag",
            "asked_at",
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    asked_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    conversation_tag: Mapped[int] = mapped_column(BigInteger, index=True)
    wording: Mapped[int] = mapped_column(BigInteger)
    intent: Mapped[str] = mapped_column(INTENT)
    language: Mapped[str] = mapped_column(LANGUAGE)
    script: Mapped[str] = mapped_column(SCRIPT)
    channel: Mapped[str] = mapped_column(CHANNEL)
    text: Mapped[str] = mapped_column(String(240))
