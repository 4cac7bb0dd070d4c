"""Which checked claim is a message about? Character n-gram TF-IDF, nearest text wins.

People tell a rumour in Dari, Pashto or English, in Arabic script or Latin letters, spelled
every which way; a claim is stored with its text in the three languages and the phrasings
editors have seen. Each text becomes a vector of the character 2–4-grams of its words (padded
at word boundaries, after the normaliser, without the frame words of ``frames``) and of their
consonant skeletons (``skeleton``: "tazkira" meets «تذکره»), weighted by TF-IDF; a claim scores
the cosine of its nearest text. ``decide`` turns the ranking into what the person is told:
this claim, "did you mean 1 … or 2 …", or that nothing checked matches. A claim only counts
when the message is not just one of the everyday questions the assistant is trained on
(``Guard``): nearer to it than to the nearest of them, or nearly as near when the message
passes on hearsay ("I heard…", «میگن», "wai").

Standard library only: the action server answers without numpy or scikit-learn.
"""

from __future__ import annotations

import gc
import heapq
import math
import operator
import re
from array import array
from bisect import bisect_left
from collections import Counter, defaultdict, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import count as numbering
from operator import methodcaller
from typing import Final, Literal

from actions.claims.frames import is_hearsay, without_frame
from bot.lang.normalise import normalise
from bot.lang.skeleton import skeleton

#: A forwarded message can be long; its opening says what it is about.
MAX_CHARS: Final = 2000
_WORD: Final = re.compile(r"\w+")
_SKELETON: Final = "§"
#: N-gram sizes of a word's letters and of its consonant skeleton.
WORD_GRAMS: tuple[int, ...] = (2, 3, 4)
SKELETON_GRAMS: tuple[int, ...] = (2, 3)
#: Postings walked in full for a message, its rarest n-grams first; beyond them only the best
#: texts found so far are scored on the remaining n-grams (``ClaimIndex``).
WALK: Final = 5_000
RESCORED: Final = 50
#: The owner of the everyday questions' texts (not a claim).
EVERYDAY: Final = -1


@dataclass(frozen=True)
class Candidate:
    """A checked claim and how close the message came to it (cosine, 0–1)."""

    claim: str
    score: float
    #: The claim's text or phrasing nearest to the message, to show which one it matched.
    text: str


@dataclass(frozen=True)
class Guard:
    """When a message counts as a rumour rather than one of the everyday questions.

    A claim is kept only if the message comes at least as close to it as to the nearest
    everyday question (plus ``margin``). A message passing on what it heard ("I heard",
    «میگن», "wai", ``frames.HEARSAY``) is held to ``hearsay_margin`` instead.
    ``share`` and ``enough``: an everyday question counts only if it has at least ``share``
    of the message's words, or ``enough`` words (measured, not chosen: it lets an unchecked
    rumour through, docs/CLAIMS.md). All are chosen on the development split
    (scripts/bench_claims.py).
    """

    margin: float = 0.0
    hearsay_margin: float = -0.1
    share: float = 0.6
    enough: int = 99


@dataclass(frozen=True)
class Thresholds:
    """Where a match starts, and how close a second claim must come to be offered too."""

    #: Below this score the message matches no checked claim.
    match: float = 0.36
    #: A second claim within this of the first (and above ``match``): ask which one.
    close: float = 0.08


@dataclass(frozen=True)
class Decision:
    """What the person is told: one claim, a choice of two, or that none matches."""

    kind: Literal["one", "two", "none"]
    candidates: tuple[Candidate, ...]


def features(
    text: str, *, skeletons: bool = True, frames: bool = True, grammar: bool = True
) -> Counter[str]:
    """The n-grams of a text's rumour words, counted."""
    return _counted_grams(_words(_all_words(text), frames, grammar), skeletons)


def _counted_grams(words: list[str], skeletons: bool) -> Counter[str]:
    grams: Counter[str] = Counter()
    for word in words:
        grams.update(_word_grams(word, skeletons))
    return grams


def _all_words(text: str) -> list[str]:
    """The text's words, normalised; a long forwarded text only by its opening."""
    return _WORD.findall(normalise(text[: MAX_CHARS * 2])[:MAX_CHARS])


def _words(words: list[str], frames: bool, grammar: bool) -> list[str]:
    """The words the rumour is told in: the frame dropped (``frames``), and the grammar words
    (``grammar``)."""
    return without_frame(words, grammar=grammar) if frames else words


def _word_grams(word: str, skeletons: bool) -> list[str]:
    """A word's letter n-grams (padded at its edges), then its consonant skeleton's."""
    grams = _grams(f" {word} ", WORD_GRAMS, "")
    if skeletons and (bones := skeleton(word)):
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


class ClaimIndex:
    """Every claim's texts as TF-IDF vectors, with postings to score a message quickly.

    Built in one pass over the texts with n-grams as integers (a word's n-grams are worked out
    once, however many texts it is in). A posting is only the text's number: an n-gram's
    weight in a text is its IDF times the text's norm (times 1 + log count in the few texts
    that repeat it), so scoring adds one number per posting. A message is scored in two steps
    so that 5 000 claims stay fast in pure Python: the postings of its rarer n-grams are
    walked in full, up to ``walk`` entries, which finds the texts it can be close to; only the
    ``rescored`` best of those then get the rest of their cosine from the common n-grams,
    looked up by bisection in the sorted postings. With few texts every posting fits in the
    walk and the cosine is exact.
    """

    def __init__(
        self,
        claims: Iterable[tuple[str, Sequence[str]]],
        *,
        skeletons: bool = True,
        frames: bool = True,
        grammar: bool = True,
        background: Iterable[str] = (),
        everyday: Iterable[str] = (),
        walk: int = WALK,
        rescored: int = RESCORED,
    ) -> None:
        collecting = gc.isenabled()
        # The build makes tens of thousands of containers that all live on: the collector
        # would walk them again and again for nothing (a fifth of the time at 5 000 claims).
        gc.disable()
        try:
            self._build(claims, everyday, background, skeletons, frames, grammar)
        finally:
            if collecting:
                gc.enable()
        self._walk = walk
        self._rescored = rescored

    def _build(
        self,
        claims: Iterable[tuple[str, Sequence[str]]],
        everyday: Iterable[str],
        background: Iterable[str],
        skeletons: bool,
        frames: bool,
        grammar: bool,
    ) -> None:
        self._skeletons = skeletons
        self._frames = frames
        self._grammar = grammar
        self._claims: list[str] = []
        self._texts: list[str] = []
        self._owner: list[int] = []
        #: How many rumour words each text has (an everyday question much shorter than the
        #: message does not count, ``Guard.share``).
        self._length = array("I")
        #: N-gram → its number; a new n-gram gets the next one (no Python call per n-gram).
        self._ids: defaultdict[str, int] = defaultdict(numbering().__next__)
        #: Each word's n-gram numbers, worked out once (tuples: the collector skips them).
        self._words: dict[str, tuple[int, ...]] = {}
        grams: list[Counter[int]] = []
        for owner, text in self._owned(claims, everyday):
            words = self._rumour_words(text)
            if counts := self._counted(words):
                self._texts.append(text)
                self._owner.append(owner)
                self._length.append(len(words))
                grams.append(counts)
        background_frequency: Counter[int] = Counter()
        documents = len(grams)
        for text in background:
            background_frequency.update(self._counted(self._rumour_words(text)).keys())
            documents += 1
        self._postings: list[array[int]] = [array("I") for _ in range(len(self._ids))]
        appends = self._postings.__getitem__
        for number, counts in enumerate(grams):
            # Appends ``number`` to each of the text's n-grams' postings, looped in C.
            deque(map(methodcaller("append", number), map(appends, counts)), maxlen=0)
        self._words.clear()
        self._ids.default_factory = None
        idf = self._idf = array(
            "d",
            (
                _idf(documents, len(postings) + background_frequency[gram])
                for gram, postings in enumerate(self._postings)
            ),
        )
        self._unseen_idf = _idf(documents, 0)
        squared = array("d", map(operator.mul, idf, idf)).__getitem__
        #: Texts that repeat an n-gram: 1 + log count, by n-gram and text number.
        self._repeated: dict[int, dict[int, float]] = {}
        #: 1 / the norm of each text's TF-IDF vector.
        self._scale = array("d")
        for number, counts in enumerate(grams):
            norm = math.fsum(map(squared, counts))
            if counts.total() != len(counts):
                for gram, times in counts.items():
                    if times > 1:
                        self._repeated.setdefault(gram, {})[number] = _TF[times]
                        norm += (_TF[times] ** 2 - 1.0) * squared(gram)
            self._scale.append(1.0 / math.sqrt(norm))

    def _owned(
        self, claims: Iterable[tuple[str, Sequence[str]]], everyday: Iterable[str]
    ) -> Iterator[tuple[int, str]]:
        for key, texts in claims:
            self._claims.append(key)
            for text in texts:
                yield len(self._claims) - 1, text
        for text in everyday:
            yield EVERYDAY, text

    def _rumour_words(self, text: str) -> list[str]:
        return _words(_all_words(text), self._frames, self._grammar)

    def _counted(self, words: list[str]) -> Counter[int]:
        """A text's n-gram ids, counted; new n-grams get the next id."""
        ids: list[int] = []
        number = self._ids.__getitem__
        for word in words:
            known = self._words.get(word)
            if known is None:
                known = self._words[word] = tuple(map(number, _word_grams(word, self._skeletons)))
            ids += known
        return Counter(ids)

    def __len__(self) -> int:
        return len(self._claims)

    def _query(self, words: list[str]) -> list[tuple[int, float]]:
        """The message's known n-grams, rarest first, each with what a posting of it adds
        to the cosine before the text's norm: its weight in the message times its IDF."""
        counts = _counted_grams(words, self._skeletons)
        known: list[tuple[int, float]] = []
        norm = 0.0
        for gram, count in counts.items():
            number = self._ids.get(gram)
            weight = _TF[count] * (self._unseen_idf if number is None else self._idf[number])
            norm += weight * weight
            if number is not None:
                known.append((number, weight * self._idf[number]))
        scale = 1.0 / (math.sqrt(norm) or 1.0)
        known.sort(key=lambda item: len(self._postings[item[0]]))
        return [(number, weight * scale) for number, weight in known]

    def _scores(self, words: list[str]) -> dict[int, float]:
        """Cosine of the message with its nearest texts, by text number."""
        query = self._query(words)
        sums: dict[int, float] = {}
        get = sums.get
        walked = 0
        rest = len(query)
        for position, (gram, adds) in enumerate(query):
            postings = self._postings[gram]
            if position and walked + len(postings) > self._walk:
                rest = position
                break
            walked += len(postings)
            for number in postings:
                sums[number] = get(number, 0.0) + adds
            for number, tf in self._repeated.get(gram, {}).items():
                sums[number] += adds * (tf - 1.0)
        scale = self._scale
        if rest < len(query):
            best = heapq.nlargest(
                self._rescored, sums, key=lambda number: sums[number] * scale[number]
            )
            sums = self._rescore({number: sums[number] for number in sorted(best)}, query[rest:])
        return {number: total * scale[number] for number, total in sums.items()}

    def _rescore(self, sums: dict[int, float], common: list[tuple[int, float]]) -> dict[int, float]:
        """Adds what the message's common n-grams give the texts in ``sums`` (by ascending
        number, so each n-gram's postings are searched from where the last text was found)."""
        for gram, adds in common:
            postings = self._postings[gram]
            repeated = self._repeated.get(gram, {})
            end = len(postings)
            at = 0
            for number in sums:
                at = bisect_left(postings, number, at, end)
                if at == end:
                    break
                if postings[at] == number:
                    sums[number] += adds * repeated.get(number, 1.0)
        return sums

    def match(self, message: str, limit: int = 5, *, guard: Guard = Guard()) -> list[Candidate]:
        """The claims nearest to the message, best first, at most ``limit``, none at 0.

        A claim the message does not come as close to as to the nearest everyday question
        (``Guard``) is left out: "is abbey gate open?" asks about the gate, not about a rumour
        of a list read there.
        """
        words = _all_words(message)
        told = is_hearsay(words)
        words = _words(words, self._frames, self._grammar)
        longest = self._length
        needed = min(guard.share * len(words), guard.enough)
        best: dict[int, tuple[float, int]] = {}
        everyday = 0.0
        for number, score in self._scores(words).items():
            owner = self._owner[number]
            if owner == EVERYDAY:
                if score > everyday and longest[number] >= needed:
                    everyday = score
            elif owner not in best or score > best[owner][0]:
                best[owner] = (score, number)
        floor = everyday + (guard.hearsay_margin if told else guard.margin)
        ranked = sorted(
            (item for item in best.items() if item[1][0] >= floor),
            key=lambda item: -item[1][0],
        )[:limit]
        return [
            Candidate(self._claims[owner], round(min(score, 1.0), 4), self._texts[number])
            for owner, (score, number) in ranked
        ]


#: 1 + log(count), the weight of an n-gram a text has ``count`` times (a text has ≤ 2 000
#: characters, so fewer than 2 000 of any one).
_TF: Final = array("d", [0.0] + [1.0 + math.log(count) for count in range(1, 4 * MAX_CHARS)])


def _idf(documents: int, frequency: int) -> float:
    return math.log((1 + documents) / (1 + frequency)) + 1.0


def decide(candidates: Sequence[Candidate], thresholds: Thresholds = Thresholds()) -> Decision:
    """One claim, two close ones to choose from ("did you mean 1 … or 2 …"), or none."""
    if not candidates or candidates[0].score < thresholds.match:
        return Decision("none", ())
    first = candidates[0]
    if len(candidates) > 1:
        second = candidates[1]
        if second.score >= thresholds.match and first.score - second.score <= thresholds.close:
            return Decision("two", (first, second))
    return Decision("one", (first,))
