"""Rasa component: give every extracted entity the canonical value actions look up.

"قطر", "qatar" and "Doha" all mean the destination ``Doha``; "۸۷۱" is flight ``871``;
"sabah" is tomorrow's ISO date in Kabul. Replaces Rasa's EntitySynonymMapper, whose lookup
misses synonyms typed with another keyboard's letter forms.

It also finds the entities named in ``lexical_entities`` itself, by the names in the lookup
tables of the training data and the spans annotated as such: the gates, a closed list of a few
names per airport, which the CRF would have to learn from annotations in every sentence that
mentions a gate; and the destinations, whose inflected forms the CRF misses in a sentence it
was not shown («د دوحې الوتنه کله ده؟», "flights of Doha"). ``lexical_intents`` keeps a kind to
the questions it belongs to: "سفارت امریکا" names no destination in a question about documents.
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
    ENTITY_ATTRIBUTE_END,
    ENTITY_ATTRIBUTE_START,
    ENTITY_ATTRIBUTE_TYPE,
    ENTITY_ATTRIBUTE_VALUE,
    INTENT,
    INTENT_NAME_KEY,
    TEXT,
)
from rasa.shared.nlu.training_data.message import Message
from rasa.shared.nlu.training_data.training_data import TrainingData

from bot.nlu.dates import resolve_date, today_in_kabul, widened_start
from bot.nlu.storage import load_json, save_json
from kernel.lang.letters import as_on_persian_keyboard, to_ascii_digits
from kernel.lang.normalise import normalise

_SYNONYMS_FILE = "synonyms.json"
_LEXICON_FILE = "lexicon.json"
_INTENTS_FILE = "lexical_intents.json"
#: Shorter names are too often part of other words' spelling («قطر» stays: three letters).
MIN_NAME = 3
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
        lexicon: Dict[str, List[str]] | None = None,
        lexical: List[str] | None = None,
        lexical_intents: Dict[str, List[str]] | None = None,
    ) -> None:
        self._model_storage = model_storage
        self._resource = resource
        self.synonyms = synonyms or {}
        #: entity type → its names as the normaliser writes them, longest first
        self.lexicon = lexicon or {}
        self._lexical = lexical or []
        #: entity type → the intents whose messages it is looked for in (all when absent)
        self.lexical_intents = lexical_intents or {}

    @staticmethod
    def get_default_config() -> Dict[str, Any]:
        return {
            "lexical_entities": ["gate", "destination"],
            "lexical_intents": {"destination": ["ask_flights", "follow_up"]},
        }

    @classmethod
    def create(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
    ) -> EntityCanonicaliser:
        return cls(
            model_storage,
            resource,
            lexical=list(config.get("lexical_entities") or []),
            lexical_intents=dict(config.get("lexical_intents") or {}),
        )

    def train(self, training_data: TrainingData) -> Resource:
        synonyms = {normalise(raw): value for raw, value in training_data.entity_synonyms.items()}
        # Canonical values map to themselves, so "doha" and "DOHA" become "Doha" too.
        synonyms.update({normalise(value): value for value in set(synonyms.values())})
        self.synonyms = synonyms
        self.lexicon = {
            kind: sorted(
                {name for name in self._names(training_data, kind) if len(name) >= MIN_NAME},
                key=len,
                reverse=True,
            )
            for kind in self._lexical
        }
        save_json(self._model_storage, self._resource, _SYNONYMS_FILE, synonyms)
        save_json(self._model_storage, self._resource, _LEXICON_FILE, self.lexicon)
        save_json(self._model_storage, self._resource, _INTENTS_FILE, self.lexical_intents)
        return self._resource

    @staticmethod
    def _names(training_data: TrainingData, kind: str) -> set[str]:
        """A kind's names: its lookup table's and the spans annotated as it, normalised."""
        names = {
            normalise(name)
            for table in training_data.lookup_tables
            if table.get("name") == kind
            for name in table.get("elements") or []
        }
        for example in training_data.entity_examples:
            text = str(example.get(TEXT) or "")
            for entity in example.get(ENTITIES, []):
                if entity.get(ENTITY_ATTRIBUTE_TYPE) == kind:
                    span = text[entity[ENTITY_ATTRIBUTE_START] : entity[ENTITY_ATTRIBUTE_END]]
                    names.add(normalise(span))
        return names

    @classmethod
    def load(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
        **kwargs: Any,
    ) -> EntityCanonicaliser:
        return cls(
            model_storage,
            resource,
            load_json(model_storage, resource, _SYNONYMS_FILE),
            load_json(model_storage, resource, _LEXICON_FILE),
            lexical_intents=load_json(model_storage, resource, _INTENTS_FILE),
        )

    def process(self, messages: List[Message]) -> List[Message]:
        today = today_in_kabul()
        for message in messages:
            entities = []
            text = str(message.get(TEXT) or "")
            for entity in message.get(ENTITIES, []):
                if entity.get(ENTITY_ATTRIBUTE_TYPE) == "date":
                    self.widen(entity, text)
                value = self.canonical_value(entity, today)
                if value is None:
                    continue  # a "date" we cannot place in the calendar is no date
                if value != entity.get(ENTITY_ATTRIBUTE_VALUE):
                    entity[ENTITY_ATTRIBUTE_VALUE] = value
                    self.add_processor_name(entity)
                entities.append(entity)
            intent = (message.get(INTENT) or {}).get(INTENT_NAME_KEY)
            entities += self.named_in(text, entities, intent)
            message.set(ENTITIES, entities, add_to_output=True)
        return messages

    @staticmethod
    def widen(entity: Dict[str, Any], text: str) -> None:
        """A date whose first word the extractor left out («بل» of «بل سبا») gets it back, so
        that the day after tomorrow is not read as tomorrow."""
        start, end = entity.get(ENTITY_ATTRIBUTE_START), entity.get(ENTITY_ATTRIBUTE_END)
        if not isinstance(start, int) or not isinstance(end, int) or not text:
            return
        begin = widened_start(text, start, end)
        if begin < start:
            entity[ENTITY_ATTRIBUTE_START] = begin
            entity[ENTITY_ATTRIBUTE_VALUE] = text[begin:end]

    def named_in(
        self, text: str, found: List[Dict[str, Any]], intent: str | None = None
    ) -> List[Dict[str, Any]]:
        """The lexicon's names in ``text`` (already normalised), where no entity is yet, of
        the kinds looked for in messages of ``intent``.

        Names and text are compared as a Persian keyboard types them, letter for letter (so the
        spans stay the text's): «ګیت شمالی», Dari typed on a Pashto keyboard, is «گیت شمالی».
        """
        taken = [(e.get(ENTITY_ATTRIBUTE_START, 0), e.get(ENTITY_ATTRIBUTE_END, 0)) for e in found]
        named: List[Dict[str, Any]] = []
        typed = as_on_persian_keyboard(text)
        for kind, names in self.lexicon.items():
            if kind in self.lexical_intents and intent not in self.lexical_intents[kind]:
                continue
            for name in names:
                wanted = re.escape(as_on_persian_keyboard(name))
                for match in re.finditer(rf"(?<!\w){wanted}(?!\w)", typed):
                    start, end = match.span()
                    if any(
                        start < other_end and other_start < end for other_start, other_end in taken
                    ):
                        continue
                    taken.append((start, end))
                    entity = {
                        ENTITY_ATTRIBUTE_TYPE: kind,
                        ENTITY_ATTRIBUTE_START: start,
                        ENTITY_ATTRIBUTE_END: end,
                        ENTITY_ATTRIBUTE_VALUE: self.synonyms.get(name, name),
                    }
                    named.append(self.add_extractor_name([entity])[0])
        return sorted(named, key=lambda entity: entity[ENTITY_ATTRIBUTE_START])

    def canonical_value(self, entity: Dict[str, Any], today: Any) -> str | None:
        value = str(entity.get(ENTITY_ATTRIBUTE_VALUE, ""))
        kind = entity.get(ENTITY_ATTRIBUTE_TYPE)
        if kind == "flight_number":
            return canonical_flight_number(value) or None
        if kind == "date":
            day = resolve_date(value, today)
            return day.isoformat() if day else None
        return self.synonyms.get(normalise(value), value)
