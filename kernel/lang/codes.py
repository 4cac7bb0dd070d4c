"""Language and script codes used across the assistant, and the check that every table of words
or facts keyed by language has each of them (docs/ADDING_A_LANGUAGE.md)."""

from collections.abc import Iterable, Mapping
from typing import Final, Literal, TypeGuard

LanguageCode = Literal["en", "prs", "ps"]
ScriptCode = Literal["Arab", "Latn"]

ENGLISH: Final = "en"
DARI: Final = "prs"
PASHTO: Final = "ps"

ARABIC: Final[ScriptCode] = "Arab"
LATIN: Final[ScriptCode] = "Latn"

#: Every language the assistant answers in; every user-facing text exists in each.
LANGUAGES: Final[tuple[LanguageCode, ...]] = (ENGLISH, DARI, PASHTO)
DEFAULT_LANGUAGE: Final[LanguageCode] = ENGLISH
#: Languages written right to left in Arabic script.
RTL_LANGUAGES: Final[frozenset[str]] = frozenset({DARI, PASHTO})


def is_language(value: object) -> TypeGuard[str]:
    """True for one of our language codes (slot values arrive as arbitrary JSON)."""
    return value in LANGUAGES


class IncompleteLanguageTable(ValueError):
    """A table keyed by language lacks a language of ``LANGUAGES`` (or has one that is not);
    the message names the table and the codes, so adding a language lists what to write."""


def gaps(table: Mapping[str, object], name: str) -> list[str]:
    """What keeps ``table`` from having exactly one entry per language in ``LANGUAGES``:
    ``["WEEKDAYS has no 'ur'"]``; empty when it is complete."""
    missing = [f"{name} has no {code!r}" for code in LANGUAGES if code not in table]
    unknown = [f"{name} has {code!r}, not in LANGUAGES" for code in table if code not in LANGUAGES]
    return missing + unknown


def sentence_gaps(table: Mapping[str, Mapping[str, object]], name: str) -> list[str]:
    """``gaps`` of every entry of a table of sentences keyed by id, then by language:
    ``["STATUS['open'] has no 'ur'", …]``."""
    return [gap for key, entry in table.items() for gap in gaps(entry, f"{name}[{key!r}]")]


def every_word(table: Mapping[str, Iterable[str]]) -> frozenset[str]:
    """The words of a table keyed by language, whichever language they are in: a message is
    read against all of them, since people mix languages and scripts."""
    return frozenset(word for words in table.values() for word in words)


def refuse_gaps(found: Iterable[str]) -> None:
    """Raise IncompleteLanguageTable naming every gap; tables call this when they are built, so
    a language added to ``LANGUAGES`` without its words stops the import with the full list."""
    found = list(found)
    if found:
        raise IncompleteLanguageTable("; ".join(found))
