"""Column types and conventions every content table shares.

Apart from the models so that ``models.py`` reads as the content itself: what an airport, a gate
or a revision is. Times are timezone-aware UTC on SQLite and PostgreSQL alike; enums are
portable (VARCHAR + CHECK); constraint names are stable, so migrations can refer to them.
"""

from __future__ import annotations

import enum
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import DateTime, Dialect, Enum, MetaData, String, TypeDecorator
from sqlalchemy.orm import DeclarativeBase

from bot.lang.codes import LANGUAGES
from bot.lang.names import READING_ORDER

#: Stable constraint names, so that migrations (and SQLite batch migrations) can refer to them.
NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

NAME = String(200)
SLUG = String(64)
#: Phone and WhatsApp numbers as people dial them, with the country code: "+93 700 000 101".
PHONE = String(32)
EMAIL = String(254)
#: Daily hours in Kabul time, "08:00-20:00" (actions/cases/hours.py).
CASE_HOURS = String(11)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC in and out, on SQLite (no time zones) as on PostgreSQL.

    Naive datetimes are refused: guessing their zone is how Kabul (UTC+04:30) times go wrong.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: content times must be timezone-aware")
        value = value.astimezone(timezone.utc)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> Any:
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


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def localised(row: Base, field: str, language: str) -> str:
    """The text of ``field`` for a reader of ``language`` (``advice`` + ``prs`` → ``advice_prs``).

    A text an editor published before its translation was ready is stored empty; readers then
    get it in the language they most likely read (:func:`in_language`) rather than nothing.
    """
    return in_language(row, field, language)[0]


def in_language(row: Base, field: str, language: str) -> tuple[str, str]:
    """The text of ``field`` for a reader of ``language``, and the language it is written in.

    The reader's own language if it has the text, else the next in ``READING_ORDER`` that has
    it (answers say so next to it); the ``translations`` report lists such texts until someone
    translates them. A text no language has (optional contact hours) comes back empty.
    """
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    for candidate in READING_ORDER[language]:
        value: str | None = getattr(row, f"{field}_{candidate}")
        if value:
            return value, candidate
    return "", language
