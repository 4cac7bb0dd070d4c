"""The question log's tables (migration 0012), as the console reads and the retention job purges
them. The bot runtime writes them (``bot/question_log.py``, SQLAlchemy Core, same columns)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from actions.alerts.models import CHANNEL
from actions.content.columns import Base, UTCDateTime

INTENT = String(64)
LANGUAGE = String(8)
SCRIPT = String(4)


class QuestionCount(Base):
    """How many turns had this intent, language, script and channel in one UTC hour: a count,
    with no conversation id and no text."""

    __tablename__ = "question_counts"

    hour: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    intent: Mapped[str] = mapped_column(INTENT, primary_key=True)
    language: Mapped[str] = mapped_column(LANGUAGE, primary_key=True)
    script: Mapped[str] = mapped_column(SCRIPT, primary_key=True)
    channel: Mapped[str] = mapped_column(CHANNEL, primary_key=True)
    turns: Mapped[int] = mapped_column(Integer)


class UnansweredQuestion(Base):
    """A message the assistant could not answer, masked before it was stored
    (``bot/question_mask.py``). ``conversation_tag`` is a keyed hash of the conversation id
    under a key only the bot runtime holds: it tells conversations apart, never which one."""

    __tablename__ = "unanswered_questions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    asked_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    conversation_tag: Mapped[str] = mapped_column(String(32), index=True)
    intent: Mapped[str] = mapped_column(INTENT)
    language: Mapped[str] = mapped_column(LANGUAGE)
    script: Mapped[str] = mapped_column(SCRIPT)
    channel: Mapped[str] = mapped_column(CHANNEL)
    text: Mapped[str] = mapped_column(String(240))
