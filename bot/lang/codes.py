"""Language and script codes used across the assistant."""

from typing import Final, Literal, TypeGuard

LanguageCode = Literal["en", "prs", "ps"]
ScriptCode = Literal["Arab", "Latn"]

ENGLISH: Final = "en"
DARI: Final = "prs"
PASHTO: Final = "ps"

#: Every language the assistant answers in; every user-facing text exists in each.
LANGUAGES: Final[tuple[LanguageCode, ...]] = (ENGLISH, DARI, PASHTO)
DEFAULT_LANGUAGE: Final[LanguageCode] = ENGLISH
#: Languages written right to left in Arabic script.
RTL_LANGUAGES: Final[frozenset[str]] = frozenset({DARI, PASHTO})


def is_language(value: object) -> TypeGuard[str]:
    """True for one of our language codes (slot values arrive as arbitrary JSON)."""
    return value in LANGUAGES
