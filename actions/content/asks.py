"""What people asked that editors answer (migrations 0019, 0024): each ask, masked, grouped with
the same rumour or question told in other words, and whether its asker wants to be told once
editors know. An ask is ``about`` a rumour ("is this true?", answered by a claim's verdict) or a
question the assistant had no answer for (answered by an editor's answer).

A message is stored masked (``kernel/question_mask.py``, as the question log stores it) and never
with a phone number. An ask that wants an answer keeps its wish until ``answer_by``; "delete my
data" deletes every ask of the conversation. Each ask says whom it counts as (``asker``,
migration 0025), so the editors' pages count people, not conversations; a group an editor hid
as spam (:class:`HiddenAskGroup`) holds no person data and stays hidden.

Here, at the bottom, like ``outgoing.py``: STOP and forgetting in the alert system end an
asker's wish to hear the verdict (it goes out as an alert), and the alert system sits below the
claims. The claims package (``actions/claims``) keeps what is done with the asks: matching,
grouping, telling the askers.
"""

from __future__ import annotations

import enum
import hashlib
from datetime import datetime

from sqlalchemy import BigInteger, Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from actions.content.columns import Base, choice
from actions.content.validation import EDITOR_MAX
from kernel.contentdb.tables import CHANNEL, CONVERSATION_ID, LANGUAGE
from kernel.contentdb.types import UTCDateTime
from kernel.question_mask import as_bigint


class AskAbout(str, enum.Enum):
    """What an ask wants: a rumour's verdict, or an answer to a question."""

    CLAIM = "claim"
    ANSWER = "answer"


class Ask(Base):
    """One "is this true?", or one question nobody had answered, from one conversation.

    ``claim_id`` is the claim it matched, or, for a rumour nobody had checked, the claim an
    editor later wrote for its group; ``answer_id`` likewise the editors' answer to a question.
    ``group_key`` is the same for asks that tell the same rumour or ask the same thing (the
    console's "Rumours people ask about" and "What people ask" count different people per
    group: ``asker``, see :func:`asker_of`). ``told_at``: when the verdict or answer went out
    to an asker who wanted it (once).
    """

    __tablename__ = "claim_asks"
    __table_args__ = (Index("ix_claim_asks_group_key_asked_at", "group_key", "asked_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    conversation_id: Mapped[str] = mapped_column(CONVERSATION_ID, index=True)
    channel: Mapped[str] = mapped_column(CHANNEL)
    language: Mapped[str] = mapped_column(LANGUAGE)
    masked_text: Mapped[str] = mapped_column(Text)
    group_key: Mapped[str] = mapped_column(String(64))
    about: Mapped[AskAbout] = mapped_column(
        choice(AskAbout, "about"), default=AskAbout.CLAIM, server_default=AskAbout.CLAIM.value
    )
    claim_id: Mapped[int | None] = mapped_column(
        ForeignKey("claims.id", ondelete="SET NULL"), index=True
    )
    answer_id: Mapped[int | None] = mapped_column(
        ForeignKey("answers.id", ondelete="SET NULL"), index=True
    )
    asked_at: Mapped[datetime] = mapped_column(UTCDateTime)
    wants_answer: Mapped[bool] = mapped_column(Boolean, default=False)
    answer_by: Mapped[datetime | None] = mapped_column(UTCDateTime)
    told_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Whom the ask counts as (:func:`asker_of`); empty: its conversation.
    asker: Mapped[int | None] = mapped_column(BigInteger)


def asker_of(person: str | None) -> int | None:
    """Whom an ask counts as: 64 bits of a hash of the person tag Rasa put on the message
    (``PERSON`` in ``kernel/contract.py``: a keyed hash of the address, the same for every
    conversation and channel of one phone number, Telegram chat or web chat client), or None
    where the channel knows no address (Rasa's REST channel and HTTP API): the ask then counts
    as its conversation, as asks kept before migration 0025 do.

    The tag is keyed under ``CONVERSATION_ID_KEY``, which only Rasa holds (docs/DATA_PROTECTION.md):
    the action server cannot compute the question log's keyed ``asker_tag``, and a key of its
    own would differ between its workers and restarts, counting one person as several. Hashed
    once more so that the column equals no value kept anywhere else."""
    if not person:
        return None
    return as_bigint(hashlib.sha256(f"asks:{person}".encode()).hexdigest())


class HiddenAskGroup(Base):
    """A group of asks an editor hid as spam from its page: later asks the grouping puts in it
    stay hidden too. Who hid it and when; nothing of the askers, so "delete my data" and the
    retention leave it, and un-hiding deletes the row."""

    __tablename__ = "hidden_ask_groups"

    about: Mapped[AskAbout] = mapped_column(choice(AskAbout, "about"), primary_key=True)
    group_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    hidden_by: Mapped[str] = mapped_column(String(EDITOR_MAX))
    hidden_at: Mapped[datetime] = mapped_column(UTCDateTime)
