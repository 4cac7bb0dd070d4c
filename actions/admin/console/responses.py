"""The domain's responses as the console's preview shows them, before anything is published.

An action names a response and Rasa picks the variation for the conversation's language; the
preview has no conversation and no Rasa, so it picks the chat variation for each language here,
from the same files Rasa loads (``bot/domain/*.yml``). Only the preview reads them: what the
action server itself must write out (alerts, topic names, a caseworker's reply) is in the
catalogue, ``kernel/lang/texts/``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from kernel.contract import SMS

DOMAIN_DIR = Path(__file__).resolve().parents[3] / "bot" / "domain"
_VARIABLE = re.compile(r"\{(\w+)\}")
#: The variations the preview shows for SMS: those every SMS channel reads.
SMS_CHANNEL = SMS


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
        return _filled(self._variation(response, language, None), variables)

    def sms(
        self, response: str, language: str, **variables: object
    ) -> tuple[str, list[dict[str, Any]]]:
        """The SMS variation's text, filled in, and its buttons (the SMS renderer numbers them)."""
        chosen = self._variation(response, language, SMS_CHANNEL)
        buttons = [dict(button) for button in chosen.get("buttons") or []]
        return _filled(chosen, variables), buttons

    def _variation(self, response: str, language: str, channel: str | None) -> dict[str, Any]:
        """The variation Rasa picks: for ``channel`` one made for it (with the language's
        condition before one without), else the chat variation for the language, else the
        one without condition."""
        variations = self._responses.get(response)
        if not variations:
            raise KeyError(f"no response {response} in {DOMAIN_DIR}")
        for wanted_channel in ([channel] if channel else []) + [None]:
            on_channel = [v for v in variations if v.get("channel") == wanted_channel]
            chosen = next((v for v in on_channel if _condition_language(v) == language), None)
            if chosen is None:
                chosen = next((v for v in on_channel if not v.get("condition")), None)
            if chosen is not None:
                return chosen
        raise KeyError(f"no variation of {response} for {language} in {DOMAIN_DIR}")


def _filled(variation: Mapping[str, Any], variables: Mapping[str, object]) -> str:
    template = str(variation.get("text", ""))
    return _VARIABLE.sub(lambda match: str(variables.get(match.group(1), match.group(0))), template)


def _condition_language(variation: Mapping[str, Any]) -> str | None:
    for condition in variation.get("condition") or []:
        if condition.get("type") == "slot" and condition.get("name") == "language":
            return str(condition.get("value"))
    return None


@functools.cache
def wording() -> Wording:
    """The process's copy of the domain's responses."""
    return Wording.load()
