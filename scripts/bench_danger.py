"""Danger first: precision and recall of kernel/danger.py per kind and per slice, beside the
urgent-case words (kernel/case_urgency.py), which know no kinds and were all there was before, and
beside the danger words without the classifier behind them (kernel/danger_classifier.py).

    .venv/actions/bin/python scripts/bench_danger.py [--misses dev|dev2|…|dev7]

Reads tests/nlu/danger/<split>/<slice>.yml — ``dev`` to ``dev7`` (by other writers: tuned on,
each scored once before it was), ``test`` (written apart, never tuned on) — each with
``missing``, ``medical``, ``threat`` and ``calm`` messages. Prints a Markdown table per split:
for each slice and kind, recall (its messages found as that kind) and precision (of the messages
found as that kind, how many are); then danger of any kind against the urgent words; then the
CPU one check costs, uncached, for both. ``--misses`` lists what a development split's messages
got wrong, to tune on; it will not list the test split's, whose misses are never read.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import yaml

from kernel.case_urgency import is_urgent
from kernel.danger import Danger, dangers, words_alone

ROOT: Final = Path(__file__).resolve().parent.parent
SETS: Final = ROOT / "tests" / "nlu" / "danger"
#: Intents whose messages may speak of danger: not everyday questions.
NOT_EVERYDAY: Final = frozenset({"ask_help", "ask_human"})
#: An annotated entity in an NLU example: "[doha]{...}" or "[today](date)" → "doha".
_ANNOTATION: Final = re.compile(r"\[([^\]]*)\](?:\{[^}]*\}|\([^)]*\))")
#: The NLU's held-out questions (tests/nlu/heldout): everyday messages in every slice.
HELD_OUT_QUESTIONS: Final = ROOT / "tests" / "nlu" / "heldout"
#: The development splits, tuned and trained on (scripts/train_danger.py), each by another writer.
DEVELOPMENT: Final = ("dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7")
SPLITS: Final = (*DEVELOPMENT, "test")
SLICES: Final = ("en", "prs", "prs-Latn", "ps", "ps-Latn")
CALM: Final = "calm"


def messages(split: str, slice_name: str) -> dict[str, list[str]]:
    """{"missing": [...], "medical": [...], "threat": [...], "calm": [...]}."""
    data = yaml.safe_load((SETS / split / f"{slice_name}.yml").read_text(encoding="utf-8"))
    return {label: [str(text) for text in data[label]] for label in (*_KINDS, CALM)}


_KINDS: Final = tuple(kind.value for kind in Danger)


@dataclass(frozen=True)
class Score:
    labelled: int  # messages of the kind
    found: int  # of them, found as the kind
    called: int  # messages found as the kind, whatever their label

    @property
    def recall(self) -> float:
        return self.found / self.labelled if self.labelled else 0.0

    @property
    def precision(self) -> float:
        return self.found / self.called if self.called else 1.0


def _uncached(text: str) -> tuple[Danger, ...]:
    return dangers.__wrapped__(text)


def everyday(paths: list[Path]) -> list[str]:
    """The examples of every intent but help and a person, as people typed them."""
    found: list[str] = []
    for path in paths:
        for item in yaml.safe_load(path.read_text(encoding="utf-8")).get("nlu") or []:
            if item.get("intent") in NOT_EVERYDAY or not item.get("examples"):
                continue
            for line in str(item["examples"]).splitlines():
                text = _ANNOTATION.sub(r"\1", line.strip().removeprefix("- ")).strip()
                if text:
                    found.append(text)
    return found


def kind_scores(split: str, slice_name: str) -> dict[str, Score]:
    """Per kind, and ``any`` (danger of any kind found for a message of any kind)."""
    data = messages(split, slice_name)
    found = {label: [_uncached(text) for text in texts] for label, texts in data.items()}
    scores = {}
    for kind in Danger:
        called = sum(kind in kinds for results in found.values() for kinds in results)
        hits = sum(kind in kinds for kinds in found[kind.value])
        scores[kind.value] = Score(len(data[kind.value]), hits, called)
    scores["any"] = _any_score(data, lambda text: bool(_uncached(text)))
    return scores


def _any_score(data: dict[str, list[str]], matcher: Callable[[str], bool]) -> Score:
    urgent = [text for kind in _KINDS for text in data[kind]]
    hits = sum(map(matcher, urgent))
    return Score(len(urgent), hits, hits + sum(map(matcher, data[CALM])))


def cpu_per_check(matcher: Callable[[str], object], texts: list[str], rounds: int = 20) -> float:
    """Microseconds of CPU one check costs, averaged over ``texts``."""
    started = time.process_time()
    for _ in range(rounds):
        for text in texts:
            matcher(text)
    return (time.process_time() - started) / (rounds * len(texts)) * 1e6


def report() -> str:
    lines: list[str] = []
    every: list[str] = []
    for split in SPLITS:
        lines += [
            f"**{split}** — recall / precision per kind; any kind: ours against the urgent words",
            "",
            "| slice | missing | medical | threat | any kind: ours | any kind: words alone "
            "| any kind: urgent words |",
            "|---|---|---|---|---|---|---|",
        ]
        for slice_name in SLICES:
            data = messages(split, slice_name)
            every += [text for texts in data.values() for text in texts]
            ours = kind_scores(split, slice_name)
            alone = _any_score(data, lambda text: bool(words_alone(text)))
            stock = _any_score(data, is_urgent)
            cells = [f"{s.recall:.2f} / {s.precision:.2f}" for s in (*ours.values(), alone, stock)]
            lines.append(f"| {slice_name} | {' | '.join(cells)} |")
        lines.append("")
    kinds, words = cpu_per_check(_uncached, every), cpu_per_check(is_urgent, every)
    questions = everyday(sorted(HELD_OUT_QUESTIONS.glob("*.yml")))
    lines.append(
        f"Everyday questions called danger (tests/nlu/heldout, {len(questions)} messages of every "
        f"intent but help and a person): ours {sum(bool(_uncached(q)) for q in questions)}, "
        f"words alone {sum(bool(words_alone(q)) for q in questions)}, "
        f"urgent words {sum(map(is_urgent, questions))}"
    )
    lines.append("")
    lines.append(
        f"CPU per check, uncached, over {len(every)} messages: danger kinds {kinds:.0f} µs, "
        f"urgent words {words:.0f} µs"
    )
    return "\n".join(lines)


def misses(split: str) -> str:
    """Every message of ``split`` whose kinds are not its label's."""
    lines = []
    for slice_name in SLICES:
        for label, texts in messages(split, slice_name).items():
            for text in texts:
                kinds = [kind.value for kind in _uncached(text)]
                wrong = kinds != [label] if label != CALM else bool(kinds)
                if wrong and (label == CALM or label not in kinds or len(kinds) > 1):
                    lines.append(f"{slice_name:8} {label:8} got {kinds or '-'}: {text}")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--misses":
        if sys.argv[2] not in DEVELOPMENT:
            sys.exit(f"--misses lists a development split's: one of {', '.join(DEVELOPMENT)}")
        print(misses(sys.argv[2]))
    else:
        print(report())
