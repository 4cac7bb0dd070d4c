"""What each language is called in each language, and what its readers read next.

Standard library only: the console's language switch, the "not yet translated" notes of the
answers and the channels' language guesses all read these tables.
"""

from __future__ import annotations

from typing import Final

from kernel.lang import codes
from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps

#: ``LANGUAGE_NAMES[reader][language]``: how a reader of ``reader`` names ``language``.
#: Dari names Pashto «پشتو», Pashto names Dari «دري».
LANGUAGE_NAMES: Final[dict[str, dict[str, str]]] = {
    ENGLISH: {ENGLISH: "English", DARI: "Dari", PASHTO: "Pashto"},
    DARI: {ENGLISH: "انگلیسی", DARI: "دری", PASHTO: "پشتو"},
    PASHTO: {ENGLISH: "انګلیسي", DARI: "دري", PASHTO: "پښتو"},
}

#: In which languages a reader gets a text an editor published before translating it into
#: theirs, best first. An Afghan reader's view:
#: * Pashto readers get Dari next: most Pashto speakers read and understand Dari, the lingua
#:   franca of Kabul, of government, schooling and the media, written in the same script.
#: * Dari readers get English next, Pashto last: far fewer Dari speakers understand Pashto than
#:   the other way round, and English is what the sources editors work from (embassies,
#:   airlines, the UN) publish in, so it is most often the original text; many evacuees,
#:   former staff of foreign missions, read it, and a relative or a phone can translate it.
#: * English readers get Dari before Pashto: more people can read it for them.
READING_ORDER: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (ENGLISH, DARI, PASHTO),
    DARI: (DARI, ENGLISH, PASHTO),
    PASHTO: (PASHTO, DARI, ENGLISH),
}


def own_name(language: str) -> str:
    """The language's name for itself: "دری", "پښتو" (for a language switch)."""
    return LANGUAGE_NAMES[language][language]


def table_gaps() -> list[str]:
    """What the tables here lack for a language in ``LANGUAGES`` (empty when complete)."""
    found = gaps(LANGUAGE_NAMES, "kernel/lang/names.py LANGUAGE_NAMES")
    found += gaps(READING_ORDER, "kernel/lang/names.py READING_ORDER")
    for reader, names in LANGUAGE_NAMES.items():
        found += gaps(names, f"kernel/lang/names.py LANGUAGE_NAMES[{reader!r}]")
    every = sorted(codes.LANGUAGES)  # read now: a test adds a language to see what is missing
    for reader, order in READING_ORDER.items():
        if order[:1] != (reader,) or sorted(order) != every:
            found.append(
                f"kernel/lang/names.py READING_ORDER[{reader!r}] must start with {reader!r} and "
                f"hold every language once: {order}"
            )
    return found


refuse_gaps(table_gaps())
