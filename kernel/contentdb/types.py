"""Column types the content database's tables share, for SQLAlchemy 1.4 and 2.0 alike."""

from __future__ import annotations

import enum
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeAlias

from sqlalchemy import DateTime, Enum, TypeDecorator

if TYPE_CHECKING:
    # SQLAlchemy 2.0's TypeDecorator is generic; 1.4's cannot be subscripted at run time.
    _DateTimeType: TypeAlias = TypeDecorator[datetime]
else:
    _DateTimeType = TypeDecorator


class UTCDateTime(_DateTimeType):  # type: ignore[misc,unused-ignore]  # 1.4 ships no types
    """Timezone-aware UTC in and out, on SQLite (no time zones) as on PostgreSQL: stored naive
    UTC on SQLite, with its time zone on PostgreSQL.

    Naive datetimes are refused: guessing their zone is how Kabul (UTC+04:30) times go wrong.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> Any:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: content times must be timezone-aware")
        value = value.astimezone(timezone.utc)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


def choice(enum_class: type[enum.Enum], name: str) -> Enum:
    """A portable enum: VARCHAR + CHECK, so adding a value later is a plain migration."""
    return Enum(
        enum_class,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=16,
        values_callable=lambda members: [member.value for member in members],
        validate_strings=True,
    )
