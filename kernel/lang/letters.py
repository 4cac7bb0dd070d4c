"""The letters and digits of the assistant's languages: the one definition every module uses.

Dari and Pashto are both written in Arabic script, and keyboards produce their digits in two
forms. Everything that asks "is this Arabic script?", "is this Pashto?" or "which digits?"
asks here, so that the language identifier, the renderers and the tests cannot disagree.

* **Pashto letters** are the eleven Pashto writes and Dari does not: ټ ډ ړ ږ ښ ګ ڼ ې ۍ ځ څ.
  ګ (U+06AB, gaf with a ring) is Pashto's gaf; Dari writes گ (U+06AF). A Dari text with ګ was
  typed on a Pashto keyboard: alone, the letter is no proof, and the identifier weighs the rest
  of the message (bot/nlu/langid.py).
* **Persian letters** are the four Persian adds to the Arabic alphabet, پ چ ژ گ. Dari writes
  all four; Pashto writes پ چ ژ, and ګ where Dari has گ.
* **Digits.** Dari and Pashto readers write Extended Arabic-Indic digits (۰–۹, U+06F0); Arabic
  keyboards give Arabic-Indic ones (٠–٩, U+0660). Both are read as ASCII digits; answers in
  Dari and Pashto are written with ۰–۹.

Standard library only: both runtimes import it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from kernel.lang.codes import ARABIC, DARI, ENGLISH, LATIN, PASHTO, gaps, refuse_gaps

PASHTO_GAF: Final = "\u06ab"  # ګ
DARI_GAF: Final = "\u06af"  # گ
#: Letters Pashto writes and Dari does not.
PASHTO_LETTERS: Final = frozenset("ټډړږښڼځڅېۍ" + PASHTO_GAF)
#: Letters Persian (and so Dari) adds to the Arabic alphabet.
PERSIAN_LETTERS: Final = frozenset("پچژ" + DARI_GAF)

ASCII_DIGITS: Final = "0123456789"
#: Extended Arabic-Indic digits, as Dari and Pashto write them.
PERSIAN_DIGITS: Final = "".join(chr(0x06F0 + i) for i in range(10))
#: Arabic-Indic digits, as Arabic keyboards produce them.
ARABIC_INDIC_DIGITS: Final = "".join(chr(0x0660 + i) for i in range(10))

#: Arabic-script punctuation: comma ، semicolon ؛ question mark ؟ full stop ۔ (for stripping
#: what people type around a word; the Latin ones are everybody's).
ARABIC_PUNCTUATION: Final = "\u060c\u061b\u061f\u06d4"

#: The digits each language's readers write.
WRITTEN_DIGITS: Final[dict[str, str]] = {
    ENGLISH: ASCII_DIGITS,
    DARI: PERSIAN_DIGITS,
    PASHTO: PERSIAN_DIGITS,
}

#: ``str.translate`` table: Persian and Arabic-Indic digits → ASCII.
TO_ASCII_DIGITS: Final = str.maketrans(PERSIAN_DIGITS + ARABIC_INDIC_DIGITS, ASCII_DIGITS * 2)

#: Unicode blocks of Arabic script: Arabic, Supplement, Extended-A, Presentation Forms A and B.
_ARABIC_BLOCKS: Final = (
    (0x0600, 0x06FF),
    (0x0750, 0x077F),
    (0x08A0, 0x08FF),
    (0xFB50, 0xFDFF),
    (0xFE70, 0xFEFF),
)


def _letter_class(blocks: tuple[tuple[int, int], ...]) -> str:
    """A regex class of the letters (Unicode category L*) in ``blocks``: no digits, marks,
    punctuation or tatweel (a stretching stroke, category Lm, that is no letter to a reader)."""
    codes = [
        code
        for first, last in blocks
        for code in range(first, last + 1)
        if unicodedata.category(chr(code)).startswith("L") and code != 0x0640
    ]
    runs: list[list[int]] = []
    for code in codes:
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "[" + "".join(_range(first, last) for first, last in runs) + "]"


def _range(first: int, last: int) -> str:
    return f"\\u{first:04x}" if first == last else f"\\u{first:04x}-\\u{last:04x}"


#: One Arabic-script letter, in any of its Unicode forms.
ARABIC_LETTER: Final = re.compile(_letter_class(_ARABIC_BLOCKS))
#: One Latin letter, accented ones included ("café", "Kārēz").
LATIN_LETTER: Final = re.compile("[A-Za-z\u00c0-\u024f]")


#: What a Persian keyboard types for each Pashto-only letter (ځ also as ج, څ as چ, ښ as خ: the
#: first is the commoner), and ی for the ئ of «کړئ»: «ورور مې ټپي دی» typed as «ورور می تپی دی».
PERSIAN_KEYBOARD: Final = str.maketrans(
    {"ټ": "ت", "ډ": "د", "ړ": "ر", "ږ": "ز", "ښ": "ش", "ګ": "گ", "ڼ": "ن", "ې": "ی", "ۍ": "ی",
     "ځ": "ز", "څ": "س", "ئ": "ی"}
)  # fmt: skip


def as_on_persian_keyboard(text: str) -> str:
    """``text`` as someone with only a Persian keyboard types it: one form for both typings
    of a Pashto word, where the language does not matter (intents, urgent words)."""
    return text.translate(PERSIAN_KEYBOARD)


def to_ascii_digits(text: str) -> str:
    """Persian and Arabic-Indic digits → ASCII ("RCH۸۷۱" → "RCH871"); the rest unchanged."""
    return text.translate(TO_ASCII_DIGITS)


def written_digits(text: str, language: str) -> str:
    """ASCII digits in ``text`` written as ``language``'s readers write them (۰–۹ in Dari and
    Pashto); other characters unchanged. An unknown language keeps ASCII."""
    digits = WRITTEN_DIGITS.get(language, ASCII_DIGITS)
    return text if digits == ASCII_DIGITS else text.translate(str.maketrans(ASCII_DIGITS, digits))


def has_arabic_script(text: str) -> bool:
    """True when the text contains any Arabic-script letter."""
    return bool(ARABIC_LETTER.search(text))


def script_of(text: str) -> str | None:
    """Arab when any Arabic-script letter is present, else Latn; None without letters.

    English speakers do not type Arabic script: "gate باز است" is Dari with an English word.
    """
    if ARABIC_LETTER.search(text):
        return ARABIC
    return LATIN if LATIN_LETTER.search(text) else None


def pashto_letter_count(text: str) -> int:
    """How many of the text's letters only Pashto writes."""
    return sum(1 for char in text if char in PASHTO_LETTERS)


def table_gaps() -> list[str]:
    """What the tables here lack for a language in ``LANGUAGES`` (empty when complete)."""
    return gaps(WRITTEN_DIGITS, "kernel/lang/letters.py WRITTEN_DIGITS")


refuse_gaps(table_gaps())
