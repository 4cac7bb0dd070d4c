"""Words that make a case urgent: a medical emergency, a child, violence, in the three languages.

A caseworker's queue puts urgent cases first. Deciding that from a few words is crude on
purpose: a missed "urgent" costs a person minutes in the queue, a wrong one costs a caseworker a
glance, and the caseworker reads every message anyway. Standard library only (the action server
reads it when a case opens, Rasa's tracker store when a paused conversation's message arrives;
docs/ARCHITECTURE.md). A word counts when a word of the message starts with it, so Dari and Pashto
suffixes ("طفلم", "ماشومان") and English plurals still count; Latin words of three letters and
any of two only as whole words ("son", not "sonia").
"""

from __future__ import annotations

import re
from typing import Final

from bot.lang.letters import has_arabic_script
from bot.lang.normalise import normalise

URGENT_WORDS: Final = frozenset(
    {
        # English: medical, child, violence.
        "ambulance", "bleeding", "blood", "doctor", "hospital", "injured", "injury", "wounded",
        "sick", "pregnant", "unconscious", "heart attack", "emergency", "dying",
        "child", "children", "baby", "kid", "kids", "son", "daughter", "minor",
        "beaten", "beat me", "attack", "shot", "violence", "threat", "kidnap", "rape", "gun",
        # Dari (Arabic script): زخمی، خون، داکتر، شفاخانه، امبولانس، مریض، حامله؛ طفل، اولاد،
        # بچه، کودک، دختر، پسر؛ لت و کوب، تهدید، حمله، خشونت، فیر، اختطاف، تجاوز.
        "زخمی", "خون", "خونریزی", "داکتر", "شفاخانه", "امبولانس", "مریض", "حامله", "بیهوش", "عاجل",
        "طفل", "اطفال", "اولاد", "بچه", "کودک", "دختر", "پسر",
        "لت و کوب", "تهدید", "حمله", "خشونت", "فیر", "اختطاف", "تجاوز", "لت",
        # Pashto: ټپي، وینه، ډاکټر، روغتون، ناروغ، امیندواره؛ ماشوم، کوچنی، زوی، لور؛
        # وهل، ګواښ، برید، تاوتریخوالی، ډزې، تښتول.
        "ټپی", "وینه", "ډاکټر", "روغتون", "ناروغ", "امیندواره", "بېهوښ", "بیړنی",
        "ماشوم", "کوچنی", "زوی", "لور",
        "وهل", "ګواښ", "برید", "تاوتریخوالی", "ډزې", "تښتول", "زورزیاتی",
        # Romanized Dari and Pashto.
        "zakhmi", "khun", "daktar", "doktar", "shifakhana", "ambulans", "mariz", "hamila",
        "tifl", "atfal", "awlad", "bacha", "kudak", "dokhtar", "pesar",
        "tahdid", "hamla", "khushunat", "lat o kob",
        "tapi", "wina", "roghtun", "naroogh", "narogh", "mashum", "mashoom", "kuchnai", "zoy",
        "wahal", "gwash", "barid", "dze",
    }
)  # fmt: skip

_WORD: Final = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    return _WORD.findall(normalise(text).replace("\u200c", ""))


_PHRASES: Final = tuple(tuple(_words(term)) for term in sorted(URGENT_WORDS))


def is_urgent(text: str) -> bool:
    """True when a word (or run of words) of ``text`` starts with an urgent word."""
    words = _words(text)
    for phrase in _PHRASES:
        size = len(phrase)
        for i in range(len(words) - size + 1):
            window = words[i : i + size]
            last, wanted = window[-1], phrase[-1]
            prefix = len(wanted) >= (3 if has_arabic_script(wanted) else 4)
            matches = last.startswith(wanted) if prefix else last == wanted
            if window[:-1] == list(phrase[:-1]) and matches:
                return True
    return False
