"""Which checked claim is a message about? Character n-gram TF-IDF, nearest text wins.

People tell a rumour in Dari, Pashto or English, in Arabic script or Latin letters, spelled
every which way; a claim is stored with its text in the three languages and the phrasings
editors have seen. Each text becomes a vector of the character 2–4-grams of its words (padded
at word boundaries, after the normaliser, without the frame words of ``frames``) and of their
consonant skeletons (``skeleton``: "tazkira" meets «تذکره»), weighted by TF-IDF; a claim scores
the cosine of its nearest text. ``decide`` turns the ranking into what the person is told:
this claim, "did you mean 1 … or 2 …", or that nothing checked matches.

Standard library only: the action server answers without numpy or scikit-learn.
"""

from __future__ import annotations

import heapq
import math
import re
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from actions.claims.frames import without_frame
from actions.claims.skeleton import skeleton
from bot.lang.normalise import normalise

#: A forwarded message can be long; its opening says what it is about.
MAX_CHARS: Final = 2000
_WORD: Final = re.compile(r"\w+")
_SKELETON: Final = "§"
#: N-gram sizes of a word's letters and of its consonant skeleton.
WORD_GRAMS: tuple[int, ...] = (2, 3, 4)
SKELETON_GRAMS: tuple[int, ...] = (2, 3)
#: How much closer to a claim than to an everyday question a message must come (chosen on
#: the development split, scripts/bench_claims.py).
EVERYDAY_MARGIN: Final = -0.05
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
class Thresholds:
    """Where a match starts, and how close a second claim must come to be offered too."""

    #: Below this score the message matches no checked claim.
    match: float = 0.33
    #: A second claim within this of the first (and above ``match``): ask which one.
    close: float = 0.04


@dataclass(frozen=True)
class Decision:
    """What the person is told: one claim, a choice of two, or that none matches."""

    kind: Literal["one", "two", "none"]
    candidates: tuple[Candidate, ...]


def features(text: str, *, skeletons: bool = True, frames: bool = True) -> Counter[str]:
    """The n-grams of a text's rumour words, counted."""
    grams: Counter[str] = Counter()
    for word in _words(text, frames):
        grams.update(_word_grams(word, skeletons))
    return grams


def _words(text: str, frames: bool) -> list[str]:
    """The words the rumour is told in: normalised, the frame dropped (``frames``)."""
    words = _WORD.findall(normalise(text[: MAX_CHARS * 2])[:MAX_CHARS])
    return without_frame(words) if frames else words


def _word_grams(word: str, skeletons: bool) -> list[str]:
    """A word's letter n-grams (padded at its edges), then its consonant skeleton's."""
    grams = _grams(f" {word} ", WORD_GRAMS, "")
    if skeletons and (bones := skeleton(word)):
        grams += _grams(f" {bones} ", SKELETON_GRAMS, _SKELETON)
    return grams


def _grams(padded: str, sizes: tuple[int, ...], prefix: str) -> list[str]:
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
        background: Iterable[str] = (),
        everyday: Iterable[str] = (),
        walk: int = WALK,
        rescored: int = RESCORED,
    ) -> None:
        self._skeletons = skeletons
        self._frames = frames
        self._walk = walk
        self._rescored = rescored
        self._claims: list[str] = []
        self._texts: list[str] = []
        self._owner: list[int] = []
        self._ids: dict[str, int] = {}
        self._words: dict[str, list[int]] = {}
        grams: list[Counter[int]] = []
        frequency: Counter[int] = Counter()
        for owner, text in self._owned(claims, everyday):
            if counts := self._counted(text):
                self._texts.append(text)
                self._owner.append(owner)
                grams.append(counts)
                frequency.update(counts.keys())
        documents = len(grams)
        for text in background:
            frequency.update(self._counted(text).keys())
            documents += 1
        self._words.clear()
        idf = self._idf = array(
            "d", (_idf(documents, frequency[gram]) for gram in self._ids.values())
        )
        self._unseen_idf = _idf(documents, 0)
        self._postings: list[array[int]] = [array("I") for _ in self._ids]
        #: Texts that repeat an n-gram: 1 + log count, by n-gram and text number.
        self._repeated: dict[int, dict[int, float]] = {}
        #: 1 / the norm of each text's TF-IDF vector.
        self._scale = array("d")
        appends = [postings.append for postings in self._postings]
        for number, counts in enumerate(grams):
            norm = 0.0
            for gram, count in counts.items():
                appends[gram](number)
                if count == 1:
                    norm += idf[gram] * idf[gram]
                else:
                    self._repeated.setdefault(gram, {})[number] = _TF[count]
                    norm += (_TF[count] * idf[gram]) ** 2
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

    def _counted(self, text: str) -> Counter[int]:
        """A text's n-gram ids, counted; new n-grams get the next id."""
        ids: list[int] = []
        for word in _words(text, self._frames):
            known = self._words.get(word)
            if known is None:
                known = self._words[word] = [
                    self._ids.setdefault(gram, len(self._ids))
                    for gram in _word_grams(word, self._skeletons)
                ]
            ids += known
        return Counter(ids)

    def __len__(self) -> int:
        return len(self._claims)

    def _query(self, message: str) -> list[tuple[int, float]]:
        """The message's known n-grams, rarest first, each with what a posting of it adds
        to the cosine before the text's norm: its weight in the message times its IDF."""
        counts = features(message, skeletons=self._skeletons, frames=self._frames)
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

    def _scores(self, message: str) -> dict[int, float]:
        """Cosine of the message with its nearest texts, by text number."""
        query = self._query(message)
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

    def match(
        self, message: str, limit: int = 5, margin: float = EVERYDAY_MARGIN
    ) -> list[Candidate]:
        """The claims nearest to the message, best first, at most ``limit``, none at 0.

        A claim the message is not closer to than to the nearest everyday question (by at
        least ``margin``) is left out: "is abbey gate open?" asks about the gate, not about a
        rumour of a list read there.
        """
        best: dict[int, tuple[float, int]] = {}
        for number, score in self._scores(message).items():
            owner = self._owner[number]
            if owner not in best or score > best[owner][0]:
                best[owner] = (score, number)
        everyday = best.pop(EVERYDAY, (0.0, 0))[0]
        ranked = sorted(
            (item for item in best.items() if item[1][0] >= everyday + margin),
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
