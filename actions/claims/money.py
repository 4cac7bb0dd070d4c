"""Does a rumour speak of paying: for a seat, a visa, a place on a list?

Such a rumour is the fraudster's door: "they give seats to people who pay", «به کسی که پول
بدهد ویزه میدهد», «که پیسې ورکړې ځای درکوي». Unchecked, it is answered with the anti-fraud line
first (``utter_claim_money``), never with "we have not checked this" alone. Words per language,
compared after the normaliser: a Latin word as the start of a word ("paisay", "dollars"),
Arabic-script words whole, each form listed («پول» must not find «پولیس», the police; the
normaliser parts «پول‌ها» at its joiner).
"""

from __future__ import annotations

import re
from typing import Final

from kernel.lang.normalise import normalise

#: Words that mean money or paying, per way of writing: Latin ones are starts of words.
MONEY_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("money", "paid", "paying", "charge", "bribe", "dollar", "price", "afghani"),
    "prs": (
        "پول",
        "پولی",
        "پولش",
        "پولا",
        "پیسه",
        "پیسی",
        "دالر",
        "ډالر",
        "رشوت",
        "رشوه",
        "قیمت",
        "فیس",
        "افغانی",
    ),
    "ps": ("پیسې", "پیسو", "پیسه", "ډالر", "ډالرو", "بډې", "رشوت", "افغانۍ", "فیس"),
    "latin": (
        "paisa",
        "paisay",
        "paise",
        "paisey",
        "pesa",
        "pese",
        "peesay",
        "pisay",
        "dalar",
        "daalar",
        "rishwat",
        "reshwat",
    ),
}
#: Latin words too short to stand as a word's start ("pay" starts "payam", a message).
WHOLE_LATIN_WORDS: Final = frozenset({"pay", "pays", "fee", "fees", "usd", "cash", "pul", "pool"})
_WORD: Final = re.compile(r"\w+")
_LATIN: Final = re.compile(r"[a-z]+")


def _folded(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(normalise(word) for word in words)


_WHOLE: Final = _folded(MONEY_WORDS["prs"] + MONEY_WORDS["ps"]) | WHOLE_LATIN_WORDS
_STARTS: Final = tuple(_folded(MONEY_WORDS["en"] + MONEY_WORDS["latin"]))


def speaks_of_money(text: str) -> bool:
    """Whether the message names money or paying (in any of the three languages)."""
    for word in _WORD.findall(normalise(text)):
        if word in _WHOLE or (_LATIN.fullmatch(word) and word.startswith(_STARTS)):
            return True
    return False
