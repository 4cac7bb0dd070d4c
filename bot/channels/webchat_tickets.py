"""A web chat page's ticket, and the work a page does for one when its network is busy.

Many people can share one address (a mobile carrier's NAT, a hotel's or an NGO's Wi-Fi), and
the web chat needs no identity: counted by address alone, 300 people writing from one network
are one client, and the 31st of them is told to wait for the next hour. So a page that opens a
conversation is given a **ticket**: the server's keyed hash (``identity.keyed_tag``, under
``CONVERSATION_ID_KEY``) of that conversation and the time, which the page keeps with its sender
id. Nothing is stored on the server; a ticket names one conversation only, so a script cannot
copy it onto the new sender ids it makes.

Tickets are not free to a script either: on an address that has already opened its
``conversations_per_hour`` this hour, a new conversation asks for a **proof of work** first —
a nonce whose SHA-256 with the server's challenge starts with ``bits`` zero bits, ``2**bits``
tries on average. The bits grow with the conversations that address opened this hour, one more
(twice the work) for each ninth of the way to the ceiling, from ``FIRST_BITS`` to ``LAST_BITS``:
at the 300th conversation of an hour (with the defaults, 30 free and 400 at most) 14 bits,
about 16 000 hashes: a median 6 ms in Chromium on a server core, 60 ms with it slowed six
times as a cheap phone is (docs/BENCHMARKS.md, "Web chat limits per client"). A loop of
requests that does no work stays at the free conversations; a script that does the work still
stops at the ceiling. The challenge names the conversation and its time, so a solution opens
that conversation only, and only for ``CHALLENGE_SECONDS``: work cannot be done in advance, nor
its result passed around.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Final

from bot.channels.identity import keyed_tag

#: How long a ticket lets its page in without work: a week, as long as the page keeps the chat
#: (widget.js ``HISTORY_DAYS``). A page that writes gets a fresh one each day.
TICKET_SECONDS: Final = 7 * 24 * 3600
RENEW_AFTER_SECONDS: Final = 24 * 3600
#: How long a challenge may be worked on: long enough for the slowest phone, too short to
#: store solutions for a flood later.
CHALLENGE_SECONDS: Final = 600
#: Clocks of several Rasa machines may differ a little.
SKEW_SECONDS: Final = 60
#: The work asked for the first conversation past the free ones (256 hashes: nothing) and the
#: most asked of anyone (65 536 hashes: half a second on average on a cheap phone).
FIRST_BITS: Final = 8
LAST_BITS: Final = 16

_TICKET: Final = re.compile(r"(\d{1,12})\.([0-9a-f]{32})")
_CHALLENGE: Final = re.compile(r"(\d{1,12})\.([0-9a-f]{24})")
_NONCE: Final = re.compile(r"[0-9a-z]{1,16}")


@dataclass(frozen=True)
class Challenge:
    """What a page must work on before its conversation is opened."""

    text: str
    bits: int


@dataclass(frozen=True)
class Work:
    """A page's answer to a challenge, as it sent it."""

    challenge: str
    nonce: str

    @classmethod
    def from_page(cls, value: object) -> Work | None:
        """The work in a message's body, or None when it carries none that could count."""
        if not isinstance(value, dict):
            return None
        challenge, nonce = value.get("challenge"), value.get("nonce")
        if isinstance(challenge, str) and isinstance(nonce, str) and _NONCE.fullmatch(nonce):
            return cls(challenge, nonce)
        return None


def bits_for(opened: int, free: int, ceiling: int) -> int | None:
    """The work asked of the next conversation of an address that opened ``opened`` this hour:
    none among the first ``free``, more the nearer ``ceiling``; None at the ceiling."""
    if opened < free:
        return 0
    if opened >= ceiling:
        return None
    steps = LAST_BITS - FIRST_BITS + 1
    return FIRST_BITS + (opened - free) * steps // (ceiling - free)


def ticket_for(conversation: str, now: float) -> str:
    """A new ticket for the page of ``conversation``."""
    issued = int(now)
    return f"{issued}.{keyed_tag('webchat-ticket', f'{conversation}|{issued}')}"


def ticket_age(ticket: str, conversation: str, now: float) -> float | None:
    """How old ``ticket`` is, when it is this conversation's and still good; else None."""
    found = _TICKET.fullmatch(ticket)
    if found is None:
        return None
    issued = int(found[1])
    expected = keyed_tag("webchat-ticket", f"{conversation}|{issued}")
    age = now - issued
    if not hmac.compare_digest(found[2], expected) or not -SKEW_SECONDS <= age <= TICKET_SECONDS:
        return None
    return age


def challenge_for(conversation: str, now: float, bits: int) -> Challenge:
    """The work that opens ``conversation`` from a busy network."""
    issued = int(now)
    return Challenge(f"{issued}.{_challenge_tag(conversation, issued)}", bits)


def work_done(work: Work, conversation: str, bits: int, now: float) -> bool:
    """Whether ``work`` answers a challenge of ours for ``conversation`` that is still open,
    with at least ``bits`` zero bits."""
    found = _CHALLENGE.fullmatch(work.challenge)
    if found is None:
        return False
    issued = int(found[1])
    if not -SKEW_SECONDS <= now - issued <= CHALLENGE_SECONDS:
        return False
    if not hmac.compare_digest(found[2], _challenge_tag(conversation, issued)):
        return False
    return zero_bits(f"{work.challenge}:{work.nonce}") >= bits


def zero_bits(text: str) -> int:
    """How many zero bits SHA-256 of ``text`` starts with."""
    digest = int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")
    return 256 - digest.bit_length()


def solve(challenge: Challenge) -> str:
    """A nonce that answers ``challenge``: what the page does in widget.js, here for a test or
    a benchmark's simulated pages."""
    tries = 0
    while True:
        nonce = _base36(tries)
        if zero_bits(f"{challenge.text}:{nonce}") >= challenge.bits:
            return nonce
        tries += 1


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = digits[digit] + text
        if not number:
            return text


def _challenge_tag(conversation: str, issued: int) -> str:
    return keyed_tag("webchat-work", f"{conversation}|{issued}")[:24]
