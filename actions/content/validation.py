"""Checks on one value an editor gives, shared by the editing service and the file loader.

Every problem raises :class:`ContentError` naming the field and saying how to fix it, so the
CLI, the file import and a later admin API report it in the same words. No text may hold the
NUL character (U+0000): PostgreSQL cannot store it and SQLite would, so it is refused on both.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any, TypeVar

from kernel.lang.codes import LANGUAGES

E = TypeVar("E", bound=enum.Enum)

#: International format as people dial it: "+93 700 000 101" (spaces optional).
PHONE = re.compile(r"\+[1-9]\d{0,2}(?: ?\d){6,12}")  # E.164: at most 15 digits
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
FLIGHT_NUMBER = re.compile(r"[A-Z0-9]+")
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
#: Daily opening hours in Kabul time; "20:00-02:00" runs past midnight.
CASE_HOURS = re.compile(r"(?:[01]\d|2[0-3]):[0-5]\d-(?:[01]\d|2[0-3]):[0-5]\d")
#: The dangers a contact's line answers, comma-separated (kernel/danger.py ``Danger``).
DANGERS = re.compile(r"(?:missing|medical|threat)(?:,(?:missing|medical|threat))*")
IATA = re.compile(r"[A-Z]{3}")
#: Editors and notes show up in every history line: short, one line.
EDITOR_MAX, NOTE_MAX = 64, 500
NUL = "\x00"


class ContentError(ValueError):
    """A change that cannot be published; the message names the field and what to do."""

    def __init__(self, field: str | None, problem: str) -> None:
        self.field, self.problem = field, problem
        super().__init__(f"'{field}' {problem}" if field else problem)


def no_nul(field: str | None, value: str) -> str:
    """``value`` unchanged, or ContentError if it holds U+0000 (a stray byte, never meant)."""
    if NUL in value:
        raise ContentError(field, "contains the NUL character (U+0000), which cannot be stored")
    return value


def text(field: str, value: object, max_length: int | None = None) -> str:
    """A non-empty single-spaced text (line breaks in YAML or a shell are not meaningful)."""
    if isinstance(value, str):
        no_nul(field, value)
    if not isinstance(value, str) or not value.strip():
        raise ContentError(field, "must be a non-empty text")
    cleaned = " ".join(value.split())
    if max_length is not None and len(cleaned) > max_length:
        raise ContentError(field, f"is {len(cleaned)} characters long; at most {max_length}")
    return cleaned


def optional_text(field: str, value: object, max_length: int | None = None) -> str | None:
    """Like :func:`text`, but None or "" clear the value."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return text(field, value, max_length)


def languages(field: str, value: object, max_length: int | None = None) -> dict[str, str]:
    """``{en: …, prs: …, ps: …}``, any subset; an empty text means "not given"."""
    if not isinstance(value, Mapping):
        raise ContentError(field, f"must give its text per language ({', '.join(LANGUAGES)})")
    unknown = sorted(set(value) - set(LANGUAGES))
    if unknown:
        raise ContentError(field, f"has unknown languages {', '.join(map(str, unknown))}")
    given: dict[str, str] = {}
    for language in LANGUAGES:
        cleaned = optional_text(f"{field}.{language}", value.get(language), max_length)
        if cleaned is not None:
            given[language] = cleaned
    return given


#: More ways to say one thing than anyone reads through in the console.
LINES_MAX = 100


def lines(field: str, value: object, max_length: int | None = None) -> list[str]:
    """Short texts, each single-spaced, in the order given, without blanks or repeats.

    A list, or one text with a line per item (what the console's box sends); None or "" is
    none at all.
    """
    if value is None:
        return []
    if isinstance(value, str):
        value = value.splitlines()
    if not isinstance(value, list | tuple):
        raise ContentError(field, f"must be a list of texts, not {value!r}")
    found: list[str] = []
    for index, item in enumerate(value):
        cleaned = optional_text(f"{field}[{index}]", item, max_length)
        if cleaned is not None and cleaned not in found:
            found.append(cleaned)
    if len(found) > LINES_MAX:
        raise ContentError(field, f"has {len(found)} texts; at most {LINES_MAX}")
    return found


def choice(field: str, value: object, choices: type[E]) -> E:
    if isinstance(value, choices):
        return value
    try:
        return choices(value)
    except ValueError:
        allowed = " | ".join(str(member.value) for member in choices)
        raise ContentError(field, f"is {value!r}; expected one of {allowed}") from None


def moment(field: str, value: object) -> datetime:
    """An aware datetime, or ISO 8601 text with its UTC offset; returned in UTC."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            raise ContentError(
                field, f"is {value!r}, not a date-time like 2021-08-24T15:00+04:30"
            ) from None
    if not isinstance(value, datetime):
        raise ContentError(field, f"is {value!r}, not a date-time like 2021-08-24T15:00+04:30")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ContentError(field, "needs a UTC offset, e.g. 2021-08-24T15:00+04:30 (Kabul time)")
    return value.astimezone(timezone.utc)


def number(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ContentError(field, f"is {value!r}, not a whole number")
    try:
        result = int(value)
    except ValueError:
        raise ContentError(field, f"is {value!r}, not a whole number") from None
    if result < 0:
        raise ContentError(field, f"is {result}; it cannot be negative")
    return result


def degrees(field: str, value: object, limit: float) -> float:
    """A latitude (``limit`` 90) or longitude (180) in decimal degrees: 34.5594, "69.2175"."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ContentError(field, f"is {value!r}, not decimal degrees like 34.5594")
    try:
        result = float(value.strip().replace(",", ".") if isinstance(value, str) else value)
    except ValueError:
        raise ContentError(field, f"is {value!r}, not decimal degrees like 34.5594") from None
    if not math.isfinite(result) or not -limit <= result <= limit:
        raise ContentError(field, f"is {value!r}; it must lie between -{limit:g} and {limit:g}")
    return result


def matching(field: str, value: object, pattern: re.Pattern[str], example: str) -> str | None:
    """An optional text of a given form, e.g. a phone number; None or "" clear it."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        no_nul(field, value)
    if not isinstance(value, str) or not pattern.fullmatch(value.strip()):
        raise ContentError(field, f"is {value!r}; write it like {example}")
    return value.strip()


def editor(value: object) -> str:
    """Who made a change: shown in every history line, so short and on one line."""
    if isinstance(value, str):
        no_nul("editor", value)
    if not isinstance(value, str) or not value.strip() or "\n" in value:
        raise ContentError("editor", "must name who makes the change, e.g. --editor amina")
    if len(value.strip()) > EDITOR_MAX:
        raise ContentError("editor", f"is longer than {EDITOR_MAX} characters")
    return value.strip()


def note(value: object, required: bool = False) -> str:
    """Why a change was made; required where a change hides a fact."""
    cleaned = " ".join(value.split()) if isinstance(value, str) else ""
    no_nul("note", cleaned)
    if required and not cleaned:
        raise ContentError("note", "must say why, e.g. --note 'flight cancelled by operator'")
    if len(cleaned) > NOTE_MAX:
        raise ContentError("note", f"is longer than {NOTE_MAX} characters; keep it short")
    return cleaned


def in_json(value: Any) -> Any:
    """A value as a revision snapshot stores it: enums by value, times as ISO 8601 UTC."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).isoformat()
    return value
