"""Saving a component's learned state as JSON in Rasa's model storage (no pickle: no code)."""

import json
from typing import Any

from rasa.engine.storage.resource import Resource
from rasa.engine.storage.storage import ModelStorage


def save_json(model_storage: ModelStorage, resource: Resource, name: str, data: Any) -> None:
    with model_storage.write_to(resource) as model_dir:
        (model_dir / name).write_text(json.dumps(data), "utf-8")


def load_json(model_storage: ModelStorage, resource: Resource, name: str) -> Any:
    with model_storage.read_from(resource) as model_dir:
        return json.loads((model_dir / name).read_text("utf-8"))
