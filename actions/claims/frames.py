"""The words people wrap a rumour in: "is it true that…", «شنیدم که…», «رښتیا ده چې…».

They say nothing about which rumour it is, and every question carries them, so they are
dropped from the message and from the claims' texts alike before matching: what is left is
the rumour itself. The words are every language's, in its script and romanized, from the
tables of kernel/lang/hearsay.py (the frame, a chain letter's appeal, grammar words, hearsay); a
message may mix them.
"""

from collections.abc import Iterable
from typing import Final

from kernel.lang import hearsay
from kernel.lang.codes import every_word
from kernel.lang.normalise import normalise


def _listed(words: Iterable[str]) -> frozenset[str]:
    """The words as the normaliser leaves them («وايي» → «وایی»), as messages are compared."""
    return frozenset(part for word in words for part in normalise(word).split())


#: The frame, English's grammar words with it ("is it true", «شنیدم», "rishtia").
FRAME: Final = _listed(every_word(hearsay.FRAMES))
#: What a forwarded chain letter wraps its rumour in: "URGENT", "forward", «فوری», «ولېږئ».
CHAIN: Final = _listed(every_word(hearsay.CHAIN))
#: Grammar words the matcher can keep (``without_frame(grammar=False)``): «را» «د», "az", "pa".
GRAMMAR: Final = _listed(every_word(hearsay.GRAMMAR))

WORDS: Final = FRAME | CHAIN | GRAMMAR
WITHOUT_GRAMMAR: Final = WORDS - GRAMMAR

#: The words that say a message passes on what someone else said: "I heard", "they say", "is
#: it true", «میگن», «شنیدم», «وايي», «رښتیا», "megan", "awredali". People rarely wrap their own
#: everyday question in them, so such a message is taken as a rumour even when an everyday
#: question comes nearly as close (``matching.Guard``).
HEARSAY: Final = _listed(every_word(hearsay.HEARSAY))


def without_frame(words: list[str], *, grammar: bool = True) -> list[str]:
    """The message's words without the frame (and without the grammar words unless
    ``grammar`` is false); all of them if nothing else is left."""
    dropped = WORDS if grammar else WITHOUT_GRAMMAR
    kept = [word for word in words if word not in dropped]
    return kept or words


def is_hearsay(words: list[str]) -> bool:
    """Whether the (normalised) words pass on something heard: "I heard", «میگن», "wai"."""
    return not HEARSAY.isdisjoint(words)
