"""The names Rasa, its channels, the action server, the notifier and the console exchange.

Standard library only: both runtimes import it (docs/ARCHITECTURE.md). A name written here is
the only spelling of that name; a process that needs it imports it from here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kernel.lang.codes import DEFAULT_LANGUAGE, is_language

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

# -- channels ---------------------------------------------------------------------------------

#: A channel's family: what it can show and how its answers are written.
CHAT: Final = "chat"  # a messenger: long texts, buttons, pushes to a phone
SMS: Final = "sms"  # a text message: short forms, numbered options, three segments at most
WEB: Final = "web"  # a page the person has open: nothing can be pushed to it


@dataclass(frozen=True)
class Channel:
    """What the rest of the assistant needs to know of one connector (``bot/channels``)."""

    family: str
    #: The most one webhook request may carry, in bytes (``transport.BODY_LIMITS``): Telegram
    #: and WhatsApp batch several updates in one notification; Twilio and SMS gateways post one
    #: short form; Kannel's smsbox brings one SMS (4 000 bytes as UCS-2 at most); the web chat
    #: posts one typed message.
    body_limit: int
    #: The alerts a second it may send (``kernel/alert_rates.py``, below the provider's limit);
    #: None: it cannot carry alerts, having no way to push to a phone.
    alert_rate: float | None = None


#: Every connector by its name: the one table the lists below, the body limits, the alert rates
#: and the responses' variations are read from (``tests/tooling/test_extending.py`` fails for a
#: connector missing here, naming it).
CHANNELS: Final[Mapping[str, Channel]] = {
    "telegram": Channel(CHAT, body_limit=1024 * 1024, alert_rate=25.0),
    "whatsapp": Channel(CHAT, body_limit=1024 * 1024, alert_rate=70.0),
    "twilio_sms": Channel(SMS, body_limit=64 * 1024, alert_rate=10.0),
    "sms_gateway": Channel(SMS, body_limit=64 * 1024, alert_rate=10.0),
    "kannel": Channel(SMS, body_limit=8 * 1024, alert_rate=3.0),
    "webchat": Channel(WEB, body_limit=16 * 1024),
}

#: The channels that can carry an alert: they push to a phone. REST and the web chat cannot.
ALERT_CHANNELS: Final = frozenset(
    name for name, channel in CHANNELS.items() if channel.alert_rate is not None
)
#: The channels that send text messages: short forms, cut to three segments.
SMS_CHANNELS: Final = frozenset(name for name, channel in CHANNELS.items() if channel.family == SMS)


def variations_for(channel: str) -> str:
    """The ``channel:`` of the responses' variations a channel reads (bot/domain): every SMS
    channel reads the one written for SMS (``channel: sms``); another its own, if any."""
    known = CHANNELS.get(channel)
    return SMS if known is not None and known.family == SMS else channel


#: The confirmation that ends a deletion turn (``action_delete_my_data``): Rasa's tracker store
#: then deletes the conversation (bot/stores.py), and the channels what they keep of it.
DELETED_CONFIRMATION: Final = "utter_data_deleted"

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


def person_in(metadata: object) -> str | None:
    """The person tag (``PERSON``) a user message's metadata carries, if its channel knows an
    address (Rasa's REST channel and HTTP API do not): the question log (Rasa) and the asks
    (the action server) count people by it."""
    person = metadata.get(PERSON) if isinstance(metadata, Mapping) else None
    return person if isinstance(person, str) and person else None


#: The key of a user message's ``metadata`` with the slug of the organisation whose own site
#: the person wrote from (the web chat on its page, ``embed.js``'s ``data-organisation``): its
#: caseworkers answer the case the conversation opens (``actions/cases/hours.py``).
ORGANISATION: Final = "organisation"

#: What an organisation's slug may be (``actions/content/validation.py``'s rule, at most the
#: 64 characters its column holds): anything else names no organisation.
_SLUG: Final = re.compile(r"(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*")


def organisation_in(metadata: object) -> str | None:
    """The organisation slug (``ORGANISATION``) a user message's metadata carries, if it has
    the shape of one; whether such an organisation exists and takes cases is the action
    server's to say."""
    slug = metadata.get(ORGANISATION) if isinstance(metadata, Mapping) else None
    return slug if isinstance(slug, str) and _SLUG.fullmatch(slug) else None


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
