"""The domain's responses as the console's preview shows them, before anything is published.

An action names a response and Rasa picks the variation for the conversation's language; the
preview has no conversation and no Rasa, so it picks the chat variation for each language here,
from the same files Rasa loads (``bot/domain/*.yml``). Only the preview reads them: what the
action server itself must write out (alerts, topic names, a caseworker's reply) is in the
catalogue, ``bot/lang/texts/``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

DOMAIN_DIR = Path(__file__).resolve().parents[3] / "bot" / "domain"
_VARIABLE = re.compile(r"\{(\w+)\}")


class Wording:
    """Every response's variations, keyed by response name; read once per process."""

    def __init__(self, responses: Mapping[str, list[dict[str, Any]]]) -> None:
        self._responses = responses

    @classmethod
    def load(cls, directory: Path = DOMAIN_DIR) -> Wording:
        responses: dict[str, list[dict[str, Any]]] = {}
        for path in sorted(directory.glob("*.yml")):
            document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            responses.update(document.get("responses") or {})
        return cls(responses)

    def text(self, response: str, language: str, **variables: object) -> str:
        """The response's text for ``language`` with ``{variables}`` filled in, as Rasa would.

        A variable that is not given stays as it is written, like Rasa leaves it.
        """
        variations = self._responses.get(response)
        if not variations:
            raise KeyError(f"no response {response} in {DOMAIN_DIR}")
        chosen = next((v for v in variations if _condition_language(v) == language), None)
        if chosen is None:
            chosen = next(v for v in variations if not v.get("condition"))
        template = str(chosen.get("text", ""))
        return _VARIABLE.sub(
            lambda match: str(variables.get(match.group(1), match.group(0))), template
        )


def _condition_language(variation: Mapping[str, Any]) -> str | None:
    for condition in variation.get("condition") or []:
        if condition.get("type") == "slot" and condition.get("name") == "language":
            return str(condition.get("value"))
    return None


@functools.cache
def wording() -> Wording:
    """The process's copy of the domain's responses."""
    return Wording.load()
