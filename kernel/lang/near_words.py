"""The words around a landmark a person names: "near" in each language, and the words of place
names that name no place by themselves (actions/content/nearby.py).

An SMS reader who cannot share a location names a landmark instead ("near Baron Hotel",
«نزدیک هوتل بارون», «د بارون هوټل ته نږدې»). A place is then found by the other words of its
name: every gate's and airport's name has "gate", «دروازه» or «د» in it. Words as people type
them; nearby.py normalises them (kernel/lang/normalise.py) as it does the message, and reads a
message against every language's words, since people mix them.

Standard library only: both runtimes import it.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps

#: Words that say "near".
NEAR_WORDS: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: ("near", "nearby", "close", "around", "next"),
    DARI: ("نزدیک", "نزدیکی", "نزدیکای", "پهلوی", "کنار"),
    PASHTO: ("نږدې", "نژدې", "نږدی", "څنګ", "ترڅنګ", "خوا"),
}
#: Words of place names that name no place by themselves ("gate", «دروازه», «د»).
GENERIC_WORDS: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: ("the", "gate", "side", "main", "entrance", "international", "airport", "of"),
    DARI: ("دروازه", "دروازهٔ", "طرف", "میدان", "هوایی", "بین\u200cالمللی"),
    PASHTO: ("د", "لوری", "هوايي", "ډګر", "نړیوال", "ته"),
}

refuse_gaps(
    gaps(NEAR_WORDS, "kernel/lang/near_words.py NEAR_WORDS")
    + gaps(GENERIC_WORDS, "kernel/lang/near_words.py GENERIC_WORDS")
)
