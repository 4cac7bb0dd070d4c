"""The one-message scorer gives scikit-learn's probabilities, intent by intent, for the messages
people send (the held-out split) and for the odd ones (empty, unknown letters, huge)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from rasa.engine.storage.local_model_storage import LocalModelStorage
from rasa.engine.storage.resource import Resource
from rasa.shared.nlu.training_data.loading import load_data
from rasa.shared.nlu.training_data.message import Message

from bot.nlu.intent_classifier import CharNgramIntentClassifier, OneMessageScorer

ROOT = Path(__file__).resolve().parents[2]
ODD = ["", "?", "🙏🙏", "ټټټټ", "x" * 5000, "gate 5 باز است؟ ok", "ابی گیت open?"]


@pytest.fixture(scope="module")
def classifier(tmp_path_factory: pytest.TempPathFactory) -> CharNgramIntentClassifier:
    """Trained on every third training example: enough intents and n-grams, in seconds."""
    data = load_data(str(ROOT / "data" / "nlu"))
    data.training_examples = data.training_examples[::3]
    storage = LocalModelStorage(tmp_path_factory.mktemp("model"))
    config = CharNgramIntentClassifier.get_default_config()
    component = CharNgramIntentClassifier(config, storage, Resource("intent"))
    component.train(data)
    return component


def held_out() -> list[str]:
    return [
        str(m.get("text"))
        for path in sorted((ROOT / "tests" / "nlu" / "heldout").glob("*.yml"))
        for m in load_data(str(path)).training_examples
    ]


def test_same_probabilities_as_scikit_learn(classifier: CharNgramIntentClassifier) -> None:
    texts = held_out() + ODD
    assert classifier._classifier is not None
    expected = classifier._classifier.predict_proba(classifier._features(texts))
    scorer = OneMessageScorer(classifier._char, classifier._word, classifier._classifier)
    got = np.array([scorer.probabilities(text[:1000]) for text in texts])
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)
    assert (got.argmax(axis=1) == expected.argmax(axis=1)).all()


def test_a_turn_uses_the_scorer_and_gets_the_batch_answer(
    classifier: CharNgramIntentClassifier,
) -> None:
    texts = ["when is the next flight to doha", "میدان هوایی باز است؟", "alwatka kala da"]
    one_by_one = [classifier.process([Message({"text": t})])[0] for t in texts]
    batch = classifier.process([Message({"text": t}) for t in texts])
    assert classifier._scorer is not None  # the single messages went through it
    for single, together in zip(one_by_one, batch, strict=True):
        assert single.get("intent")["name"] == together.get("intent")["name"]
        ranks = [r["name"] for r in single.get("intent_ranking")]
        assert ranks == [r["name"] for r in together.get("intent_ranking")]
