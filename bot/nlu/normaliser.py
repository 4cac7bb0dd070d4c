"""Rasa component: fold Arabic-script keyboard variants before the tokenizer sees the text."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Dict, List

from rasa.engine.graph import ExecutionContext, GraphComponent
from rasa.engine.recipes.default_recipe import DefaultV1Recipe
from rasa.engine.storage.resource import Resource
from rasa.engine.storage.storage import ModelStorage
from rasa.shared.nlu.constants import ENTITIES, ENTITY_ATTRIBUTE_END, ENTITY_ATTRIBUTE_START, TEXT
from rasa.shared.nlu.training_data.message import Message
from rasa.shared.nlu.training_data.training_data import TrainingData

from kernel.lang import letters as letters_module
from kernel.lang import normalise as normalise_module
from kernel.lang.normalise import fold, normalise

#: The user's words as typed, kept beside the normalised text.
ORIGINAL_TEXT = "text_original"


@DefaultV1Recipe.register([DefaultV1Recipe.ComponentType.MESSAGE_TOKENIZER], is_trainable=False)
class TextNormaliser(GraphComponent):
    """Runs first in the pipeline, on training data and on every incoming message alike."""

    @classmethod
    def create(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
    ) -> TextNormaliser:
        return cls()

    @classmethod
    def fingerprint_addon(cls, config: Dict[str, Any]) -> str | None:
        """The folding rules' source (and the digits they fold, from letters.py), so `rasa train`
        retrains everything after them when they change: Rasa's cache otherwise restores models
        trained on the old folding."""
        sources = (normalise_module.__file__, letters_module.__file__)
        return hashlib.sha256(b"".join(Path(path).read_bytes() for path in sources)).hexdigest()

    def process_training_data(self, training_data: TrainingData) -> TrainingData:
        for message in training_data.training_examples:
            entities = message.get(ENTITIES) or []
            if any(ENTITY_ATTRIBUTE_START in entity for entity in entities):
                _fold_keeping_entities(message)
            else:
                _normalise(message)
        return training_data

    def process(self, messages: List[Message]) -> List[Message]:
        for message in messages:
            _normalise(message)
        return messages


#: A payload with entities (``/ask_airport_status{"gate": "KBL/abbey-gate"}``): a button's or a
#: poster link's, read by Rasa's RegexMessageHandler. Folding it would change the values it
#: names (lower case, no hyphen between letters), which the actions look up as written.
_PAYLOAD_WITH_ENTITIES = re.compile(r"/\w+\{.*\}", re.DOTALL)


def _normalise(message: Message) -> None:
    text = message.get(TEXT)
    if isinstance(text, str) and not _PAYLOAD_WITH_ENTITIES.fullmatch(text.strip()):
        message.set(ORIGINAL_TEXT, text)
        message.set(TEXT, normalise(text))


def _fold_keeping_entities(message: Message) -> None:
    """Fold the text piece by piece so that annotated entity offsets stay on their words."""
    text: str = message.get(TEXT)
    annotated = [e for e in message.get(ENTITIES) if ENTITY_ATTRIBUTE_START in e]
    entities = sorted(annotated, key=lambda e: e[ENTITY_ATTRIBUTE_START])
    pieces: List[str] = []
    cursor = 0
    for entity in entities:
        start, end = entity[ENTITY_ATTRIBUTE_START], entity[ENTITY_ATTRIBUTE_END]
        pieces.append(fold(text[cursor:start]))
        entity[ENTITY_ATTRIBUTE_START] = sum(map(len, pieces))
        pieces.append(fold(text[start:end]))
        entity[ENTITY_ATTRIBUTE_END] = sum(map(len, pieces))
        cursor = end
    pieces.append(fold(text[cursor:]))
    message.set(ORIGINAL_TEXT, text)
    message.set(TEXT, "".join(pieces))
