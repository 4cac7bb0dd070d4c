"""How the actions put words around database content: digits, isolates, the reader's language.

The words themselves (statuses, labels, date patterns, the note beside an untranslated text)
are in the catalogue, ``kernel/lang/texts/content.py``, three languages side by side; ``word``
takes one from there. Weekday, month and day-part names are in ``kernel/lang/calendar.py``,
language names and the readers' fallback order in ``kernel/lang/names.py``.
"""

from __future__ import annotations

import re
from typing import Final

from kernel.lang import texts
from kernel.lang.codes import DEFAULT_LANGUAGE, RTL_LANGUAGES, is_language
from kernel.lang.letters import written_digits
from kernel.lang.names import LANGUAGE_NAMES

#: Pashto "o'clock": یوه بجه, دوه بجې … (one o'clock is singular).
PASHTO_O_CLOCK: Final = ("بجه", "بجې")

FIRST_STRONG_ISOLATE: Final = "\u2068"
POP_DIRECTIONAL_ISOLATE: Final = "\u2069"
#: An existing isolate (kept as it is), or a Latin run to wrap: it starts with a Latin letter and
#: may hold digits and joining marks ("Abbey Gate", "RCH871", "C-17").
_ISOLATE_OR_LATIN_RUN: Final = re.compile(
    r"(?P<isolated>\u2068[^\u2069]*\u2069)"
    r"|(?<![A-Za-z0-9])(?P<latin>[A-Za-z][A-Za-z0-9]*(?:[ .'’&/-]+[A-Za-z0-9]+)*)"
)


def language_or_default(value: object) -> str:
    """The slot value if it is one of our languages, else English (unknown → en)."""
    return value if isinstance(value, str) and is_language(value) else DEFAULT_LANGUAGE


def word(group: str, key: str, language: str, **variables: object) -> str:
    """``content.<group>.<key>`` of the catalogue (``kernel/lang/texts/content.py``) in
    ``language``, its ``{variables}`` filled in: ``word("status", "boarding", "ps")``."""
    return texts.render(f"content.{group}.{key}", language, **variables)


def digits(text: str, language: str) -> str:
    """Persian digits for Dari and Pashto (times, dates, counts); ASCII for English."""
    return written_digits(text, language)


def not_translated(language: str, shown_in: str) -> str:
    """The note beside a text in ``shown_in`` shown to a reader of ``language``."""
    return texts.render(
        "content.not_translated", language, language=LANGUAGE_NAMES[language][shown_in]
    )


def isolate_latin(text: str, language: str) -> str:
    """Wrap Latin runs in right-to-left text in isolates, so "RCH871 (XJD)" keeps its order."""
    if language not in RTL_LANGUAGES:
        return text
    return _ISOLATE_OR_LATIN_RUN.sub(_isolate, text)


def isolate(text: str, language: str) -> str:
    """Wrap all of ``text`` in an isolate in right-to-left text.

    For what must read left to right as a whole, such as "+93 700 000 101" (whose groups a
    right-to-left line would reverse) or an e-mail address (whose "@" would flip its halves).
    """
    if language not in RTL_LANGUAGES:
        return text
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"


def isolate_foreign(text: str, shown_in: str, language: str) -> str:
    """Isolate a text written in a language of the other direction than the answer's.

    An English sentence inside a Dari answer (or the reverse) otherwise has its punctuation and
    word groups reordered by the surrounding direction.
    """
    if (shown_in in RTL_LANGUAGES) == (language in RTL_LANGUAGES):
        return text
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"


def _isolate(match: re.Match[str]) -> str:
    latin = match.group("latin")
    if latin is None:
        return match.group(0)
    return f"{FIRST_STRONG_ISOLATE}{latin}{POP_DIRECTIONAL_ISOLATE}"
