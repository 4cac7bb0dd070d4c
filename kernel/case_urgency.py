"""Is a case urgent? Whole words of the per-language lexicons (kernel/lang/urgent_words.py).

A caseworker's queue puts urgent cases first. A missed "urgent" costs a person minutes in the
queue, a wrong one costs a caseworker a glance, and the caseworker reads every message anyway.
This once matched any word that *started* with an urgent word, which made «خوندي» ("safe") urgent
for «خون» ("blood") and «لوری» ("side") for «لور» ("daughter"), and still missed «بیړنۍ» typed
with the feminine ۍ. Now a word counts as written or with one of its language's endings, after
the project's normaliser and after folding Pashto letters to what a Persian keyboard types
instead, so «ورور می تپی دی» counts as «ورور مې ټپي دی» does. Measured against the old matcher
on held-out messages by `make bench-urgency` (docs/BENCHMARKS.md).

Standard library only (the action server reads it when a case opens, Rasa's tracker store when a
paused conversation's message arrives; docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from kernel.lang.letters import as_on_persian_keyboard
from kernel.lang.normalise import normalise
from kernel.lang.urgent_words import URGENT_WORDS

#: Romanized spellings of one sound: "mashoom" and "mashum", "rogtoon" and "roghtun".
_LATIN_SPELLINGS: Final = (("oo", "u"), ("ee", "i"))
_WORD: Final = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    folded = as_on_persian_keyboard(normalise(text))
    for spelling, sound in _LATIN_SPELLINGS:
        folded = folded.replace(spelling, sound)
    return _WORD.findall(folded)


def _forms(phrases: Iterable[str], endings: Iterable[str]) -> set[tuple[str, ...]]:
    """Every accepted form of ``phrases``: the last word with each ending."""
    forms: set[tuple[str, ...]] = set()
    for phrase in phrases:
        *head, last = _words(phrase)
        forms.update((*head, last + ending) for ending in endings)
    return forms


_FORMS: Final = frozenset(
    form
    for lexicon in URGENT_WORDS.values()
    for form in _forms(lexicon.words, lexicon.endings) | _forms(lexicon.exact, ("",))
)
_LENGTHS: Final = sorted({len(form) for form in _FORMS})
_CALLS: Final = frozenset(
    w for lexicon in URGENT_WORDS.values() for c in lexicon.calls for w in _words(c)
)
_RINGS: Final = tuple(
    w for lexicon in URGENT_WORDS.values() for r in lexicon.rings for w in _words(r)
)


def _rung(words: list[str]) -> set[int]:
    """Positions of words that ring a phone («زنګ وهلی»): not a blow."""
    return {
        i
        for call, word in enumerate(words)
        if word in _CALLS
        for i in range(call + 1, min(call + 3, len(words)))
        if words[i].startswith(_RINGS)
    }


def is_urgent(text: str) -> bool:
    """True when a word (or run of words) of ``text`` is an urgent word in any language."""
    words = _words(text)
    rung = _rung(words)
    for size in _LENGTHS:
        for i in range(len(words) - size + 1):
            if tuple(words[i : i + size]) in _FORMS and not rung.intersection(range(i, i + size)):
                return True
    return False
