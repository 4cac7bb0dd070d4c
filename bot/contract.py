"""The names Rasa, its channels, the action server, the notifier and the console exchange.

Standard library only: both runtimes import it (docs/ARCHITECTURE.md). A name written here is
the only spelling of that name; a process that needs it imports it from here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.lang.codes import DEFAULT_LANGUAGE, is_language

# -- the parts of a bot message (what Rasa hands an output channel) ---------------------------

#: Every part of a bot message an output channel sends, in the order Rasa's
#: ``OutputChannel.send_response`` sends them (quick replies, else buttons, carry the text).
MESSAGE_PARTS: Final = (
    "quick_replies",
    "buttons",
    "text",
    "custom",
    "image",
    "attachment",
    "elements",
)
#: The part meant for the channel, not the person (a payload of the keys below).
CUSTOM_PART: Final = "custom"
#: What a person is shown of a message: every part but the custom payload. A message of
#: only a custom payload is not a reply.
SHOWN_PARTS: Final = tuple(part for part in MESSAGE_PARTS if part != CUSTOM_PART)

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

#: The key of a user message's ``metadata`` with a keyed hash of the person's address
#: (``identity.person_tag``): one phone number on SMS and WhatsApp, one Telegram chat, one web
#: chat client address. The editors' questions page counts people by it, not conversations.
PERSON: Final = "person"

#: The key of a user message's ``metadata`` that is True when the person forwarded the message
#: from someone else (Telegram ``forward_origin``, WhatsApp ``context.forwarded``): a rumour
#: passed on, to be read as "is this true?" rather than as the person's own words.
FORWARDED: Final = "forwarded"

#: The key of a user message's ``metadata`` with a place the person shared (a location or
#: venue pin): ``{"lat": float, "lon": float}`` in WGS 84 degrees, as the provider gave them.
LOCATION: Final = "location"


def location_metadata(lat: float, lon: float) -> dict[str, dict[str, float]]:
    """The ``metadata`` of a message that shares the place (``lat``, ``lon``)."""
    return {LOCATION: {"lat": lat, "lon": lon}}


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
    return named_language(message) or DEFAULT_LANGUAGE


def named_language(message: Mapping[str, Any]) -> str | None:
    """The language a bot message's metadata names, or None when it names none (a page that
    lays out each reply by its language leaves such a reply to the browser, ``dir="auto"``)."""
    metadata = message.get("metadata")
    language = metadata.get(REPLY_LANGUAGE) if isinstance(metadata, Mapping) else None
    return language if is_language(language) else None


# -- Rasa's answer to a trigger whose message the channel could not hand to the provider ------

#: The HTTP status of that answer (Rasa's own for an error inside ``trigger_intent``).
NOT_DELIVERED_STATUS: Final = 500
#: Its JSON body's keys: a short reason (never an address, a token or message text), ...
NOT_DELIVERED_REASON: Final = "reason"
#: ... whether trying again cannot help (no stored address, the person blocked the bot), ...
NOT_DELIVERED_PERMANENT: Final = "permanent"
#: ... the seconds the provider asked to wait, or null, ...
NOT_DELIVERED_RETRY_AFTER: Final = "retry_after"
#: ... and the provider's HTTP status, or null when no provider answered.
NOT_DELIVERED_PROVIDER_STATUS: Final = "provider_status"


@dataclass(frozen=True)
class NotDelivered:
    """Why a channel did not deliver a triggered message, as Rasa answers it to the notifier
    and the console: read by key, not out of an error sentence."""

    reason: str
    permanent: bool = False
    retry_after: float | None = None
    provider_status: int | None = None

    def gives_up(self) -> bool:
        """The one reading of a refusal, for the notifier and the console alike: only the
        channel knows whether its provider refused the person for good (no stored address,
        Telegram's "bot was blocked by the user"), and it says so in ``permanent``. Anything
        else (429, a provider's 5xx, a timeout, a mailbox down) may pass: the notifier tries
        again, the console asks the caseworker to."""
        return self.permanent

    def person_refused(self) -> bool:
        """Whether it was the person's provider that refused them for good (blocked the bot,
        not on WhatsApp, texted STOP): their subscriptions end as a typed STOP ends them.
        A refusal without a provider's answer ("no stored address") is ours, not theirs."""
        return self.gives_up() and self.provider_status is not None

    def body(self) -> dict[str, Any]:
        """The JSON body of Rasa's answer."""
        return {
            NOT_DELIVERED_REASON: self.reason,
            NOT_DELIVERED_PERMANENT: self.permanent,
            NOT_DELIVERED_RETRY_AFTER: self.retry_after,
            NOT_DELIVERED_PROVIDER_STATUS: self.provider_status,
        }

    @classmethod
    def from_answer(cls, answer: str) -> NotDelivered | None:
        """The body Rasa answered, or None when it is not this JSON (Rasa's own error for
        anything else, an older Rasa, a proxy's HTML page)."""
        try:
            body = json.loads(answer)
        except ValueError:
            return None
        if not isinstance(body, dict):
            return None
        reason = body.get(NOT_DELIVERED_REASON)
        permanent = body.get(NOT_DELIVERED_PERMANENT)
        retry_after = body.get(NOT_DELIVERED_RETRY_AFTER)
        provider_status = body.get(NOT_DELIVERED_PROVIDER_STATUS)
        if not isinstance(reason, str) or not isinstance(permanent, bool):
            return None
        if retry_after is not None and (
            isinstance(retry_after, bool) or not isinstance(retry_after, int | float)
        ):
            return None
        if provider_status is not None and (
            isinstance(provider_status, bool) or not isinstance(provider_status, int)
        ):
            return None
        return cls(
            reason,
            permanent,
            None if retry_after is None else float(retry_after),
            provider_status,
        )
