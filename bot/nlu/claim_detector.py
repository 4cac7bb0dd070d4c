"""Rasa component: a forwarded message or a pasted chain letter is an "is this true?".

What someone forwards is someone else's words: "All gates open tonight for women and children,
go now!" read as the person's own question would be answered as an airport question, or not
at all. The channels mark a forwarded message in its metadata (``kernel/contract.py``
``FORWARDED``; Rasa hands a message's metadata to the NLU components, rasa's
``NLUMessageConverter``); a long text that asks nothing (no question mark, no question word
in its first words) is a message pasted from elsewhere. Both become ``check_claim``, which the
action server matches against the rumours editors checked. A long message whose intent is a
person's own request (a human, safety, deleting their data) keeps it.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Final, List

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

from kernel.contract import FORWARDED
from kernel.lang import question_words
from kernel.lang.codes import every_word
from kernel.lang.normalise import normalise

CHECK_CLAIM: Final = "check_claim"
METADATA: Final = "metadata"
#: Longer than this and asking nothing: pasted, not typed as a question.
LONG_TEXT: Final = 200
#: Words a question starts with, in its first few words (after the normaliser): every
#: language's (kernel/lang/question_words.py).
QUESTION_WORDS: Final = frozenset(
    normalise(word) for word in every_word(question_words.QUESTION_WORDS)
)
FIRST_WORDS: Final = 4
#: The person's own requests, which a long message keeps (a forwarded one does not): intents,
#: the same in every language.
OWN_REQUESTS: Final = frozenset(
    {"ask_human", "ask_safety", "delete_my_data", "unsubscribe_alerts", "withdraw_case"}
)
_QUESTION_MARK = re.compile(r"[?؟]")
_WORD = re.compile(r"\w+")


def is_forwarded(message: Message) -> bool:
    metadata = message.get(METADATA) or {}
    return isinstance(metadata, dict) and metadata.get(FORWARDED) is True


def is_pasted_statement(text: str) -> bool:
    """A long text that asks nothing: no question mark, no question word among its first."""
    if len(text.strip()) <= LONG_TEXT or _QUESTION_MARK.search(text):
        return False
    first = _WORD.findall(normalise(text[:400]))[:FIRST_WORDS]
    return not QUESTION_WORDS.intersection(first)


@DefaultV1Recipe.register([DefaultV1Recipe.ComponentType.INTENT_CLASSIFIER], is_trainable=False)
class ClaimDetector(GraphComponent, IntentClassifier):
    """Sets the intent to ``check_claim`` for a forwarded message or a pasted statement."""

    @classmethod
    def create(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
    ) -> ClaimDetector:
        return cls()

    def process(self, messages: List[Message]) -> List[Message]:
        for message in messages:
            text = message.get(TEXT) or ""
            if text.startswith("/"):
                continue  # a button's payload says what it is
            intent = (message.get(INTENT) or {}).get(INTENT_NAME_KEY)
            pasted = is_pasted_statement(text) and intent not in OWN_REQUESTS
            if not (is_forwarded(message) or pasted):
                continue
            picked = {INTENT_NAME_KEY: CHECK_CLAIM, PREDICTED_CONFIDENCE_KEY: 1.0}
            message.set(INTENT, picked, add_to_output=True)
            message.set(INTENT_RANKING_KEY, [picked], add_to_output=True)
        return messages
