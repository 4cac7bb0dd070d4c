"""What a person asking about a rumour is told, from how near their message came to the claims.

``Nearness`` is what the index found (``matching.ClaimIndex.nearness``); the ``Guard`` keeps the
claims the message is nearer to than to an everyday question; ``decide`` makes of them one claim
(strong: what they heard; weak: the closest rumour checked), a choice of two, or none.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Candidate:
    """A checked claim and how close the message came to it (0–1)."""

    claim: str
    score: float
    #: The claim's text or phrasing nearest to the message, to show which one it matched.
    text: str


@dataclass(frozen=True)
class Guard:
    """When a message counts as a rumour rather than one of the everyday questions.

    A claim is kept only if the message's nearest text of it comes at least as close as the
    nearest everyday question, plus ``margin`` (negative: nearly as close will do). A message
    passing on what it heard ("I heard", «میگن», "wai", ``frames.HEARSAY``) is held to
    ``hearsay_margin`` instead. ``share`` and ``enough``: an everyday question counts only if
    it has at least ``share`` of the message's words, or ``enough`` words. All are chosen on
    the development split (scripts/bench_claims.py, among 104 guards).
    """

    margin: float = -0.05
    hearsay_margin: float = -0.15
    share: float = 0.0
    enough: int = 99


@dataclass(frozen=True)
class Thresholds:
    """Where a match starts, how close a second claim must come to be offered too, and where
    a match is strong. Chosen on the development split (scripts/bench_claims.py): ``match``
    finds the most paraphrases with at most 1 % of messages about no claim matched; ``strong``
    is the lowest score from which single matches there are right at least 98 % of the time
    (at that score and every higher one)."""

    #: Below this score the message matches no checked claim.
    match: float = 0.27
    #: A second claim within this of the first (and above ``match``): ask which one.
    close: float = 0.04
    #: A single claim scoring at least this is the rumour the person heard (``Decision.strong``).
    strong: float = 0.27


@dataclass(frozen=True)
class Decision:
    """What the person is told: one claim, a choice of two, or that none matches.

    ``strong`` (only ever for "one"): the claim scored at least ``Thresholds.strong``, so it is
    the rumour the person heard, told in other words ("You heard: …"). A weak single match may
    be another rumour that shares its words, one nobody checked: it is shown as the closest
    rumour checked, not as what they heard. An editor's own text or phrasing of a claim, typed
    word for word, is a strong match of it (its nearest text scores 1; tested for every text
    of the demo claims).
    """

    kind: Literal["one", "two", "none"]
    candidates: tuple[Candidate, ...]
    strong: bool = False


@dataclass(frozen=True)
class Nearness:
    """How near a message came to the claims and to the everyday questions: all a guard needs
    to decide which claims count (``candidates``), worked out once however many are tried."""

    #: Whether the message passes on hearsay ("I heard", «میگن», "wai").
    hearsay: bool
    #: Its rumour words.
    words: int
    #: The nearest everyday question of each length (in rumour words): (length, cosine).
    everyday: tuple[tuple[int, float], ...]
    #: The nearest claims, best first: (score, its nearest text's cosine, claim, that text).
    claims: tuple[tuple[float, float, str, str], ...]

    def candidates(self, guard: Guard = Guard(), limit: int = 5) -> list[Candidate]:
        """The claims that count under ``guard``, best first, at most ``limit``."""
        needed = min(guard.share * self.words, guard.enough)
        everyday = max((score for length, score in self.everyday if length >= needed), default=0.0)
        floor = everyday + (guard.hearsay_margin if self.hearsay else guard.margin)
        return [
            Candidate(claim, round(min(score, 1.0), 4), text)
            for score, nearest, claim, text in self.claims
            if nearest >= floor
        ][:limit]


def decide(candidates: Sequence[Candidate], thresholds: Thresholds = Thresholds()) -> Decision:
    """One claim, two close ones to choose from ("did you mean 1 … or 2 …"), or none."""
    if not candidates or candidates[0].score < thresholds.match:
        return Decision("none", ())
    first = candidates[0]
    if len(candidates) > 1:
        second = candidates[1]
        if second.score >= thresholds.match and first.score - second.score <= thresholds.close:
            return Decision("two", (first, second))
    return Decision("one", (first,), strong=first.score >= thresholds.strong)
