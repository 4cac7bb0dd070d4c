"""Arabic-script text normalisation shared by the NLU pipeline and the action server.

People type Dari and Pashto on Arabic, Persian and Pashto keyboards, with or without
diacritics and zero-width non-joiners. The same word must reach the model as the same tokens,
so every variant is folded to one form before tokenizing.
"""

import re
import unicodedata
from typing import Final

from kernel.lang.letters import TO_ASCII_DIGITS

#: Letters that keyboards produce in several forms, folded to the Persian/Pashto form.
#: Pashto's own letters (ې ۍ ګ ..., kernel/lang/letters.py) are kept: they carry the language.
_LETTER_FOLDS: Final[dict[str, str | int | None]] = {
    "\u064a": "\u06cc",  # Arabic yeh ي → Persian yeh ی
    "\u0649": "\u06cc",  # alef maksura ى → ی
    "\u0643": "\u06a9",  # Arabic kaf ك → keheh ک
    "\u06c0": "\u0647",  # heh with yeh above ۀ → ه
    "\u0629": "\u0647",  # teh marbuta ة → ه
    "\u0623": "\u0627",  # alef with hamza above أ → ا
    "\u0625": "\u0627",  # alef with hamza below إ → ا
    "\u0671": "\u0627",  # alef wasla ٱ → ا
}

#: Persian (۰–۹) and Arabic-Indic (٠–٩) digits become ASCII too, so "۸۷۱" and "871" are one token.
_TRANSLATION: Final = str.maketrans(_LETTER_FOLDS) | TO_ASCII_DIGITS

#: Harakat, superscript alef, Quranic marks and tatweel carry no meaning in chat text.
_DROPPED: Final = re.compile("[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]")
#: ZWNJ, ZWJ, the Arabic letter mark and bidi controls typed by some keyboards.
_INVISIBLE: Final = re.compile("[\u200b-\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]")
_SPACES: Final = re.compile(r"\s+")
#: A hyphen between Latin letters: "maidan-e hawayi", "e-mail". Few people type the romanized
#: ezafe with a hyphen; most glue it on ("maidane hawayi", after a vowel "khanaye"), so the
#: hyphenated forms are folded into the glued ones.
_LATIN_HYPHEN: Final = re.compile(r"(?<=[a-z])-(?=[a-z])")
_LATIN_EZAFE_AFTER_VOWEL: Final = re.compile(r"(?<=[aiou])-e\b")


def fold(text: str) -> str:
    """Fold keyboard variants of each character; spacing is left as it is.

    Works piece by piece, so entity annotations can be re-anchored (see the NLU normaliser).
    Zero-width non-joiners become spaces: "می‌خواهم", "میخواهم" and "می خواهم" then differ by
    one space at most, which the character n-gram featurizer tolerates. A hyphenated romanized
    ezafe is glued on: "maidan-e" → "maidane", "shomara-e" → "shomaraye".
    """
    text = unicodedata.normalize("NFKC", text)
    text = text.translate(_TRANSLATION)
    text = _DROPPED.sub("", text)
    text = text.replace("\u200c", " ")
    text = _INVISIBLE.sub("", text)
    return _LATIN_HYPHEN.sub("", _LATIN_EZAFE_AFTER_VOWEL.sub("ye", text.lower()))


def normalise(text: str) -> str:
    """Fold keyboard variants and spacing so one word always looks the same to the model."""
    return _SPACES.sub(" ", fold(text)).strip()
