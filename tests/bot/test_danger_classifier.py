"""The classifier behind the danger words (kernel/danger_classifier.py): the standard library's
scoring gives sklearn's probabilities, the model was trained on the development messages as they
are (make danger-model), and it only speaks where the words found nothing."""

from __future__ import annotations

import pytest

from kernel import danger_classifier
from kernel.danger import Danger, dangers, folded, words_alone
from scripts.bench_danger import messages
from scripts.train_danger import fingerprint, pipeline
from scripts.train_danger import messages as development_messages


def test_the_model_was_trained_on_the_development_messages_as_they_are() -> None:
    assert danger_classifier.model().trained_on == fingerprint(), "run `make danger-model`"


def test_its_probabilities_are_sklearns() -> None:
    texts, labels = development_messages()
    vectorizer, classifier = pipeline()
    classifier.fit(vectorizer.fit_transform(texts), labels)
    held_out = [text for texts in messages("test", "ps-Latn").values() for text in texts][:60]
    expected = classifier.predict_proba(vectorizer.transform(held_out))
    for text, row in zip(held_out, expected, strict=True):
        ours = danger_classifier.probabilities(folded(text))
        for name, probability in zip(classifier.classes_, row, strict=True):
            assert ours[name] == pytest.approx(probability, abs=2e-3), (text, name)


def test_short_words_count_once_as_sklearn_counts_them() -> None:
    assert danger_classifier.grams("ab") == {
        " a": 1,
        "ab": 1,
        "b ": 1,
        " ab": 1,
        "ab ": 1,
        " ab ": 1,
    }
    assert danger_classifier.grams("a") == {" a": 1, "a ": 1, " a ": 1}


@pytest.mark.parametrize("text", ["), ", "🙂", "?", "...", "ok", "۱", "8", "no"])
def test_a_message_it_knows_too_little_of_is_no_danger(text: str) -> None:
    assert danger_classifier.guess(folded(text)) is None
    assert dangers(text) == ()


@pytest.mark.parametrize(
    ("text", "kind"),
    [("bachem dar bir o bar az dastam raft, hichja nest", Danger.MISSING),
     ("my mother fainted near the gate, need doctor", Danger.MEDICAL)],
)  # fmt: skip
def test_it_speaks_only_where_the_words_found_nothing(text: str, kind: Danger) -> None:
    found = dangers(text)
    assert kind in found
    if words_alone(text):
        assert found == words_alone(text)
