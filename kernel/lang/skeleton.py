"""A word's consonants, the same in Arabic script and in Latin letters: "tazkira" and «تذکره»
both give "tzkr", "canada" and «کاناډا» both "knd".

Romanized Dari and Pashto have no fixed spelling, and Arabic script leaves short vowels out,
so vowels (and و / ی, which are vowels as often as not) are dropped on both sides and
letters people romanize alike share one symbol. Crude on purpose: it only adds evidence
beside the words' own letters (the rumour matcher, actions/claims/matching.py) or stands in for
a romanized word the danger words do not spell that way (kernel/danger.py). Each language's own
letters are in ``SKELETON_LETTERS``: a language added to ``LANGUAGES`` stops the import until
its letters have their symbols (Latin letters are read alike for every language).

Standard library only: both runtimes import it.
"""

import re
from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps

#: Per language, the letters of its script that the Latin rules below do not read (after the
#: normaliser) → one symbol; "" drops the letter. English has none: its letters are Latin. Dari's
#: are the Arabic alphabet's and Persian's; Pashto's those only Pashto writes
#: (kernel/lang/letters.py ``PASHTO_LETTERS``), the others being Dari's too.
SKELETON_LETTERS: Final[dict[str, dict[str, str]]] = {
    ENGLISH: {},
    DARI: {
        "ا": "", "آ": "", "و": "", "ی": "", "ئ": "", "ء": "", "ع": "", "ؤ": "",
        "ب": "b", "پ": "p", "ت": "t", "ط": "t", "ث": "s", "س": "s", "ص": "s",
        "ج": "j", "چ": "C", "ح": "h", "ه": "h", "خ": "x", "د": "d",
        "ذ": "z", "ز": "z", "ض": "z", "ظ": "z", "ر": "r", "ژ": "Z",
        "گ": "g", "ش": "S", "غ": "G", "ف": "f", "ق": "k", "ک": "k",
        "ل": "l", "م": "m", "ن": "n",
    },
    PASHTO: {
        "ې": "", "ۍ": "", "ټ": "t", "ښ": "x", "ډ": "d", "ځ": "z", "ړ": "r", "ږ": "g", "ګ": "g",
        "ڼ": "n", "څ": "s",
    },
}  # fmt: skip
refuse_gaps(gaps(SKELETON_LETTERS, "kernel/lang/skeleton.py SKELETON_LETTERS"))
#: Every language's letters: a word is read the same whichever language it is in.
_ARABIC: Final[dict[str, str]] = {
    letter: symbol for letters in SKELETON_LETTERS.values() for letter, symbol in letters.items()
}

#: Latin digraphs first, then single letters; vowels, w and y are dropped.
_LATIN_DIGRAPHS: Final = re.compile("kh|gh|sh|ch|zh|ph|th|ts")
_DIGRAPH: Final[dict[str, str]] = {
    "kh": "x", "gh": "G", "sh": "S", "ch": "C", "zh": "Z", "ph": "f", "th": "t", "ts": "s",
}  # fmt: skip
_LATIN: Final = str.maketrans(
    {"c": "k", "q": "k", "v": "", "w": "", "y": "", "a": "", "e": "", "i": "", "o": "", "u": ""}
)
_REPEATS: Final = re.compile(r"(.)\1+")


def skeleton(word: str) -> str:
    """The consonant skeleton of one normalised word ("" when it has none)."""
    if word.isascii():
        letters = _LATIN_DIGRAPHS.sub(lambda m: _DIGRAPH[m.group()], word).translate(_LATIN)
    else:
        # A word-final ه is the vowel -a/-e in Dari and Pashto («تذکره» tazkira).
        stem = word[:-1] if len(word) > 2 and word.endswith("ه") else word
        letters = "".join(_ARABIC.get(char, char) for char in stem)
    return _REPEATS.sub(r"\1", letters)
