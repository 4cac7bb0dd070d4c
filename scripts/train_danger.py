"""Trains the classifier that stands behind the danger words (kernel/danger_classifier.py).

    .venv/bot/bin/python scripts/train_danger.py     (make danger-model)

On the development messages of tests/nlu/danger/dev*/ (never the test split), and the NLU's
training examples as calm ones (everyday questions in every slice: "what did the Taliban say"
is no threat; but not those asking for help or a person, which may speak of danger): character
n-grams (2–5, within words, after the danger words' own folding) weighted by TF-IDF, and a
logistic regression over the three kinds and "calm". It is asked only when the words find no
danger, and its kind counts only from a probability chosen here by five-fold cross-validation:
the one at which each kind's recall, counted twice, and precision, with the words, add up to
the most (``RECALL_WEIGHT``). Writes kernel/danger_model.json, which the runtime scores with the
standard library (the test beside it checks the two give sklearn's probabilities, and that the
file was trained on the development messages as they are).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Final

import numpy as np
import yaml  # type: ignore[import-untyped]  # no stubs in the bot runtime
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_predict

from kernel.danger import Danger, folded, words_alone
from scripts.bench_danger import DEVELOPMENT as SPLITS
from scripts.bench_danger import SETS, SLICES, everyday

ROOT: Final = Path(__file__).resolve().parent.parent
MODEL: Final = ROOT / "kernel" / "danger_model.json"
LABELS: Final = (*(kind.value for kind in Danger), "calm")
THRESHOLDS: Final = (0.9, 0.8, 0.7, 0.6, 0.5, 0.4)
#: Decimals kept of each weight: the file is half the size, the probabilities the same to 1e-3.
DIGITS: Final = 4


#: The NLU's training examples (data/nlu/<language>/*.yml): calm, but for help and a person.
EVERYDAY: Final = sorted((ROOT / "data" / "nlu").glob("*/*.yml"))


def danger_files() -> list[Path]:
    return [SETS / split / f"{name}.yml" for split in SPLITS for name in SLICES]


def fingerprint() -> str:
    """The training messages' hash: a model trained on other messages is out of date."""
    digest = hashlib.sha256()
    for path in (*danger_files(), *EVERYDAY):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def messages() -> tuple[list[str], list[str]]:
    texts: list[str] = []
    labels: list[str] = []
    for path in danger_files():
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for label in LABELS:
            texts += [str(text) for text in data[label]]
            labels += [label] * len(data[label])
    calm = everyday(EVERYDAY)
    return texts + calm, labels + ["calm"] * len(calm)


def pipeline() -> tuple[TfidfVectorizer, LogisticRegression]:
    vectorizer = TfidfVectorizer(
        analyzer="char_wb", ngram_range=(2, 5), preprocessor=folded, sublinear_tf=True, min_df=2
    )
    return vectorizer, LogisticRegression(C=10, max_iter=2000, class_weight="balanced")


def _precision(found: list[set[str]], labels: list[str], kind: str) -> float:
    called = [label for kinds, label in zip(found, labels, strict=True) if kind in kinds]
    return called.count(kind) / len(called) if called else 1.0


def _with(words: list[set[str]], guesses: list[tuple[str, float]], at: float) -> list[set[str]]:
    return [
        found or ({kind} if kind != "calm" and p >= at else set())
        for found, (kind, p) in zip(words, guesses, strict=True)
    ]


def _recall(found: list[set[str]], labels: list[str], kind: str) -> float:
    labelled = [kinds for kinds, label in zip(found, labels, strict=True) if label == kind]
    return sum(kind in kinds for kinds in labelled) / len(labelled)


#: A person in danger the check misses gets the general answer and no urgent case; a calm
#: message it takes for danger gets the help lines and a case a caseworker closes. The first
#: costs more, so recall counts twice when the threshold is chosen. The words are tuned on the
#: development messages and find nearly all of them, so on these sets alone a threshold chosen
#: for recall and precision alike climbs to where the classifier adds almost nothing, while
#: a new writer's messages are exactly what the words miss.
RECALL_WEIGHT: Final = 2.0


def threshold(texts: list[str], labels: list[str]) -> float:
    """The probability at which, cross-validated, each kind's recall (``RECALL_WEIGHT`` times)
    and precision (with the words) add up to the most."""
    vectorizer, classifier = pipeline()
    probabilities = cross_val_predict(
        classifier, vectorizer.fit_transform(texts), labels, cv=5, method="predict_proba"
    )
    classes = sorted(set(labels))
    guesses = [(classes[int(np.argmax(p))], float(np.max(p))) for p in probabilities]
    words = [{kind.value for kind in words_alone(text)} for text in texts]

    def worth(at: float) -> float:
        found = _with(words, guesses, at)
        return sum(
            RECALL_WEIGHT * _recall(found, labels, kind.value)
            + _precision(found, labels, kind.value)
            for kind in Danger
        )

    return max(THRESHOLDS, key=worth)


def train() -> dict[str, Any]:
    texts, labels = messages()
    vectorizer, classifier = pipeline()
    classifier.fit(vectorizer.fit_transform(texts), labels)
    grams = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.__getitem__)
    return {
        "trained_on": fingerprint(),
        "threshold": threshold(texts, labels),
        "classes": [str(name) for name in classifier.classes_],
        "intercepts": [round(float(b), DIGITS) for b in classifier.intercept_],
        # gram → [idf, weight per class], in the vectorizer's column order.
        "grams": {
            gram: [
                round(float(vectorizer.idf_[i]), DIGITS),
                *(round(float(w), DIGITS) for w in classifier.coef_[:, i]),
            ]
            for i, gram in enumerate(grams)
        },
    }


if __name__ == "__main__":
    model = train()
    MODEL.write_text(json.dumps(model, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(
        f"{MODEL.relative_to(ROOT)}: {len(model['grams'])} n-grams, threshold {model['threshold']}"
    )
