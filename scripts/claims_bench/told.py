"""What a person asking about a rumour is told, and how the bench compares it across slices.

A person is told a claim's verdict ("false", "true", …), asked to choose between two claims,
or told that nothing checked matches. The same rumour should get the same answer whether it is
asked in English, Dari or Pashto, in Arabic script or Latin letters: ``consistency`` counts,
per claim, the slices whose paraphrases are mostly told the right verdict. ``strength``
splits the single matches into strong ("what you heard") and weak ("the closest rumour we
have checked") ones.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from actions.claims.matching import Candidate, Decision, Thresholds, decide

SLICES: Final = ("en", "prs_arab", "prs_latn", "ps_arab", "ps_latn")
CHOICE: Final = "choice of two"
UNCHECKED: Final = "not checked"
#: Strong single matches must be right this often on the development split.
STRONG_PRECISION: Final = 0.98


@dataclass(frozen=True)
class Asked:
    """A message, its slice and the claim it is about (None: about no claim).

    ``group`` names the same message written in the five slices (the aligned style sets), so
    that their five answers can be compared one message at a time.
    """

    text: str
    slice: str
    claim: str | None
    group: str | None = None


#: A message and the claims the matcher ranked for it.
Ranked = list[tuple[Asked, list[Candidate]]]


def answer(decision: Decision, verdicts: Mapping[str, str]) -> str:
    """What the person hears: the matched claim's verdict, a choice of two, or "not checked"."""
    if decision.kind == "one":
        return verdicts[decision.candidates[0].claim]
    return CHOICE if decision.kind == "two" else UNCHECKED


def right_answer(item: Asked, verdicts: Mapping[str, str]) -> str:
    return UNCHECKED if item.claim is None else verdicts[item.claim]


@dataclass(frozen=True)
class ClaimConsistency:
    """One claim's paraphrases told the right verdict, per slice: (right, asked)."""

    claim: str
    verdict: str
    right: dict[str, tuple[int, int]]

    @property
    def agreeing(self) -> int:
        """Slices in which most of the claim's paraphrases are told the right verdict."""
        return sum(2 * right > asked for right, asked in self.right.values())


def consistency(
    seen: Ranked, thresholds: Thresholds, verdicts: Mapping[str, str]
) -> list[ClaimConsistency]:
    """Per claim, how many of its paraphrases in each slice are told the right verdict."""
    told: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for item, candidates in seen:
        if item.claim is not None:
            right = answer(decide(candidates, thresholds), verdicts) == verdicts[item.claim]
            told[item.claim][f"{item.slice}:asked"] += 1
            told[item.claim][f"{item.slice}:right"] += right
    return [
        ClaimConsistency(
            claim,
            verdicts[claim],
            {name: (counts[f"{name}:right"], counts[f"{name}:asked"]) for name in SLICES},
        )
        for claim, counts in told.items()
    ]


def same_everywhere(
    seen: Ranked, thresholds: Thresholds, verdicts: Mapping[str, str]
) -> tuple[int, int]:
    """Of the messages written in all five slices, how many get the right answer in all five."""
    answers: defaultdict[str, list[bool]] = defaultdict(list)
    for item, candidates in seen:
        if item.group is not None:
            told = answer(decide(candidates, thresholds), verdicts)
            answers[item.group].append(told == right_answer(item, verdicts))
    return sum(all(each) for each in answers.values()), len(answers)


def is_right(item: Asked, decision: Decision) -> bool:
    """Whether a single match named the message's own claim."""
    return decision.kind == "one" and decision.candidates[0].claim == item.claim


def choose_strong(seen: Ranked, thresholds: Thresholds) -> float:
    """The lowest score from which single matches on ``seen`` are right at least
    ``STRONG_PRECISION`` of the time (counting unrelated messages given a claim as wrong), at
    that score and at every higher one."""
    singles = [
        (decision.candidates[0].score, is_right(item, decision))
        for item, candidates in seen
        if (decision := decide(candidates, thresholds)).kind == "one"
    ]
    chosen = 1.0
    for step in range(100, round(thresholds.match * 100) - 1, -1):
        floor = step / 100
        kept = [right for score, right in singles if score >= floor]
        if kept and sum(kept) < STRONG_PRECISION * len(kept):
            break
        chosen = floor
    return chosen


def strength(
    seen: Ranked, thresholds: Thresholds, slices: Iterable[str] = SLICES
) -> dict[str, Counter[str]]:
    """Per slice (and "all"): single matches right or wrong, strong or weak."""
    counted: dict[str, Counter[str]] = {name: Counter() for name in (*slices, "all")}
    for item, candidates in seen:
        decision = decide(candidates, thresholds)
        if decision.kind != "one":
            continue
        key = ("right" if is_right(item, decision) else "wrong") + (
            " strong" if decision.strong else " weak"
        )
        counted[item.slice][key] += 1
        counted["all"][key] += 1
    return counted


def consistency_table(rows: Sequence[ClaimConsistency]) -> list[str]:
    """Markdown: per claim, paraphrases told the right verdict per slice, slices agreeing."""
    lines = [
        "| claim | verdict | " + " | ".join(SLICES) + " | slices agreeing |",
        "|---|---|" + "---|" * len(SLICES) + "---|",
    ]
    right: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    for row in sorted(rows, key=lambda row: row.claim):
        cells = []
        for name in SLICES:
            got, of = row.right[name]
            right[name] += got
            asked[name] += of
            cells.append(f"{got}/{of}")
        lines.append(
            f"| {row.claim} | {row.verdict} | " + " | ".join(cells) + f" | {row.agreeing}/5 |"
        )
    agreeing = sum(row.agreeing for row in rows)
    cells = [f"{right[name]}/{asked[name]}" for name in SLICES]
    share = sum(right.values()) / max(1, sum(asked.values()))
    lines.append(
        "| all | | "
        + " | ".join(cells)
        + f" | {agreeing}/{5 * len(rows)} (paraphrases {share:.0%}) |"
    )
    return lines


def strength_table(counted: Mapping[str, Counter[str]]) -> list[str]:
    """Markdown: single matches by slice, right or wrong, strong or weak."""
    kinds = ("right strong", "right weak", "wrong strong", "wrong weak")
    lines = ["| slice | " + " | ".join(kinds) + " |", "|---|" + "---|" * len(kinds)]
    for name, counts in counted.items():
        lines.append(f"| {name} | " + " | ".join(str(counts[kind]) for kind in kinds) + " |")
    return lines
