"""What the rumour matcher reads of a text: its rumour words and their character n-grams.

A text is normalised (``kernel.lang.normalise``), cut to its opening, split into words; the frame
("is it true that…", «شنیدم که…», a chain letter's "share with everyone") and the grammar words
are dropped (``frames``); each word's senses join it (``senses``: «گیت» also says "gate"). A
word is then its letters' 2–4-grams, padded at its edges, and its consonant skeleton's 2–3-grams
(``kernel.lang.skeleton``: "tazkira" meets «تذکره»). Standard library only.
"""

from __future__ import annotations

import math
import re
from array import array
from collections import Counter
from typing import Final

from actions.claims.frames import without_frame
from actions.claims.senses import is_sense, with_senses
from kernel.lang.normalise import normalise
from kernel.lang.skeleton import skeleton

#: A forwarded message can be long; its opening says what it is about.
MAX_CHARS: Final = 2000
_WORD: Final = re.compile(r"\w+")
_SKELETON: Final = "§"
#: N-gram sizes of a word's letters and of its consonant skeleton.
WORD_GRAMS: tuple[int, ...] = (2, 3, 4)
SKELETON_GRAMS: tuple[int, ...] = (2, 3)

#: 1 + log(count), the weight of an n-gram a text has ``count`` times (a text has ≤ 2 000
#: characters, so fewer than 2 000 of any one).
TF: Final = array("d", [0.0] + [1.0 + math.log(count) for count in range(1, 4 * MAX_CHARS)])


def all_words(text: str) -> list[str]:
    """The text's words, normalised; a long forwarded text only by its opening."""
    return _WORD.findall(normalise(text[: MAX_CHARS * 2])[:MAX_CHARS])


def rumour_words(words: list[str], frames: bool, grammar: bool) -> list[str]:
    """The words the rumour is told in: the frame dropped (``frames``), and the grammar words
    (``grammar``)."""
    return without_frame(words, grammar=grammar) if frames else words


def terms(words: list[str], senses: bool) -> list[str]:
    """The rumour words, and their senses' tokens (``senses``)."""
    return with_senses(words) if senses else words


def features(
    text: str,
    *,
    skeletons: bool = True,
    frames: bool = True,
    grammar: bool = True,
    senses: bool = True,
) -> Counter[str]:
    """The n-grams of a text's rumour words and senses, counted."""
    return counted_grams(terms(rumour_words(all_words(text), frames, grammar), senses), skeletons)


def counted_grams(words: list[str], skeletons: bool) -> Counter[str]:
    grams: Counter[str] = Counter()
    for word in words:
        grams.update(word_grams(word, skeletons))
    return grams


def word_grams(word: str, skeletons: bool) -> list[str]:
    """A word's letter n-grams (padded at its edges), then its consonant skeleton's; a sense's
    token has no skeleton."""
    grams = _grams(f" {word} ", WORD_GRAMS, "")
    if skeletons and not is_sense(word) and (bones := skeleton(word)):
        grams += _grams(f" {bones} ", SKELETON_GRAMS, _SKELETON)
    return grams


def _grams(padded: str, sizes: tuple[int, ...], prefix: str) -> list[str]:
    if not prefix:
        return [
            padded[start : start + size]
            for size in sizes
            for start in range(len(padded) - size + 1)
        ]
    return [
        prefix + padded[start : start + size]
        for size in sizes
        for start in range(len(padded) - size + 1)
    ]
