"""Reading a content file (format at the top of ``demo.yml``) so every problem names its line.

Values come out in the form the editing service takes (texts as ``{en, prs, ps}``,
organisations and airports by slug and IATA code, times as aware UTC datetimes).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

import yaml

from actions.content.seed.content_file import _Mapping, read_content
from kernel.lang.codes import LANGUAGES
from kernel.settings_values import duration

E = TypeVar("E", bound=enum.Enum)


class SeedError(ValueError):
    """A content file that cannot be loaded; the message says where and what to fix."""


def read_file(path: Path) -> _Mapping:
    """Parse a content file; YAML syntax errors become SeedErrors with the line."""
    try:
        document = read_content(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise SeedError(f"{path.name}: not valid YAML: {error}") from error
    except UnicodeDecodeError as error:
        raise SeedError(f"{path.name}: not UTF-8 text ({error.reason})") from error
    if not isinstance(document, _Mapping):
        raise SeedError(f"{path.name}: expected a mapping with organisations, airports, …")
    return document


class Entry:
    """One mapping of the file, read key by key; every problem names the line."""

    def __init__(
        self, data: object, where: str, now: datetime, allow_missing: bool = False
    ) -> None:
        if not isinstance(data, _Mapping):
            raise SeedError(f"{where}: expected a mapping, found {data!r}")
        self.data, self.now, self.used = data, now, set[str]()
        self.allow_missing = allow_missing
        self.where = f"line {data.line} ({where})"

    def error(self, key: str, problem: str) -> SeedError:
        return SeedError(f"{self.where}: '{key}' {problem}")

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def raw(self, key: str, required: bool = True) -> Any:
        self.used.add(key)
        if key not in self.data or self.data[key] is None:
            if required:
                raise self.error(key, "is missing")
            return None
        return self.data[key]

    def text(self, key: str) -> str:
        value = self.raw(key)
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, "must be a non-empty text")
        return value.strip()

    def localised(self, key: str, required: bool = True) -> dict[str, str] | None:
        """``key: {en, prs, ps}``; with missing translations allowed, at least one of them."""
        value = self.raw(key, required)
        if value is None:
            return None
        languages = ", ".join(LANGUAGES)
        if not isinstance(value, Mapping):
            raise self.error(key, f"needs exactly the languages {languages}")
        problems = [f"unknown {lang}" for lang in value if lang not in LANGUAGES]
        missing = [lang for lang in LANGUAGES if lang not in value]
        if missing and not (self.allow_missing and len(missing) < len(LANGUAGES)):
            problems.append(f"missing {', '.join(missing)}")
        if problems:
            raise self.error(
                key, f"needs exactly the languages {languages} ({'; '.join(problems)})"
            )
        for language, text in value.items():
            if not isinstance(text, str) or not text.strip():
                raise self.error(key, f"has an empty '{language}' text")
        return {lang: " ".join(value[lang].split()) for lang in LANGUAGES if lang in value}

    def choice(self, key: str, choices: type[E]) -> E:
        value = self.text(key)
        try:
            return choices(value)
        except ValueError:
            allowed = " | ".join(member.value for member in choices)
            raise self.error(key, f"is {value!r}; expected one of {allowed}") from None

    def moment(self, key: str, required: bool = True) -> datetime | None:
        value = self.raw(key, required)
        if value is None:
            return None
        try:
            moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
        except ValueError:
            raise self.error(key, f"is {value!r}, not an ISO date-time") from None
        if moment.tzinfo is None:
            raise self.error(key, "needs a UTC offset, e.g. 2021-08-17T17:00:00+04:30")
        return moment.astimezone(timezone.utc)

    def time(
        self, relative: str, absolute: str, sign: int = 1, required: bool = True
    ) -> datetime | None:
        """A relative time (``departs_in: 2h``) or an absolute one (``departs_at: …``)."""
        self.used |= {relative, absolute}
        if self.has(relative) and self.has(absolute):
            raise self.error(relative, f"and '{absolute}' both given; keep one")
        if self.has(absolute):
            return self.moment(absolute)
        value = self.raw(relative, required)
        if value is None:
            return None
        try:
            return self.now + sign * duration(str(value))
        except ValueError as error:
            raise self.error(relative, str(error)) from None

    def ref(self, key: str, known: Collection[str], required: bool = True) -> str | None:
        if not required and not self.has(key):
            self.used.add(key)
            return None
        value = self.text(key)
        if value not in known:
            raise self.error(key, f"refers to unknown {value!r}")
        return value

    def provenance(self, orgs: Collection[str], volatile: bool) -> dict[str, Any]:
        return {
            "source": self.ref("source", orgs),
            "verified_at": self.time("verified_ago", "verified_at", sign=-1),
            "valid_until": self.time("valid_for", "valid_until", required=volatile),
        }

    def done(self) -> None:
        unknown = set(self.data) - self.used
        if unknown:
            raise SeedError(f"{self.where}: unknown keys {', '.join(sorted(unknown))}")


def entries(document: _Mapping, section: str, now: datetime, allow_missing: bool) -> list[Entry]:
    items = document.get(section) or []
    if not isinstance(items, list):
        raise SeedError(f"line {document.line}: '{section}' must be a list")
    return [
        Entry(item, f"{section}[{index}]", now, allow_missing) for index, item in enumerate(items)
    ]
