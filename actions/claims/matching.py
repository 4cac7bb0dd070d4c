"""Which checked claim is a message about? Character n-gram TF-IDF over every way it is told.

People tell a rumour in Dari, Pashto or English, in Arabic script or Latin letters, spelled
every which way; a claim is stored with its text in the three languages and the phrasings
editors have seen. Each text becomes a TF-IDF vector of n-grams (``grams``: its rumour words'
letters and consonant skeletons, and the senses they share across languages). A claim scores
its nearest text's cosine, blended with its cosine as a whole (all its texts together: how it
is told in every language), so that the same rumour finds the same claim in whichever of the
five ways it is written. A claim that names places is not matched to a message about
other places ("Australia takes everyone"). ``decide`` turns the ranking into what the person is
told: this claim (strong: what they heard; weak: the closest rumour checked), "did you mean
1 … or 2 …", or that nothing checked matches. A claim only counts when the message is not just
one of the everyday questions the assistant is trained on (``Guard``): nearer to it than to the
nearest of them, or nearly as near when the message passes on hearsay ("I heard…", «میگن»,
"wai"). The guard and the thresholds are chosen on the development split of
``scripts/bench_claims.py``.

Standard library only: the action server answers without numpy or scikit-learn.
"""

from __future__ import annotations

import gc
import heapq
import math
import operator
from array import array
from bisect import bisect_left
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, repeat
from itertools import count as numbering
from operator import methodcaller
from typing import Final

from actions.claims.decision import Candidate, Decision, Guard, Nearness, Thresholds, decide
from actions.claims.frames import is_hearsay
from actions.claims.grams import TF, all_words, counted_grams, rumour_words, terms, word_grams
from actions.claims.senses import Places, places

__all__ = [
    "Candidate",
    "ClaimIndex",
    "Decision",
    "Guard",
    "Nearness",
    "Thresholds",
    "decide",
]

#: Postings walked in full for a message, its rarest n-grams first; beyond them only the best
#: texts found so far, this many claims' texts and as many everyday questions, are scored on
#: the remaining n-grams (``ClaimIndex``); this many claims are scored as wholes.
WALK: Final = 5_000
RESCORED: Final = 25
#: The owner of the everyday questions' texts (not a claim).
EVERYDAY: Final = -1
#: A claim's score: its nearest text's cosine, and this share of its cosine as a whole.
WHOLE: Final = 0.8
#: The guard chosen on the development split (``Guard``'s defaults).
GUARD: Final = Guard()


class ClaimIndex:
    """Every claim's texts as TF-IDF vectors, with postings to score a message quickly.

    Built in one pass over the texts with n-grams as integers (a word's n-grams are worked out
    once, however many texts it is in). A posting is only the text's number: an n-gram's
    weight in a text is its IDF times the text's norm (times 1 + log count in the few texts
    that repeat it), so scoring adds one number per posting. A message is scored in two steps
    so that 5 000 claims stay fast in pure Python: the postings of its rarer n-grams are
    walked in full, up to ``walk`` entries, which finds the texts it can be close to; only the
    ``rescored`` best claims' texts and as many everyday questions (apart, so that a message
    near many everyday questions does not lose its claim) then get the rest of their cosine
    from the common n-grams, looked up by bisection in the sorted postings. With few texts
    every posting fits in the walk and the cosine is exact.

    The claims of the ``rescored`` nearest texts are then scored as wholes (``WHOLE``): each
    claim's n-grams of all its texts together, one compact array per claim.
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
        senses: bool = True,
        whole: float = WHOLE,
        elsewhere: bool = True,
        placed_by: int | None = None,
    ) -> None:
        self._senses = senses
        self._share = whole
        #: Whether a claim that names places is left out for a message about others.
        self._by_place = elsewhere
        #: How many of each owner's first texts say which places it is about (None: all of
        #: them). An editor's question names its place; a phrasing may name others in passing
        #: ("my brother in Germany sends hawala"), which must not keep the answer from a
        #: message that names Pakistan.
        self._placed_by = placed_by
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
        #: The places each claim names (``senses.places``).
        self._places: list[Places] = []
        for owner, position, text in self._owned(claims, everyday):
            words = self._rumour_words(text)
            if counts := self._counted(terms(words, self._senses)):
                self._texts.append(text)
                self._owner.append(owner)
                self._length.append(len(words))
                grams.append(counts)
                placing = self._placed_by is None or position < self._placed_by
                if owner != EVERYDAY and placing:
                    self._places[owner] |= places(words)
        #: The claims' texts come first, numbered 0 to this; the everyday questions after.
        self._claim_texts = self._owner.index(EVERYDAY) if EVERYDAY in self._owner else len(grams)
        background_frequency: Counter[int] = Counter()
        documents = len(grams)
        for text in background:
            background_frequency.update(
                self._counted(terms(self._rumour_words(text), self._senses))
            )
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
                        self._repeated.setdefault(gram, {})[number] = TF[times]
                        norm += (TF[times] ** 2 - 1.0) * squared(gram)
            self._scale.append(1.0 / math.sqrt(norm))
        self._wholes(grams, squared)

    def _wholes(self, grams: list[Counter[int]], squared: Callable[[int], float]) -> None:
        """Each claim as a whole: the n-grams of all its texts, counted together (one said in
        every phrasing is what the claim is about), as sorted ids, their weights before IDF
        (1 + log count) and 1 / the vector's norm.

        Kept apart from the postings: only the claims of a message's nearest texts are scored
        as wholes, and a claim's few hundred n-grams stay two compact arrays.
        """
        texts: list[list[int]] = [[] for _ in self._claims]
        for number, owner in enumerate(self._owner):
            if owner != EVERYDAY:
                texts[owner].append(number)
        self._vocabulary = [_whole(grams, numbers, squared) for numbers in texts]

    def _owned(
        self, claims: Iterable[tuple[str, Sequence[str]]], everyday: Iterable[str]
    ) -> Iterator[tuple[int, int, str]]:
        """Each text with its owner and its place among the owner's texts."""
        for key, texts in claims:
            self._claims.append(key)
            self._places.append(Places())
            for position, text in enumerate(texts):
                yield len(self._claims) - 1, position, text
        for text in everyday:
            yield EVERYDAY, 0, text

    def _rumour_words(self, text: str) -> list[str]:
        return rumour_words(all_words(text), self._frames, self._grammar)

    def _counted(self, words: list[str]) -> Counter[int]:
        """A text's n-gram ids, counted; new n-grams get the next id."""
        ids: list[int] = []
        number = self._ids.__getitem__
        for word in words:
            known = self._words.get(word)
            if known is None:
                known = self._words[word] = tuple(map(number, word_grams(word, self._skeletons)))
            ids += known
        return Counter(ids)

    def __len__(self) -> int:
        return len(self._claims)

    def _query(self, words: list[str]) -> list[tuple[int, float]]:
        """The message's known n-grams, rarest first, each with what a posting of it adds
        to the cosine before the text's norm: its weight in the message times its IDF."""
        counts = counted_grams(words, self._skeletons)
        known: list[tuple[int, float]] = []
        norm = 0.0
        for gram, count in counts.items():
            number = self._ids.get(gram)
            weight = TF[count] * (self._unseen_idf if number is None else self._idf[number])
            norm += weight * weight
            if number is not None:
                known.append((number, weight * self._idf[number]))
        scale = 1.0 / (math.sqrt(norm) or 1.0)
        known.sort(key=lambda item: len(self._postings[item[0]]))
        return [(number, weight * scale) for number, weight in known]

    def _scores(self, query: list[tuple[int, float]]) -> dict[int, float]:
        """Cosine of the message (its ``_query``) with its nearest texts, by text number."""
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
            # The best claim texts and the best everyday questions, apart: a message near many
            # everyday questions must not lose the claim it is about, nor the guard them.
            claims = self._claim_texts
            best = [
                *heapq.nlargest(
                    self._rescored, filter(claims.__gt__, sums), key=self._partial(sums)
                ),
                *heapq.nlargest(
                    self._rescored, filter(claims.__le__, sums), key=self._partial(sums)
                ),
            ]
            sums = self._rescore({number: sums[number] for number in sorted(best)}, query[rest:])
        return {number: total * scale[number] for number, total in sums.items()}

    def _partial(self, sums: dict[int, float]) -> Callable[[int], float]:
        """A text's cosine so far, from the n-grams walked."""
        scale = self._scale
        return lambda number: sums[number] * scale[number]

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

    def match(self, message: str, limit: int = 5, *, guard: Guard = GUARD) -> list[Candidate]:
        """The claims nearest to the message, best first, at most ``limit``, none at 0.

        A claim the message does not come as close to as to the nearest everyday question
        (``Guard``) is left out: "is abbey gate open?" asks about the gate, not about a rumour
        of a list read there.
        """
        return self.nearness(message).candidates(guard, limit)

    def nearness(self, message: str) -> Nearness:
        """How near the message came to each claim and to the everyday questions."""
        words = all_words(message)
        told = is_hearsay(words)
        words = rumour_words(words, self._frames, self._grammar)
        named = places(words) if self._by_place else Places()
        best: dict[int, tuple[float, int]] = {}
        everyday: dict[int, float] = {}
        query = self._query(terms(words, self._senses))
        for number, score in self._scores(query).items():
            owner = self._owner[number]
            if owner == EVERYDAY:
                if score > everyday.get(length := self._length[number], 0.0):
                    everyday[length] = score
            elif owner not in best or score > best[owner][0]:
                best[owner] = (score, number)
        near = heapq.nlargest(
            self._rescored,
            (
                (score, owner, number)
                for owner, (score, number) in best.items()
                if not self._elsewhere(owner, named)
            ),
        )
        adds = dict(query)
        share = self._share
        blended = sorted(
            (
                ((1.0 - share) * score + share * self._as_whole(owner, adds), score, owner, number)
                for score, owner, number in near
            ),
            reverse=True,
        )
        return Nearness(
            told,
            len(words),
            tuple(everyday.items()),
            tuple(
                (score, nearest, self._claims[owner], self._texts[number])
                for score, nearest, owner, number in blended
            ),
        )

    def _as_whole(self, owner: int, adds: dict[int, float]) -> float:
        """The message's cosine with the claim as a whole (``adds``: its ``_query``)."""
        ids, weights, scale = self._vocabulary[owner]
        return scale * math.fsum(map(operator.mul, map(adds.get, ids, repeat(0.0)), weights))

    def _elsewhere(self, owner: int, named: Places) -> bool:
        """Whether the claim is about other places than the message (``Places.elsewhere``)."""
        return self._places[owner].elsewhere(named)


def _whole(
    grams: list[Counter[int]], texts: list[int], squared: Callable[[int], float]
) -> tuple[array[int], array[float], float]:
    """One claim as a whole, from its texts' counted n-grams (one claim at a time: 5 000
    claims' counts together would take hundreds of megabytes while the index is built)."""
    counts = Counter(chain.from_iterable(grams[number].elements() for number in texts))
    ids = array("I", sorted(counts))
    # 1 + log count, from the table (a count past its end weighs what its last entry does).
    last = len(TF) - 1
    weights = array("f", map(TF.__getitem__, map(min, map(counts.__getitem__, ids), repeat(last))))
    norm = math.fsum(map(operator.mul, map(squared, ids), map(operator.mul, weights, weights)))
    return ids, weights, 1.0 / (math.sqrt(norm) or 1.0)


def _idf(documents: int, frequency: int) -> float:
    return math.log((1 + documents) / (1 + frequency)) + 1.0
