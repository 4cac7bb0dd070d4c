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

Standard library only: the action server answers without numpy or scikit-learn. So that
5 000 answers and claims (some 130 000 texts) build in seconds and stay small, an index keeps
no Python object per text or per posting, only numbers in arrays: a text is the numbers of
its words, a word (worked out once) the numbers of its n-grams, an n-gram the numbers of the
texts it is in. The long loops run inside ``map``, ``Counter``, ``set.union`` and ``sorted``
rather than in Python bytecode. Every score is still worked out with the same floating-point
operations in the same order as a plain loop over the vectors, ``math.fsum``'s exact sums
included, so that making the index faster changes no ranking and no score.
"""

from __future__ import annotations

import gc
import heapq
import math
import sys
from array import array
from bisect import bisect_left
from collections import Counter, defaultdict, deque
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache, reduce
from itertools import chain, compress, islice, repeat
from itertools import count as numbering
from operator import add, eq, itemgetter, lt, mul, sub
from typing import Final, TypeAlias

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

#: What an n-gram a text has ``count`` times adds to its squared norm beyond once, by count.
_REPEAT_SQUARED: Final = [tf**2 - 1.0 for tf in TF]
#: What such an n-gram adds to a text's score beyond once, per unit of the message's weight.
_REPEAT_ADDS: Final = array("d", [tf - 1.0 for tf in TF])
#: A claim as a whole weighs an n-gram it has ``count`` times 1 + log count in single
#: precision (its counts are kept, capped at the table's end), and this squared.
_WHOLE_TF: Final = list(array("f", TF))
_WHOLE_TF_SQUARED: Final = [weight * weight for weight in _WHOLE_TF]
#: Ends each claim's sorted n-gram numbers, above any n-gram's: a search past the last one
#: finds it rather than the end.
_PAST_ALL: Final = sys.maxsize

#: The texts that have an n-gram more than once, ascending, and what each repeat adds to
#: their score (per unit of the message's weight); None if no text does.
_Repeated: TypeAlias = "tuple[array[int], array[float]] | None"
#: An n-gram's postings: the texts that have it, ascending, and its repeats.
_Postings: TypeAlias = "tuple[array[int], _Repeated]"


class ClaimIndex:
    """Every claim's texts as TF-IDF vectors, with postings to score a message quickly.

    A posting is only the text's number: an n-gram's weight in a text is its IDF times the
    text's norm (times 1 + log count in the few texts that repeat it), so scoring adds one
    number per posting. An n-gram's postings are merged from its words' the first time a
    message needs them (``_walking``). A message is scored in two steps so that 5 000
    claims stay fast in pure Python: the postings of its rarer n-grams are walked in full,
    up to ``walk`` entries, which finds the texts it can be close to; only the ``rescored``
    best claims' texts and as many everyday questions (apart, so that a message near many
    everyday questions does not lose its claim) then get the rest of their cosine from the
    common n-grams, counted again from the text's words. With few texts every posting fits
    in the walk and the cosine is exact.

    The claims of the ``rescored`` nearest texts are then scored as wholes (``WHOLE``): each
    claim's n-grams of all its texts together, kept sorted with their counts.
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
        self._skeletons = skeletons
        self._frames = frames
        self._grammar = grammar
        self._senses = senses
        self._share = whole
        #: Whether a claim that names places is left out for a message about others.
        self._by_place = elsewhere
        #: How many of each owner's first texts say which places it is about (None: all of
        #: them). An editor's question names its place; a phrasing may name others in passing
        #: ("my brother in Germany sends hawala"), which must not keep the answer from a
        #: message that names Pakistan.
        self._placed_by = placed_by
        self._walk = walk
        self._rescored = rescored
        collecting = gc.isenabled()
        # The build makes thousands of arrays and tuples that all live on: the collector
        # would walk them again and again for nothing.
        gc.disable()
        try:
            repeats = self._read(claims, everyday)
            self._weigh(background, repeats)
        finally:
            if collecting:
                gc.enable()

    ## Building -----------------------------------------------------------------------------

    def _read(
        self, claims: Iterable[tuple[str, Sequence[str]]], everyday: Iterable[str]
    ) -> _Repeats:
        """Reads every text once: its words, which texts each word is in, the n-grams it
        has more than once, the places each claim names."""
        self._claims: list[str] = []
        self._texts: list[str] = []
        self._owner = array("i")
        #: How many rumour words each text has (an everyday question much shorter than the
        #: message does not count, ``Guard.share``).
        self._length = array("I")
        #: N-gram → its number; a new n-gram gets the next one (no Python call per n-gram).
        self._ids: defaultdict[str, int] = defaultdict(numbering().__next__)
        #: Word → its number (while the index is built); by number, its n-grams' numbers
        #: (repeats included), how many they are (while built), and the texts it is in, a
        #: text once per time it has the word (``_walking`` merges them into postings).
        self._word_numbers: dict[str, int] = {}
        self._word_grams: list[tuple[int, ...]] = []
        self._word_sizes = array("I")
        self._word_texts: list[array[int]] = []
        #: Each text's words' numbers, one text after the other: text ``t``'s are
        #: ``_text_words[_starts[t] : _starts[t + 1]]``.
        self._text_words = array("I")
        self._starts = array("I", [0])
        repeats = _Repeats()
        placing: list[set[str]] = []
        for owner, position, text in self._owned(claims, everyday, placing):
            told, length = _analysed(text, self._frames, self._grammar, self._senses)
            placed = self._placed_by is None or position < self._placed_by
            if self._add(text, owner, length, told, repeats) and owner != EVERYDAY and placed:
                placing[owner].update(told[:length])
        #: The places each claim names (``senses.places``).
        self._places = [places(words) for words in placing]
        #: The claims' texts come first, numbered 0 to this; the everyday questions after.
        self._claim_texts = (
            self._owner.index(EVERYDAY) if EVERYDAY in self._owner else len(self._owner)
        )
        return repeats

    def _owned(
        self,
        claims: Iterable[tuple[str, Sequence[str]]],
        everyday: Iterable[str],
        placing: list[set[str]],
    ) -> Iterator[tuple[int, int, str]]:
        """Each text with its owner and its place among the owner's texts."""
        for key, texts in claims:
            self._claims.append(key)
            placing.append(set())
            for position, text in enumerate(texts):
                yield len(self._claims) - 1, position, text
        for text in everyday:
            yield EVERYDAY, 0, text

    def _add(
        self, text: str, owner: int, length: int, words: Sequence[str], repeats: _Repeats
    ) -> bool:
        """Indexes one text (``words``: its terms); False if it has none."""
        numbers = self._numbered(words)
        if not numbers:
            return False
        number = len(self._texts)
        self._texts.append(text)
        self._owner.append(owner)
        self._length.append(length)
        self._text_words.extend(numbers)
        self._starts.append(len(self._text_words))
        # Appends ``number`` to its words' texts, looped in C.
        deque(map(array.append, map(self._word_texts.__getitem__, numbers), repeat(number)), 0)
        counts = Counter(chain.from_iterable(map(self._word_grams.__getitem__, numbers)))
        repeats.add(number, counts, sum(map(self._word_sizes.__getitem__, numbers)))
        return True

    def _numbered(self, words: Iterable[str]) -> list[int]:
        """The words' numbers; a new word's n-grams are numbered once, here."""
        try:
            return list(map(self._word_numbers.__getitem__, words))
        except KeyError:
            return [self._word_number(word) for word in words]

    def _word_number(self, word: str) -> int:
        number = self._word_numbers.get(word)
        if number is None:
            number = self._word_numbers[word] = len(self._word_grams)
            grams = tuple(map(self._ids.__getitem__, word_grams(word, self._skeletons)))
            self._word_grams.append(grams)
            self._word_sizes.append(len(grams))
            self._word_texts.append(array("I"))
        return number

    def _weigh(self, background: Iterable[str], repeats: _Repeats) -> None:
        """The IDF, each text's norm and each claim as a whole, once every text is read;
        what the postings are merged from. Drops what only the build needed."""
        documents, background_frequency = self._background(background)
        #: By n-gram, its words and how many times each has it (``_walking``).
        self._gram_words = self._words_by_gram()
        #: By n-gram, how many texts have it (its postings' length).
        self._texts_with = self._texts_having(repeats)
        self._idf = array(
            "d",
            (
                _idf(documents, texts + background_frequency[gram])
                for gram, texts in enumerate(self._texts_with)
            ),
        )
        self._unseen_idf = _idf(documents, 0)
        squared = list(map(mul, self._idf, self._idf))
        #: 1 / the norm of each text's TF-IDF vector.
        self._scale = self._scales(squared, repeats)
        self._vocabulary = [self._whole(owner, squared) for owner in range(len(self._claims))]
        #: By n-gram, its postings once a message walked it (``_walking``).
        self._walks: list[_Postings | None] = [None] * len(self._ids)
        del self._word_numbers, self._word_sizes

    def _background(self, background: Iterable[str]) -> tuple[int, Counter[int]]:
        """How many documents the IDF counts, and how often each n-gram is in the background
        texts (every time it is, as a sum of their counts)."""
        frequency: Counter[int] = Counter()
        documents = len(self._texts)
        for text in background:
            numbers = self._numbered(_analysed(text, self._frames, self._grammar, self._senses)[0])
            frequency.update(chain.from_iterable(map(self._word_grams.__getitem__, numbers)))
            documents += 1
        return documents, frequency

    def _words_by_gram(self) -> list[tuple[tuple[int, int], ...]]:
        """By n-gram, each word it is in and how many times."""
        words: list[list[tuple[int, int]]] = [[] for _ in range(len(self._ids))]
        for word, grams in enumerate(self._word_grams):
            for gram, times in Counter(grams).items():
                words[gram].append((word, times))
        return [tuple(each) for each in words]

    def _texts_having(self, repeats: _Repeats) -> array[int]:
        """By n-gram, how many texts have it: as many as the times its words are in texts,
        less the times a text has it again. (Counted from the words, not text by text.)"""
        times_in_texts = list(map(len, self._word_texts))
        again = repeats.again()
        return array(
            "I",
            (
                sum(times_in_texts[word] * times for word, times in words) - again[gram]
                for gram, words in enumerate(self._gram_words)
            ),
        )

    def _scales(self, squared: list[float], repeats: _Repeats) -> list[float]:
        """1 / each text's norm. Its n-grams' squared weights, each once, are summed exactly
        (the float ``math.fsum`` gives) from its words' exact sums, less what its repeated
        n-grams were counted again; then what the repeats add, in the text's order."""
        exact, unit = _exact(squared)
        by_word = [sum(map(exact.__getitem__, grams)) for grams in self._word_grams]
        words, starts = self._text_words, self._starts
        scales: list[float] = []
        for number in range(len(self._texts)):
            total = sum(map(by_word.__getitem__, words[starts[number] : starts[number + 1]]))
            grams, times = repeats.of(number)
            total -= sum(map(mul, map(exact.__getitem__, grams), map(sub, times, repeat(1))))
            norm = reduce(
                add,
                map(mul, map(_REPEAT_SQUARED.__getitem__, times), map(squared.__getitem__, grams)),
                total / unit,
            )
            scales.append(1.0 / math.sqrt(norm))
        return scales

    def _whole(self, owner: int, squared: list[float]) -> tuple[tuple[int, ...], array[int], float]:
        """One claim as a whole: the n-grams of all its texts, counted together (one said in
        every phrasing is what the claim is about), as sorted numbers (then ``_PAST_ALL``),
        their counts (capped where the weights' table ends) and 1 / the vector's norm. The
        numbers are a tuple, not an array: bisecting a tuple is twice as fast."""
        first = bisect_left(self._owner, owner, 0, self._claim_texts)
        end = bisect_left(self._owner, owner + 1, first, self._claim_texts)
        words = self._text_words[self._starts[first] : self._starts[end]]
        counts = Counter(chain.from_iterable(map(self._word_grams.__getitem__, words)))
        grams = sorted(counts)
        times = _values(counts, grams)
        if max(times, default=0) >= len(TF):
            times = list(map(min, times, repeat(len(TF) - 1)))
        norm = math.fsum(
            map(mul, map(squared.__getitem__, grams), map(_WHOLE_TF_SQUARED.__getitem__, times))
        )
        grams.append(_PAST_ALL)
        return tuple(grams), array("H", times), 1.0 / (math.sqrt(norm) or 1.0)

    ## Matching -----------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._claims)

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
        ordered = sorted(query)
        grams = [gram for gram, _ in ordered]
        adds = [each for _, each in ordered]
        share = self._share
        blended = sorted(
            (
                (
                    (1.0 - share) * score + share * self._as_whole(owner, grams, adds),
                    score,
                    owner,
                    number,
                )
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
        known.sort(key=lambda item: self._texts_with[item[0]])
        return [(number, weight * scale) for number, weight in known]

    def _scores(self, query: list[tuple[int, float]]) -> dict[int, float]:
        """Cosine of the message (its ``_query``) with its nearest texts, by text number."""
        walked = self._walked(query)
        if walked == len(query):
            sums: dict[int, float] = {}
            for gram, adds in query:
                _walk(sums, adds, *self._walking(gram))
        else:
            sums = self._rescore(self._best(query[:walked]), query[walked:])
        scaled = map(mul, sums.values(), map(self._scale.__getitem__, sums))
        return dict(zip(sums, scaled, strict=True))

    def _walked(self, query: list[tuple[int, float]]) -> int:
        """How many of the message's n-grams, rarest first, have their postings walked: the
        first, and those after it while all together have at most ``walk`` postings."""
        walked = 0
        for position, (gram, _) in enumerate(query):
            walked += self._texts_with[gram]
            if position and walked > self._walk:
                return position
        return len(query)

    def _best(self, walked: list[tuple[int, float]]) -> dict[int, float]:
        """The texts the walk finds nearest, with their sums so far, by ascending number:
        the best claim texts and the best everyday questions apart (a message near many
        everyday questions must not lose the claim it is about, nor the guard them). The
        claims' texts have the first numbers, so each n-gram's postings are cut in two
        where they end, and each part is walked into its own sums."""
        cut = self._claim_texts
        claims: dict[int, float] = {}
        everyday: dict[int, float] = {}
        for gram, adds in walked:
            postings, repeated = self._walking(gram)
            at = bisect_left(postings, cut)
            if at == len(postings):
                _walk(claims, adds, postings, repeated)
            elif at == 0:
                _walk(everyday, adds, postings, repeated)
            else:
                _walk(claims, adds, postings[:at], _part(repeated, cut, before=True))
                _walk(everyday, adds, postings[at:], _part(repeated, cut, before=False))
        best = sorted([*self._largest(claims), *self._largest(everyday)])
        return {number: claims[number] if number < cut else everyday[number] for number in best}

    def _walking(self, gram: int) -> _Postings:
        """The n-gram's postings, merged from its words' texts the first time a message
        walks them. A walk reaches the rarer n-grams only: merging every n-gram's postings
        while the index is built would take seconds at 5 000 claims, for postings no walk
        reads. (Two threads merging one n-gram at once merge the same arrays.)"""
        walking = self._walks[gram]
        if walking is None:
            texts = self._word_texts.__getitem__
            words = self._gram_words[gram]
            # A text is in a word's texts once per time it has the word.
            merged = chain.from_iterable(repeat(texts(word), times) for word, times in words)
            walking = self._walks[gram] = _postings(Counter(chain.from_iterable(merged)))
        return walking

    def _largest(self, sums: dict[int, float]) -> list[int]:
        """The ``rescored`` texts of ``sums`` with the largest cosine so far, of equal ones
        those found first (``heapq.nlargest``'s choice), without a Python call per text."""
        numbers = list(sums)
        so_far = list(map(mul, sums.values(), map(self._scale.__getitem__, numbers)))
        if len(numbers) <= self._rescored:
            return numbers
        least = sorted(so_far, reverse=True)[self._rescored - 1]
        above = list(compress(numbers, map(lt, repeat(least), so_far)))
        equal = compress(numbers, map(eq, repeat(least), so_far))
        return above + list(islice(equal, self._rescored - len(above)))

    def _rescore(self, sums: dict[int, float], common: list[tuple[int, float]]) -> dict[int, float]:
        """Adds what the message's common n-grams give each text in ``sums``, in the
        message's order as the walk would have, from the text's n-grams counted again (a
        few dozen texts: cheaper than searching the long postings of the common n-grams)."""
        grams = [gram for gram, _ in common]
        adds = [each for _, each in common]
        words, starts, word_grams = self._text_words, self._starts, self._word_grams.__getitem__
        for number, total in sums.items():
            text = words[starts[number] : starts[number + 1]]
            found = list(map(Counter(chain.from_iterable(map(word_grams, text))).get, grams))
            sums[number] = reduce(
                add,
                map(mul, compress(adds, found), map(TF.__getitem__, filter(None, found))),
                total,
            )
        return sums

    def _as_whole(self, owner: int, grams: list[int], adds: list[float]) -> float:
        """The message's cosine with the claim as a whole (``grams``: its known n-grams in
        ascending order, ``adds``: theirs in its ``_query``), each searched by bisection in
        the claim's sorted n-grams."""
        ids, times, scale = self._vocabulary[owner]
        at = list(map(bisect_left, repeat(ids), grams))
        shared = list(map(eq, map(ids.__getitem__, at), grams))
        weights = map(_WHOLE_TF.__getitem__, map(times.__getitem__, compress(at, shared)))
        return scale * math.fsum(map(mul, compress(adds, shared), weights))

    def _elsewhere(self, owner: int, named: Places) -> bool:
        """Whether the claim is about other places than the message (``Places.elsewhere``)."""
        return self._places[owner].elsewhere(named)


class _Repeats:
    """The n-grams each text has more than once, with how many times, in the text's order:
    what its norm adds for them, while an index is built."""

    def __init__(self) -> None:
        self._grams = array("I")
        self._times = array("I")
        #: Where each text's repeats start in ``_grams`` and ``_times``, by text number.
        self._starts = array("I", [0])

    def add(self, number: int, counts: Counter[int], occurrences: int) -> None:
        """Text ``number``'s repeats (``counts``: its n-grams, ``occurrences`` in all)."""
        if len(counts) < occurrences:
            grams = [gram for gram, times in counts.items() if times > 1]
            self._grams.extend(grams)
            self._times.extend(map(counts.__getitem__, grams))
        self._starts.append(len(self._grams))

    def again(self) -> Counter[int]:
        """By n-gram, how many times a text has it again, in all texts."""
        return Counter(
            chain.from_iterable(map(repeat, self._grams, map(sub, self._times, repeat(1))))
        )

    def of(self, number: int) -> tuple[array[int], array[int]]:
        """Text ``number``'s repeated n-grams and their counts."""
        start, end = self._starts[number], self._starts[number + 1]
        return self._grams[start:end], self._times[start:end]


@lru_cache(maxsize=1 << 13)
def _analysed(text: str, frames: bool, grammar: bool, senses: bool) -> tuple[tuple[str, ...], int]:
    """A text's terms (its rumour words, then their senses' tokens) and how many rumour words
    it has. Kept for the texts indexed last (under a kilobyte each): a process builds two
    indexes that share the claims and most of the 6 000 everyday questions
    (``actions/chat/written.py``), and the second reads them from here."""
    words = rumour_words(all_words(text), frames, grammar)
    return tuple(terms(words, senses)), len(words)


def _walk(sums: dict[int, float], adds: float, postings: array[int], repeated: _Repeated) -> None:
    """Adds one n-gram's share to each text of its postings: ``adds`` each, more where the
    text repeats it. (A plain loop: faster here than ``dict.update`` over ``map``.)"""
    get = sums.get
    for number in postings:
        sums[number] = get(number, 0.0) + adds
    if repeated is not None:
        for number, more in zip(*repeated, strict=True):
            sums[number] += adds * more


def _part(repeated: _Repeated, cut: int, *, before: bool) -> _Repeated:
    """An n-gram's repeats in the texts numbered below ``cut`` (``before``) or from it on."""
    if repeated is None:
        return None
    texts, more = repeated
    at = bisect_left(texts, cut)
    return (texts[:at], more[:at]) if before else (texts[at:], more[at:])


def _postings(counts: Counter[int]) -> _Postings:
    """An n-gram's postings from how many times each text has it."""
    texts = sorted(counts)
    times = _values(counts, texts)
    more = list(map(lt, repeat(1), times))
    if not any(more):
        return array("I", texts), None
    adds = map(_REPEAT_ADDS.__getitem__, compress(times, more))
    return array("I", texts), (array("I", compress(texts, more)), array("d", adds))


def _values(counts: Counter[int], keys: list[int]) -> Sequence[int]:
    """The counts of ``keys``, in their order (``itemgetter``: one call for them all)."""
    return [counts[key] for key in keys] if len(keys) < 2 else itemgetter(*keys)(counts)


def _exact(values: list[float]) -> tuple[list[int], int]:
    """The values as whole numbers of 1 / ``unit``, exactly: a sum of them divided by
    ``unit`` is correctly rounded, the float ``math.fsum`` gives, in integer arithmetic."""
    ratios = [value.as_integer_ratio() for value in values]
    shift = max((below.bit_length() for _, below in ratios), default=1) - 1
    return [above << (shift + 1 - below.bit_length()) for above, below in ratios], 1 << shift


def _idf(documents: int, frequency: int) -> float:
    return math.log((1 + documents) / (1 + frequency)) + 1.0
