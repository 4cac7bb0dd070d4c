"""The revisions table: every change to a content record, append-only.

Kept apart from ``models.py`` (which imports it, so the table is always in the metadata) because
it is about the history of records rather than what users are told.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from actions.content.columns import Base, UTCDateTime, choice


class RecordKind(str, enum.Enum):
    """What a revision changed; each kind has a stable key (see ``records.py``)."""

    ORGANISATION = "organisation"  # slug
    AIRPORT_NAME = "airport-name"  # IATA code: an airport's names, city and place
    AIRPORT = "airport"  # IATA code: the airport's status (open, restricted, closed)
    GATE = "gate"  # IATA/slug, e.g. KBL/abbey-gate
    FLIGHT = "flight"  # number@Kabul date of departure, e.g. QR8010@2021-08-24
    ANNOUNCEMENT = "announcement"  # slug
    GUIDANCE = "guidance"  # slug
    CLAIM = "claim"  # slug
    ANSWER = "answer"  # slug


class RevisionAction(str, enum.Enum):
    CREATE = "create"
    UPDATE = "update"
    WITHDRAW = "withdraw"
    ROLLBACK = "rollback"


class Revision(Base):
    """One change to one record: who, when, why, and the record's editable fields before and after.

    Append-only. ``before`` is NULL when the change created the record; ``after`` is always the
    whole record as it stood afterwards (``withdrawn_at`` included), so any revision can be
    rolled back by applying its ``before``, which is itself recorded as a new revision.
    ``record_id`` is the row in the kind's table: a flight's key changes with its departure
    day, its row does not.
    """

    __tablename__ = "revisions"
    __table_args__ = (Index(None, "kind", "record_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[RecordKind] = mapped_column(choice(RecordKind, "kind"))
    record_id: Mapped[int] = mapped_column(Integer)
    record_key: Mapped[str] = mapped_column(String(128))
    action: Mapped[RevisionAction] = mapped_column(choice(RevisionAction, "action"))
    editor: Mapped[str] = mapped_column(String(64))
    note: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    after: Mapped[dict[str, Any]] = mapped_column(JSON(none_as_null=True))
    rolls_back_id: Mapped[int | None] = mapped_column(ForeignKey("revisions.id"))

    def changed_fields(self) -> list[str]:
        """The fields whose value differs between before and after, in the record's order."""
        before = self.before or {}
        return [name for name, value in self.after.items() if before.get(name) != value]
