"""The words for a gate, per language and script: "which gate for SIV holders?" asks where to go.

Such a question reads to the NLU like one about documents ("SIV holders"), and the documents
answer names no gate; with one of these words in it, the gates' answer follows (actions/chat/
documents.py). Whole words after the normaliser, with the endings people add («دروازه‌ها»
parts at its joiner).
"""

from __future__ import annotations

import re
from typing import Final

from kernel.lang.codes import gaps, refuse_gaps
from kernel.lang.normalise import normalise

#: Per language, in its script and romanized (a romanized word is its language's: "darwaza"
#: is Dari's and Pashto's, listed once).
GATE_WORDS: Final[dict[str, frozenset[str]]] = {
    "en": frozenset({"gate", "gates"}),
    "prs": frozenset({"دروازه", "دروازهٔ", "دروازۀ", "دروازی", "گیت", "دروازها", "darwaza", "geet"}),
    "ps": frozenset(
        {"دروازه", "دروازې", "دروازو", "ګېټ", "ګیټ", "ګیت", "darwaze", "darwazai", "darwazay"}
    ),
}
refuse_gaps(gaps(GATE_WORDS, "kernel/lang/gate_words.py GATE_WORDS"))
_WORD: Final = re.compile(r"\w+")
_FOLDED: Final = frozenset(normalise(w) for words in GATE_WORDS.values() for w in words)


def names_a_gate(text: str) -> bool:
    """Whether the message asks about a gate, in any of the languages."""
    return any(word in _FOLDED for word in _WORD.findall(normalise(text)))
