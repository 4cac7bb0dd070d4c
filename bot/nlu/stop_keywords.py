"""Rasa component: a message that is only an opt-out keyword ("STOP", "توقف", "بس") ends alerts.

An opt-out must work every time, in any state of the conversation: SMS carriers and users expect
STOP to end messages at once, and someone whose phone may be searched must not depend on a
statistical classifier's mood. So the whole message is compared with a fixed list, every
language's words (kernel/lang/stop_words.py). The same words inside a longer sentence ("بس است،
حالا فهمیدم") are left to the intent classifier.
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

from kernel.lang import stop_words
from kernel.lang.codes import every_word
from kernel.lang.letters import ARABIC_PUNCTUATION
from kernel.lang.normalise import normalise

#: The intent an opt-out keyword sets.
UNSUBSCRIBE_INTENT: Final = "unsubscribe_alerts"

#: Whole-message opt-out keywords, in normalised form (lower case, Persian letter forms): every
#: language's (kernel/lang/stop_words.py ``OPT_OUT_WORDS``).
OPT_OUT_KEYWORDS: Final = every_word(stop_words.OPT_OUT_WORDS)

#: The intent a withdrawal keyword sets: "cancel (my request for a person)".
WITHDRAW_INTENT: Final = "withdraw_case"

#: Whole-message words that withdraw a request for a caseworker (``WITHDRAW_ONLY_WORDS``). Those
#: of ``WITHDRAWING_OPT_OUTS`` ("cancel", «لغو», "laghw") stay opt-out words (carriers honour
#: "cancel"); while a case is open the conversation policy reads them as a withdrawal too
#: (bot/policies/conversation.py, docs/HANDOFF.md).
WITHDRAW_ONLY_KEYWORDS: Final = every_word(stop_words.WITHDRAW_ONLY_WORDS)
WITHDRAW_KEYWORDS: Final = WITHDRAW_ONLY_KEYWORDS | every_word(stop_words.WITHDRAWING_OPT_OUTS)

#: Punctuation and quotes people put around a keyword: "STOP!", «بس»، "توقف؟".
_PUNCTUATION: Final = r"\s.!?,;:'\"«»()\-\u2026" + ARABIC_PUNCTUATION
_SURROUNDING: Final = re.compile(f"^[{_PUNCTUATION}]+|[{_PUNCTUATION}]+$")


def _keyword(text: str) -> str:
    return " ".join(_SURROUNDING.sub("", normalise(text)).replace("\u200c", " ").split())


def is_opt_out(text: str) -> bool:
    """True when the whole message is an opt-out keyword, whatever its case and punctuation."""
    return _keyword(text) in OPT_OUT_KEYWORDS


def is_withdrawal(text: str) -> bool:
    """True when the whole message withdraws a request for a caseworker ("cancel", «لغو»,
    «بس کن», «لغوه یې کړه» …)."""
    return _keyword(text) in WITHDRAW_KEYWORDS


@DefaultV1Recipe.register([DefaultV1Recipe.ComponentType.INTENT_CLASSIFIER], is_trainable=False)
class StopKeywordClassifier(GraphComponent, IntentClassifier):
    """Sets ``unsubscribe_alerts`` with full confidence for an opt-out keyword, ``withdraw_case``
    for a word that only withdraws a request for a caseworker; else no change."""

    @classmethod
    def create(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
    ) -> StopKeywordClassifier:
        return cls()

    def process(self, messages: List[Message]) -> List[Message]:
        for message in messages:
            text = message.get(TEXT) or ""
            if is_opt_out(text):
                intent = UNSUBSCRIBE_INTENT
            elif _keyword(text) in WITHDRAW_ONLY_KEYWORDS:
                intent = WITHDRAW_INTENT
            else:
                continue
            picked = {INTENT_NAME_KEY: intent, PREDICTED_CONFIDENCE_KEY: 1.0}
            message.set(INTENT, picked, add_to_output=True)
            message.set(INTENT_RANKING_KEY, [picked], add_to_output=True)
        return messages
