"""Rasa component: intent classification with character n-gram TF-IDF and logistic regression.

Why not DIET: on this 2-core machine DIET needed ~8 s per epoch on our data (minutes of
training, TensorFlow in every parse), and it was not more accurate on short, misspelt,
romanized messages than a linear model over character n-grams (docs/NLU.md has the figures).
Character n-grams of the normalised text make "parwaz", "parvaz" and "پرواز"/"پروازها"
share most of their features, which is what short noisy messages need.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from typing import Any, Callable, Dict, List

import numpy as np
import scipy.sparse
from rasa.engine.graph import ExecutionContext, GraphComponent
from rasa.engine.recipes.default_recipe import DefaultV1Recipe
from rasa.engine.storage.resource import Resource
from rasa.engine.storage.storage import ModelStorage
from rasa.nlu.classifiers.classifier import IntentClassifier
from rasa.shared.nlu.constants import (
    INTENT,
    INTENT_NAME_KEY,
    INTENT_RANKING_KEY,
    PREDICTED_CONFIDENCE_KEY,
    TEXT,
)
from rasa.shared.nlu.training_data.message import Message
from rasa.shared.nlu.training_data.training_data import TrainingData
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from kernel.lang.letters import as_on_persian_keyboard

logger = logging.getLogger(__name__)

_MODEL_FILE = "intent_model.npz"
_META_FILE = "intent_model.json"
_MAX_CHARS = 1000  # intent is clear long before this; bounds the cost of huge messages
_WORD_CHARACTER = re.compile(r"[^\W_]")


@DefaultV1Recipe.register([DefaultV1Recipe.ComponentType.INTENT_CLASSIFIER], is_trainable=True)
class CharNgramIntentClassifier(GraphComponent, IntentClassifier):
    """Predicts the intent from the (normalised) message text alone."""

    @staticmethod
    def get_default_config() -> Dict[str, Any]:
        return {
            "char_ngram_range": [1, 5],
            "word_ngram_range": [1, 2],
            "C": 20.0,
            "ranking_length": 5,
            # See the Pashto-only letters as a Persian keyboard types them (ې → ی, ړ → ر …):
            # «خبرتیاوې بندې کړئ» and «خبرتیاوی بندی کری» are one request. The language
            # identifier still reads the letters as typed (docs/NLU.md, "Training data").
            "persian_keyboard": True,
        }

    def __init__(
        self,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        char_vectorizer: TfidfVectorizer | None = None,
        word_vectorizer: TfidfVectorizer | None = None,
        classifier: LogisticRegression | None = None,
    ) -> None:
        self._config = config
        self._model_storage = model_storage
        self._resource = resource
        self._char = char_vectorizer or TfidfVectorizer(
            analyzer="char_wb",
            ngram_range=tuple(config["char_ngram_range"]),
            sublinear_tf=True,
            lowercase=False,  # the normaliser already lower-cased
            dtype=np.float32,
        )
        self._word = word_vectorizer or TfidfVectorizer(
            analyzer="word",
            ngram_range=tuple(config["word_ngram_range"]),
            token_pattern=r"(?u)\b\w+\b",
            sublinear_tf=True,
            lowercase=False,
            dtype=np.float32,
        )
        self._classifier = classifier
        self._scorer: OneMessageScorer | None = None

    @classmethod
    def create(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
    ) -> CharNgramIntentClassifier:
        return cls(config, model_storage, resource)

    def _features(self, texts: List[str]) -> scipy.sparse.csr_matrix:
        texts = [text[:_MAX_CHARS] for text in texts]
        return scipy.sparse.hstack(
            [self._char.transform(texts), self._word.transform(texts)], format="csr"
        )

    def _texts(self, messages: List[Message]) -> List[str]:
        texts = [m.get(TEXT) or "" for m in messages]
        if self._config.get("persian_keyboard"):
            return [as_on_persian_keyboard(text) for text in texts]
        return texts

    def train(self, training_data: TrainingData) -> Resource:
        examples = [m for m in training_data.intent_examples if m.get(TEXT) and m.get(INTENT)]
        texts = self._texts(examples)
        self._char.fit(texts)
        self._word.fit(texts)
        classifier = LogisticRegression(
            C=self._config["C"], max_iter=2000, class_weight="balanced", random_state=42
        )
        classifier.fit(self._features(texts), [m.get(INTENT) for m in examples])
        self._classifier = classifier
        self._scorer = None
        self._persist()
        return self._resource

    def _probabilities(self, texts: List[str]) -> Any:
        """Each intent's probability for each text; one message (every turn) is scored by
        :class:`OneMessageScorer`, a batch (evaluation) by scikit-learn."""
        assert self._classifier is not None
        if len(texts) != 1:
            return self._classifier.predict_proba(self._features(texts))
        if self._scorer is None:
            self._scorer = OneMessageScorer(self._char, self._word, self._classifier)
        return [self._scorer.probabilities(texts[0][:_MAX_CHARS])]

    def process(self, messages: List[Message]) -> List[Message]:
        if self._classifier is None:
            return messages
        probabilities = self._probabilities(self._texts(messages))
        labels = self._classifier.classes_
        for message, row in zip(messages, probabilities, strict=True):
            order = np.argsort(row)[::-1][: self._config["ranking_length"]]
            ranking = [
                {INTENT_NAME_KEY: str(labels[i]), PREDICTED_CONFIDENCE_KEY: float(row[i])}
                for i in order
            ]
            if not _WORD_CHARACTER.search(message.get(TEXT) or ""):
                ranking = []  # only emoji, punctuation or nothing: let the fallback answer
            top = ranking[0] if ranking else {INTENT_NAME_KEY: None, PREDICTED_CONFIDENCE_KEY: 0.0}
            message.set(INTENT, top, add_to_output=True)
            message.set(INTENT_RANKING_KEY, ranking, add_to_output=True)
        return messages

    # Persistence as plain arrays and JSON: no pickle, so a model file cannot run code.
    def _persist(self) -> None:
        assert self._classifier is not None
        with self._model_storage.write_to(self._resource) as model_dir:
            np.savez(
                model_dir / _MODEL_FILE,
                coef=self._classifier.coef_,
                intercept=self._classifier.intercept_,
                char_idf=self._char.idf_,
                word_idf=self._word.idf_,
            )
            meta = {
                "classes": [str(c) for c in self._classifier.classes_],
                "char_vocabulary": {k: int(v) for k, v in self._char.vocabulary_.items()},
                "word_vocabulary": {k: int(v) for k, v in self._word.vocabulary_.items()},
            }
            (model_dir / _META_FILE).write_text(json.dumps(meta), "utf-8")

    @classmethod
    def load(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
        **kwargs: Any,
    ) -> CharNgramIntentClassifier:
        component = cls(config, model_storage, resource)
        try:
            with model_storage.read_from(resource) as model_dir:
                arrays = np.load(model_dir / _MODEL_FILE)
                meta = json.loads((model_dir / _META_FILE).read_text("utf-8"))
        except ValueError:
            logger.warning("No trained intent model found; intents will not be predicted.")
            return component
        component._char.vocabulary_ = meta["char_vocabulary"]
        component._char.idf_ = arrays["char_idf"]
        component._word.vocabulary_ = meta["word_vocabulary"]
        component._word.idf_ = arrays["word_idf"]
        classifier = LogisticRegression()
        classifier.coef_ = arrays["coef"]
        classifier.intercept_ = arrays["intercept"]
        classifier.classes_ = np.array(meta["classes"])
        component._classifier = classifier
        return component


class OneMessageScorer:
    """The fitted model's arithmetic for one message, without scikit-learn's batch machinery.

    ``predict_proba(hstack([char.transform([t]), word.transform([t])]))`` builds and validates
    three sparse matrices for a single row: about 2 ms of a turn's CPU in the load test, for
    arithmetic over ~150 n-grams. This does the same steps on those n-grams alone: counts of the
    known n-grams, sublinear tf (1 + log count) times idf, each vectoriser's block scaled to unit
    length, the weights of those features summed with the intercepts, softmax (scikit-learn's
    multinomial ``predict_proba``). tests/bot/test_intent_scorer.py compares both.
    """

    def __init__(
        self, char: TfidfVectorizer, word: TfidfVectorizer, classifier: LogisticRegression
    ) -> None:
        offset = len(char.vocabulary_)
        self._blocks: list[tuple[Callable[[str], List[str]], Dict[str, int], Any, int]] = [
            (char.build_analyzer(), char.vocabulary_, np.asarray(char.idf_), 0),
            (word.build_analyzer(), word.vocabulary_, np.asarray(word.idf_), offset),
        ]
        self._weights = np.asarray(classifier.coef_)
        self._intercept = np.asarray(classifier.intercept_)

    def probabilities(self, text: str) -> Any:
        scores = self._intercept.astype(np.float64, copy=True)
        for analyse, vocabulary, idf, offset in self._blocks:
            counts = Counter(
                index for index in map(vocabulary.get, analyse(text)) if index is not None
            )
            if not counts:
                continue
            indices = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
            tf = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
            values = (np.log(tf) + 1.0) * idf[indices]
            values /= np.sqrt(np.dot(values, values))
            scores += self._weights[:, indices + offset] @ values
        scores -= scores.max()
        exp = np.exp(scores)
        return exp / exp.sum()
