"""Column types and conventions every content table shares.

Apart from the models so that ``models.py`` reads as the content itself: what an airport, a gate
or a revision is. Times are timezone-aware UTC on SQLite and PostgreSQL alike; enums are
portable (VARCHAR + CHECK); constraint names are stable, so migrations can refer to them.
"""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import DeclarativeBase

from kernel.contentdb.tables import NAME, NAMING_CONVENTION, SLUG, metadata
from kernel.contentdb.types import UTCDateTime, choice
from kernel.lang.codes import LANGUAGES
from kernel.lang.names import READING_ORDER

__all__ = [
    "EMAIL",
    "NAME",
    "NAMING_CONVENTION",
    "PHONE",
    "SLUG",
    "Base",
    "UTCDateTime",
    "choice",
    "in_language",
    "localised",
]

#: Phone and WhatsApp numbers as people dial them, with the country code: "+93 700 000 101".
PHONE = String(32)
EMAIL = String(254)


class Base(DeclarativeBase):
    """The content runtime's models; their metadata is the content database's whole schema,
    on which ``kernel/contentdb/tables.py`` already defines the tables both runtimes use."""

    metadata = metadata


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
