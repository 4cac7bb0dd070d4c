"""Rasa's responses, each tagged with the language it was written in.

Rasa renders a response by picking the variation whose conditions the tracker's slots match
(``language: prs``, ``language: ps``, else the English default). This generator is Rasa's own
(``TemplatedNaturalLanguageGenerator``: one renderer) and adds to the message the language of
the variation it picked, as ``metadata`` (``kernel/contract.py``), which Rasa passes on to the
output channel. Named in the endpoints files: ``nlg: {type: bot.nlg.LanguageTaggedResponses}``.
"""

from __future__ import annotations

from typing import Any

from rasa.core.nlg.response import TemplatedNaturalLanguageGenerator
from rasa.shared.core.domain import Domain
from rasa.shared.core.trackers import DialogueStateTracker
from rasa.utils.endpoints import EndpointConfig

from kernel.contract import language_metadata, variations_for
from kernel.lang.codes import DEFAULT_LANGUAGE, is_language

#: The slot whose value a variation's condition names (docs/ARCHITECTURE.md).
LANGUAGE_SLOT = "language"


def variation_language(variation: dict[str, Any]) -> str:
    """The language of a picked variation: the value its condition requires of the slot."""
    for condition in variation.get("condition") or ():
        value = condition.get("value")
        if condition.get("name") == LANGUAGE_SLOT and is_language(value):
            return value
    return DEFAULT_LANGUAGE


class LanguageTaggedResponses(TemplatedNaturalLanguageGenerator):
    """Rasa's response generator; every message it makes names its language."""

    def __init__(
        self, endpoint_config: EndpointConfig | None = None, domain: Domain | None = None
    ) -> None:
        super().__init__((domain or Domain.empty()).responses)

    async def generate(
        self,
        utter_action: str,
        tracker: DialogueStateTracker,
        output_channel: str,
        **kwargs: Any,
    ) -> dict[str, Any] | None:
        channel = variations_for(output_channel)  # every SMS channel: those written for SMS
        message = await super().generate(utter_action, tracker, channel, **kwargs)
        if message is not None:
            metadata = dict(message.get("metadata") or {})
            metadata.update(language_metadata(variation_language(message)))
            message["metadata"] = metadata
        return message
