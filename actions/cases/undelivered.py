"""Why a caseworker's reply has not arrived, in the caseworker's words.

The notifier records each failed attempt's reason in ``last_error``: a short technical line
written by this project's own code ("telegram: no stored address", "Rasa HTTP 500: webchat: no
database to record the delivery in (ADDRESS_ENCRYPTION_KEY unset)", "Rasa unreachable
(ClientConnectorError)"). A caseworker needs to know what it means for the person and whom to
tell, so each is read as one of a few reasons, the catalogue's ``undelivered_*`` sentences.
The markers are the fixed parts of those lines (``actions/common/outbox.py``,
``actions/alerts/outbox_steps.py``, ``actions/common/rasa_api.py``, ``bot/channels/alerts.py``,
``webchat.py``), never a provider's prose.
"""

from __future__ import annotations

from typing import Final

from actions.common.outbox import DeliveryStatus
from kernel.delivery_statuses import console_reason

#: (what the reason line contains, the reason's key), the first match wins.
MARKERS: Final = (
    ("refused by the person", "undelivered_refused"),
    ("ADDRESS_ENCRYPTION_KEY", "undelivered_server_key"),
    ("no address book configured", "undelivered_server_key"),
    ("no stored address", "undelivered_unreachable"),
    ("mailbox full", "undelivered_not_fetched"),
    ("provider refused", "undelivered_channel_refused"),
    ("provider reported failure", "undelivered_channel_refused"),
    ("not a web chat conversation", "undelivered_channel_refused"),
    ("Rasa unreachable", "undelivered_assistant_down"),
    ("RASA_API_TOKEN", "undelivered_assistant_down"),
    ("address book unavailable", "undelivered_assistant_down"),
    ("mailbox unavailable", "undelivered_assistant_down"),
)


def reason(
    status: DeliveryStatus,
    last_error: str | None,
    *,
    stalled: bool = False,
    provider_error: str | None = None,
) -> str | None:
    """The key of why a reply in ``status`` has not arrived; None when it has, or when it is
    on its first try. ``stalled``: queued long ago and never tried. ``provider_error``: the
    code of a failure the provider reported after taking it ("not on WhatsApp")."""
    if provider_error is not None and console_reason(provider_error) is not None:
        return console_reason(provider_error)
    if status is DeliveryStatus.SENT:
        return None
    if stalled:
        return "undelivered_notifier_idle"
    if status is DeliveryStatus.CANCELLED:
        return "undelivered_cancelled"
    if not last_error:
        return "undelivered_other" if status is DeliveryStatus.FAILED else None
    for marker, key in MARKERS:
        if marker in last_error:
            return key
    return "undelivered_other"
