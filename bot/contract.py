"""The names Rasa, its channels, the action server, the notifier and the console exchange.

Standard library only: both runtimes import it (docs/ARCHITECTURE.md). A name written here is
the only spelling of that name; a process that needs it imports it from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.lang.codes import DEFAULT_LANGUAGE, is_language

# -- custom payloads of a bot message (an action's ``json_message``, read by the channels) -----

#: "Seal the address you hold for this conversation until ``expires_at``": sent by the actions
#: that subscribe a person to alerts or open a case, read by the channel (bot/channels/alerts.py).
REMEMBER_ADDRESS: Final = "remember_address"
#: The delivery id of an alert (row of ``alert_deliveries``), claimed once by the channel.
ALERT_DELIVERY: Final = "alert_delivery"
#: The id of a caseworker's reply (row of ``case_replies``), claimed once the same way.
CASE_REPLY: Final = "case_reply"
#: A WhatsApp template message instead of text (outside the 24-hour window).
WHATSAPP_TEMPLATE: Final = "whatsapp_template"

# -- intents the other processes trigger through Rasa's HTTP API (never predicted from text) --

EXTERNAL_PREFIX: Final = "EXTERNAL_"
#: The notifier: send alert ``ALERT_DELIVERY`` (its id in the entity of the same name).
ALERT_INTENT: Final = "EXTERNAL_alert"
#: The notifier's courier: send caseworker reply ``CASE_REPLY`` (entity of the same name).
CASE_REPLY_INTENT: Final = "EXTERNAL_case_reply"
#: The console: the caseworker closed the case; resume the conversation.
CASE_CLOSED_INTENT: Final = "EXTERNAL_case_closed"


def is_external(intent: str | None) -> bool:
    """Whether an intent was triggered by another process rather than typed by the person."""
    return (intent or "").startswith(EXTERNAL_PREFIX)


# -- metadata of a message -----------------------------------------------------------------

#: The key of a user message's ``metadata`` with the language the channel knows of the person
#: (Telegram's app language, the web chat page's language), before they wrote anything telling.
LANGUAGE_HINT: Final = "language_hint"

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
