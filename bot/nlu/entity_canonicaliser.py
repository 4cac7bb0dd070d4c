"""Rasa component: give every extracted entity the canonical value actions look up.

"قطر", "qatar" and "Doha" all mean the destination ``Doha``; "۸۷۱" is flight ``871``;
"sabah" is tomorrow's ISO date in Kabul. Replaces Rasa's EntitySynonymMapper, whose lookup
misses synonyms typed with another keyboard's letter forms.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List

from rasa.engine.graph import ExecutionContext, GraphComponent
from rasa.engine.recipes.default_recipe import DefaultV1Recipe
from rasa.engine.storage.resource import Resource
from rasa.engine.storage.storage import ModelStorage
from rasa.nlu.extractors.extractor import EntityExtractorMixin
from rasa.shared.nlu.constants import (
    ENTITIES,
    ENTITY_ATTRIBUTE_TYPE,
    ENTITY_ATTRIBUTE_VALUE,
)
from rasa.shared.nlu.training_data.message import Message
from rasa.shared.nlu.training_data.training_data import TrainingData

from bot.lang.normalise import normalise, to_ascii_digits
from bot.nlu.dates import resolve_date, today_in_kabul
from bot.nlu.storage import load_json, save_json

_SYNONYMS_FILE = "synonyms.json"
_NOT_FLIGHT_NUMBER = re.compile(r"[^A-Z0-9]")


def canonical_flight_number(value: str) -> str:
    """ "qr 8010" → "QR8010", "۸۷۱" → "871"."""
    return _NOT_FLIGHT_NUMBER.sub("", to_ascii_digits(value).upper())


@DefaultV1Recipe.register([DefaultV1Recipe.ComponentType.ENTITY_EXTRACTOR], is_trainable=True)
class EntityCanonicaliser(GraphComponent, EntityExtractorMixin):
    """Maps synonyms (learned from the training data), flight numbers and dates."""

    def __init__(
        self,
        model_storage: ModelStorage,
        resource: Resource,
        synonyms: Dict[str, str] | None = None,
    ) -> None:
        self._model_storage = model_storage
        self._resource = resource
        self.synonyms = synonyms or {}

    @classmethod
    def create(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
    ) -> EntityCanonicaliser:
        return cls(model_storage, resource)

    def train(self, training_data: TrainingData) -> Resource:
        synonyms = {normalise(raw): value for raw, value in training_data.entity_synonyms.items()}
        # Canonical values map to themselves, so "doha" and "DOHA" become "Doha" too.
        synonyms.update({normalise(value): value for value in set(synonyms.values())})
        self.synonyms = synonyms
        save_json(self._model_storage, self._resource, _SYNONYMS_FILE, synonyms)
        return self._resource

    @classmethod
    def load(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
        **kwargs: Any,
    ) -> EntityCanonicaliser:
        return cls(model_storage, resource, load_json(model_storage, resource, _SYNONYMS_FILE))

    def process(self, messages: List[Message]) -> List[Message]:
        today = today_in_kabul()
        for message in messages:
            entities = []
            for entity in message.get(ENTITIES, []):
                value = self.canonical_value(entity, today)
                if value is None:
                    continue  # a "date" we cannot place in the calendar is no date
                if value != entity.get(ENTITY_ATTRIBUTE_VALUE):
                    entity[ENTITY_ATTRIBUTE_VALUE] = value
                    self.add_processor_name(entity)
                entities.append(entity)
            message.set(ENTITIES, entities, add_to_output=True)
        return messages

    def canonical_value(self, entity: Dict[str, Any], today: Any) -> str | None:
        value = str(entity.get(ENTITY_ATTRIBUTE_VALUE, ""))
        kind = entity.get(ENTITY_ATTRIBUTE_TYPE)
        if kind == "flight_number":
            return canonical_flight_number(value) or None
        if kind == "date":
            day = resolve_date(value, today)
            return day.isoformat() if day else None
        return self.synonyms.get(normalise(value), value)
