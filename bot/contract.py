"""What Rasa, its channels and the action server agree on about each bot message.

Standard library only: both runtimes import it (docs/ARCHITECTURE.md). A name written here is
the only spelling of that name; a process that needs it imports it from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.lang.codes import DEFAULT_LANGUAGE, is_language

#: The key of a bot message's ``metadata`` naming the language it is written in. Rasa's
#: responses get it from ``bot/nlg.py``; an action that sends text of its own (an alert, a
#: caseworker's reply) passes ``metadata=language_metadata(code)`` to ``utter_message``.
#: Rasa hands the metadata to the output channel as the keyword argument ``metadata``.
REPLY_LANGUAGE: Final = "language"


def language_metadata(language: str) -> dict[str, str]:
    """The ``metadata`` of a message written in ``language``."""
    return {REPLY_LANGUAGE: language}


def reply_language(message: Mapping[str, Any]) -> str:
    """The language a bot message is written in, from the keyword arguments Rasa passes.

    The channels use it for what they write around a reply (a "Choose" label, the SMS "MORE"
    hint): the reply itself was rendered in the conversation's language, and the channel is told
    which one instead of guessing it from the letters. A message that names none is English,
    as every response's unconditioned variation is.
    """
    metadata = message.get("metadata")
    language = metadata.get(REPLY_LANGUAGE) if isinstance(metadata, Mapping) else None
    return language if is_language(language) else DEFAULT_LANGUAGE
