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

import math
import re
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
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
    words = _WORD.findall(normalise(text[: MAX_CHARS * 2])[:MAX_CHARS])
    if frames:
        words = without_frame(words)
    grams: Counter[str] = Counter()
    for word in words:
        _add_grams(grams, f" {word} ", WORD_GRAMS, "")
        if skeletons and (bones := skeleton(word)):
            _add_grams(grams, f" {bones} ", SKELETON_GRAMS, _SKELETON)
    return grams


def _add_grams(grams: Counter[str], padded: str, sizes: tuple[int, ...], prefix: str) -> None:
    for size in sizes:
        for start in range(len(padded) - size + 1):
            grams[prefix + padded[start : start + size]] += 1


class ClaimIndex:
    """Every claim's texts as TF-IDF vectors, with postings to score a message quickly."""

    def __init__(
        self,
        claims: Iterable[tuple[str, Sequence[str]]],
        *,
        skeletons: bool = True,
        frames: bool = True,
        background: Iterable[str] = (),
        everyday: Iterable[str] = (),
        max_postings: int | None = None,
    ) -> None:
        self._skeletons = skeletons
        self._frames = frames
        self._claims: list[str] = []
        self._texts: list[str] = []
        self._owner: list[int] = []
        counted: list[Counter[str]] = []
        for key, texts in claims:
            self._claims.append(key)
            for text in texts:
                grams = self._features(text)
                if grams:
                    self._texts.append(text)
                    self._owner.append(len(self._claims) - 1)
                    counted.append(grams)
        for text in everyday:
            if grams := self._features(text):
                self._texts.append(text)
                self._owner.append(EVERYDAY)
                counted.append(grams)
        frequency: Counter[str] = Counter()
        for grams in counted:
            frequency.update(grams.keys())
        documents = len(counted)
        for text in background:
            frequency.update(self._features(text).keys())
            documents += 1
        self._idf = {gram: _idf(documents, df) for gram, df in frequency.items()}
        self._unseen_idf = _idf(documents, 0)
        #: N-grams in more texts than this are skipped when scoring ("ka", " th"): they cost
        #: the most time and say the least. Off for small indexes.
        self._max_postings = max_postings or max(1000, len(counted) // 50)
        postings: dict[str, tuple[array[int], array[float]]] = {}
        for number, grams in enumerate(counted):
            vector = self._weigh(grams)
            for gram, weight in vector.items():
                entry = postings.get(gram)
                if entry is None:
                    entry = postings[gram] = (array("I"), array("f"))
                entry[0].append(number)
                entry[1].append(weight)
        self._postings = postings

    def __len__(self) -> int:
        return len(self._claims)

    def _features(self, text: str) -> Counter[str]:
        return features(text, skeletons=self._skeletons, frames=self._frames)

    def _weigh(self, grams: Counter[str]) -> dict[str, float]:
        weights = {
            gram: (1.0 + math.log(count)) * self._idf.get(gram, self._unseen_idf)
            for gram, count in grams.items()
        }
        norm = math.sqrt(sum(weight * weight for weight in weights.values())) or 1.0
        return {gram: weight / norm for gram, weight in weights.items()}

    def match(
        self, message: str, limit: int = 5, margin: float = EVERYDAY_MARGIN
    ) -> list[Candidate]:
        """The claims nearest to the message, best first, at most ``limit``, none at 0.

        A claim the message is not closer to than to the nearest everyday question (by at
        least ``margin``) is left out: "is abbey gate open?" asks about the gate, not about a
        rumour of a list read there.
        """
        grams = self._features(message)
        if not grams:
            return []
        scores = [0.0] * len(self._owner)
        touched: set[int] = set()
        for gram, query_weight in self._weigh(grams).items():
            entry = self._postings.get(gram)
            if entry is None or len(entry[0]) > self._max_postings:
                continue
            numbers, weights = entry
            touched.update(numbers)
            for number, weight in zip(numbers, weights, strict=True):
                scores[number] += query_weight * weight
        best: dict[int, tuple[float, int]] = {}
        for number in touched:
            score, owner = scores[number], self._owner[number]
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
