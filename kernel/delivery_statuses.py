"""What a provider says became of a message after it took it, in one vocabulary for both
runtimes: the channels record it (``bot/channels/statuses.py``), the notifier acts on it
(``actions/alerts/outbox_steps.py``), the console shows it (``actions/cases/queue.py``).

Standard library only: both runtimes import it. Sources, as the providers document them:

* WhatsApp Cloud API, webhook ``statuses``: ``sent``, ``delivered``, ``read``, ``failed``
  with ``errors[].code`` (developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components,
  .../support/error-codes): 131026 "Message undeliverable" (not a WhatsApp user, or has not
  accepted the terms) concerns the person; 131047 "Re-engagement message" (outside the 24-hour
  window) and 131051 "Unsupported message type" concern the message, not the person.
* Twilio Messaging, ``StatusCallback`` (twilio.com/docs/messaging/guides/track-outbound-message-
  status): ``MessageStatus`` queued, sending, sent, delivered, undelivered, failed, read
  (WhatsApp), with ``ErrorCode`` (twilio.com/docs/api/errors): 21610 "Attempt to send to
  unsubscribed recipient" (the person texted STOP), 30005 "Unknown destination handset" (no
  such number), 30006 "Landline or unreachable carrier"; 30003 "Unreachable destination
  handset" is a phone switched off or out of coverage: worth another try.
* Kannel, delivery reports (``dlr-url`` with ``%d``, kannel.org/userguide.shtml): type 1
  delivered, 2 not delivered and 16 refused by the SMSC (failed, the type as the error code),
  8 taken by the SMSC (sent), 4 buffered (not recorded); ``bot/channels/kannel.py``.
"""

from __future__ import annotations

from typing import Final

SENT: Final = "sent"
DELIVERED: Final = "delivered"
READ: Final = "read"
FAILED: Final = "failed"

#: The providers' words for where a message stands, in ours (None: not worth recording,
#: the message has not left the provider yet).
_OURS: Final[dict[str, str | None]] = {
    "accepted": None,
    "queued": None,
    "scheduled": None,
    "sending": None,
    SENT: SENT,
    DELIVERED: DELIVERED,
    READ: READ,
    FAILED: FAILED,
    "undelivered": FAILED,  # Twilio: the carrier could not deliver it
}
#: How far a message got: a status never replaces a later one (providers do not promise the
#: order of their callbacks; a "delivered" may arrive after its "read").
RANK: Final[dict[str, int]] = {SENT: 1, DELIVERED: 2, READ: 3, FAILED: 4}

#: Provider error codes that say the person cannot be reached there at all, with the console's
#: words for each (``kernel/lang/texts/cases.py``): never retried, and they end the person's
#: subscriptions as a typed STOP does.
PERSON_GONE: Final[dict[str, str]] = {
    "131026": "provider_not_on_whatsapp",  # WhatsApp: not a WhatsApp user (or terms not accepted)
    "21610": "provider_stopped",  # Twilio: the person texted STOP to the number
    "30005": "provider_unknown_number",  # Twilio: the number does not exist
    "30006": "provider_landline",  # Twilio: a landline, or a carrier that takes no SMS
}
#: Codes worth naming to a caseworker although another try may pass.
TRANSIENT: Final[dict[str, str]] = {
    "30003": "provider_phone_off",  # Twilio: the phone is off or out of coverage
    "131047": "provider_window_closed",  # WhatsApp: outside the 24-hour window
}


def ours(provider_status: str | None) -> str | None:
    """The provider's status in our words; None for one not worth recording or unknown."""
    return _OURS.get((provider_status or "").strip().lower())


def person_gone(code: str | None) -> bool:
    """Whether the provider's error code says the person cannot be reached on this channel."""
    return code is not None and code in PERSON_GONE


def later_than(new: str, old: str | None) -> bool:
    """Whether ``new`` says more about the message than ``old`` did."""
    return old is None or RANK.get(new, 0) >= RANK.get(old, 0)


def console_reason(code: str | None) -> str | None:
    """The console's words (a text key) for a provider's error code, or None for a code it
    has no words for."""
    if code is None:
        return None
    return PERSON_GONE.get(code) or TRANSIENT.get(code)
