"""Rasa component: adds ``"language": {"code", "script", "confidence", "shared"}`` to every parse.

The profile is learned at training time from ``data/nlu/<language code>/`` (the folder says
which language an example is in; the letters say which script), so adding training data for a
language also improves recognising it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Dict, List, Tuple

from rasa.engine.graph import ExecutionContext, GraphComponent
from rasa.engine.recipes.default_recipe import DefaultV1Recipe
from rasa.engine.storage.resource import Resource
from rasa.engine.storage.storage import ModelStorage
from rasa.shared.nlu.constants import TEXT
from rasa.shared.nlu.training_data.loading import load_data
from rasa.shared.nlu.training_data.message import Message
from rasa.shared.nlu.training_data.training_data import TrainingData

from bot.nlu.langid import LanguageProfile, ProfileIdentifier, label
from bot.nlu.normaliser import ORIGINAL_TEXT
from bot.nlu.storage import load_json, save_json
from kernel.lang.codes import LANGUAGES
from kernel.lang.letters import script_of
from kernel.lang.normalise import normalise

logger = logging.getLogger(__name__)

LANGUAGE = "language"
_PROFILE_FILE = "language_profile.json"


def labelled_examples(data_dir: Path) -> List[Tuple[str, str]]:
    """(text, ``code-Script``) for the training examples under ``data_dir/<code>/``.

    A text that stands in two languages' data ("salam", "menu", "ok") is evidence for neither
    and is left out, so short shared words stay uncertain instead of picking a side.
    """
    labels: Dict[str, set[str]] = {}
    for code in LANGUAGES:
        folder = data_dir / code
        if not folder.is_dir():
            continue
        for message in load_data(str(folder)).training_examples:
            text = message.get(TEXT) or ""
            script = script_of(text)
            if script:
                labels.setdefault(normalise(text), set()).add(label(code, script))
    return [(text, next(iter(found))) for text, found in labels.items() if len(found) == 1]


#: Entities that name a place, a gate or a flight: the same in every language.
NAME_ENTITIES = frozenset({"destination", "airport", "gate", "flight_number"})


def entity_names(data_dir: Path) -> List[str]:
    """Words annotated as a place, gate or flight in the data of at least two languages.

    Two, so that the grammar around a name in one language («د» in «د کابل هوايي ډګر») is not
    taken for part of the name.
    """
    seen: Dict[str, set[str]] = {}
    for code in LANGUAGES:
        folder = data_dir / code
        if not folder.is_dir():
            continue
        for message in load_data(str(folder)).training_examples:
            text = message.get(TEXT) or ""
            for entity in message.get("entities") or []:
                if entity.get("entity") in NAME_ENTITIES:
                    for word in normalise(text[entity["start"] : entity["end"]]).split():
                        seen.setdefault(word, set()).add(code)
    return sorted(word for word, codes in seen.items() if len(codes) >= 2)


@DefaultV1Recipe.register([DefaultV1Recipe.ComponentType.MESSAGE_FEATURIZER], is_trainable=True)
class LanguageIdentifier(GraphComponent):
    """Identifies English, Dari and Pashto in Arabic or Latin script (see bot/nlu/langid.py)."""

    @staticmethod
    def get_default_config() -> Dict[str, Any]:
        return {"data_dir": "data/nlu"}

    def __init__(
        self,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        profile: LanguageProfile | None = None,
    ) -> None:
        self._config = config
        self._model_storage = model_storage
        self._resource = resource
        self._identifier = ProfileIdentifier(profile) if profile else None

    @classmethod
    def create(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
    ) -> LanguageIdentifier:
        return cls(config, model_storage, resource)

    def train(self, training_data: TrainingData) -> Resource:
        data_dir = Path(self._config["data_dir"])
        profile = LanguageProfile.train(labelled_examples(data_dir), entity_names(data_dir))
        if not profile.counts:
            raise ValueError(
                f"No training examples under {data_dir}/<{'|'.join(LANGUAGES)}>/: "
                "the language identifier learns its profiles from there."
            )
        save_json(self._model_storage, self._resource, _PROFILE_FILE, profile.to_dict())
        self._identifier = ProfileIdentifier(profile)
        return self._resource

    @classmethod
    def load(
        cls,
        config: Dict[str, Any],
        model_storage: ModelStorage,
        resource: Resource,
        execution_context: ExecutionContext,
        **kwargs: Any,
    ) -> LanguageIdentifier:
        data = load_json(model_storage, resource, _PROFILE_FILE)
        return cls(config, model_storage, resource, LanguageProfile.from_dict(data))

    def process_training_data(self, training_data: TrainingData) -> TrainingData:
        return training_data

    def process(self, messages: List[Message]) -> List[Message]:
        if self._identifier is None:
            return messages
        for message in messages:
            text = message.get(ORIGINAL_TEXT) or message.get(TEXT) or ""
            guess = self._identifier.identify(text)
            message.set(LANGUAGE, guess.as_dict(), add_to_output=True)
        return messages
