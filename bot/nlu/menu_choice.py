"""Rasa component: a message that is just a menu number picks that menu item.

People on SMS answer a numbered menu with "2", "۲" or "2." — a statistical classifier has no
chance with a single digit, so the number is looked up in the menu given in config.yml.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List

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

from kernel.lang.letters import to_ascii_digits

_MENU_NUMBER = re.compile(r"^\s*#?\s*(\d{1,2})\s*[.)\-]?\s*$")


@DefaultV1Recipe.register([DefaultV1Recipe.ComponentType.INTENT_CLASSIFIER], is_trainable=False)
class MenuChoiceClassifier(GraphComponent, IntentClassifier):
    """Overrides the intent of a bare menu number; every other message passes untouched."""

    @staticmethod
    def get_default_config() -> Dict[str, Any]:
        return {"items": {}}

    def __init__(self, items: Dict[str, str]) -> None:
        self.items = {str(number): intent for number, intent in items.items()}

    @classmethod
    def create(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
    ) -> MenuChoiceClassifier:
        return cls(config["items"])

    def choice(self, text: str) -> str | None:
        """The intent picked by ``text``, or None when it is not a menu number."""
        match = _MENU_NUMBER.match(to_ascii_digits(text))
        return self.items.get(str(int(match.group(1)))) if match else None

    def process(self, messages: List[Message]) -> List[Message]:
        for message in messages:
            intent = self.choice(message.get(TEXT) or "")
            if intent is None:
                continue
            picked = {INTENT_NAME_KEY: intent, PREDICTED_CONFIDENCE_KEY: 1.0}
            message.set(INTENT, picked, add_to_output=True)
            message.set(INTENT_RANKING_KEY, [picked], add_to_output=True)
        return messages
