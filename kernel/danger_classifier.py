"""The classifier behind the danger words: a kind for a message the words find no danger in.

A word list misses phrasings nobody wrote into it; character n-grams weighted by what people
wrote in the development messages catch many of them ("bachem dar bir o bar az dastam raft").
Trained by scripts/train_danger.py (sklearn: TF-IDF over character n-grams within words, 2–5,
sublinear, L2-normalised; a multinomial logistic regression) and scored here with the standard
library, so both runtimes read it: the same probabilities as sklearn's (tests/bot/
test_danger_classifier.py). Its kind counts only from the probability the training chose by
cross-validation (``threshold`` in kernel/danger_model.json). Measured beside the words alone by
``make bench-urgency`` (docs/BENCHMARKS.md, "Danger first").
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

MODEL: Final = Path(__file__).resolve().parent / "danger_model.json"
CALM: Final = "calm"
#: The n-gram lengths the model was trained with (scripts/train_danger.py).
SHORTEST, LONGEST = 2, 5
_SPACES: Final = re.compile(r"\s\s+")
#: The fewest n-grams the model knows that a message must have for its guess to count: a
#: vector of one or two n-grams puts all its weight on them ("),", an emoji's neighbour), and a
#: message that short speaks of no danger the words would miss.
FEWEST_KNOWN: Final = 12


@dataclass(frozen=True)
class Model:
    classes: tuple[str, ...]
    intercepts: tuple[float, ...]
    #: n-gram → (idf, weight per class)
    grams: dict[str, tuple[float, ...]]
    threshold: float
    trained_on: str


@cache
def model() -> Model:
    """The trained model, read once (on the first message that needs it)."""
    data = json.loads(MODEL.read_text(encoding="utf-8"))
    return Model(
        tuple(data["classes"]),
        tuple(data["intercepts"]),
        {gram: tuple(values) for gram, values in data["grams"].items()},
        float(data["threshold"]),
        str(data["trained_on"]),
    )


def grams(folded: str) -> Counter[str]:
    """The character n-grams of each word padded with a space, as sklearn's ``char_wb``."""
    found: Counter[str] = Counter()
    for word in _SPACES.sub(" ", folded).split():
        padded = f" {word} "
        for n in range(SHORTEST, LONGEST + 1):
            if len(padded) <= n:
                found[padded] += 1  # a word no longer than n counts once, whole
                break
            found.update(padded[i : i + n] for i in range(len(padded) - n + 1))
    return found


def _weights(folded: str) -> list[tuple[float, tuple[float, ...]]]:
    """Each known n-gram's TF-IDF weight (before normalising) and its weight per class."""
    trained = model()
    weights: list[tuple[float, tuple[float, ...]]] = []
    for gram, count in grams(folded).items():
        known = trained.grams.get(gram)
        if known is not None:
            weights.append(((1.0 + math.log(count)) * known[0], known[1:]))
    return weights


def probabilities(folded: str) -> dict[str, float]:
    """Each class's probability for a message already folded as the danger words fold it."""
    return _probabilities(_weights(folded))


def _probabilities(weights: list[tuple[float, tuple[float, ...]]]) -> dict[str, float]:
    trained = model()
    norm = math.sqrt(sum(weight * weight for weight, _ in weights)) or 1.0
    scores = list(trained.intercepts)
    for weight, per_class in weights:
        for k, coefficient in enumerate(per_class):
            scores[k] += weight / norm * coefficient
    top = max(scores)
    exponents = [math.exp(score - top) for score in scores]
    total = sum(exponents)
    return {name: e / total for name, e in zip(trained.classes, exponents, strict=True)}


def guess(folded: str) -> str | None:
    """The kind of danger the classifier is sure enough of; None for calm or unsure."""
    weights = _weights(folded)
    if len(weights) < FEWEST_KNOWN:
        return None
    found = _probabilities(weights)
    kind = max(found, key=found.__getitem__)
    return None if kind == CALM or found[kind] < model().threshold else kind
