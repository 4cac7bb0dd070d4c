"""Which SMS senders a reply can reach: a person's phone number in any spelling, never an
operator's sender name or a short code (``sms_base.unanswerable``)."""

from __future__ import annotations

import pytest

from bot.channels.sms_base import unanswerable


@pytest.mark.parametrize(
    "sender",
    [
        "+93700000001",
        "93700000001",  # Kannel's SMSC may drop the "+"
        "0700000001",  # national spelling
        "+93 70-000 (0001)",
        "+۹۳۷۰۰۰۰۰۰۰۱",  # Persian digits
        "+6834002",  # Niue: seven digits with the country code, the shortest there are
    ],
)
def test_a_phone_number_is_answered(sender: str) -> None:
    assert unanswerable(sender) is None


@pytest.mark.parametrize(
    ("sender", "kind"),
    [
        ("MTN", "a sender name"),
        ("AWCC", "a sender name"),
        ("Roshan", "a sender name"),
        ("Etisalat", "a sender name"),
        ("SALAAM", "a sender name"),
        ("AWCC-4G", "a sender name"),
        ("100", "a short code"),
        ("8050", "a short code"),
        ("+222", "a short code"),
        ("123456", "a short code"),
    ],
)
def test_an_operators_sender_name_or_short_code_is_not(sender: str, kind: str) -> None:
    assert unanswerable(sender) == kind
