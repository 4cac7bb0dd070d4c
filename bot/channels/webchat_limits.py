"""Limits per client on the web chat: messages a minute, new conversations an hour.

The web chat needs no identity: any page can make a new sender id for every message, and one
client could open hundreds of cases in seconds, burying a real urgent one in the caseworkers'
queue, and grow Rasa's in-memory conversations without end. Yet many people share one address
(a carrier's NAT, a hotel's Wi-Fi), so the address alone must not be the client either.

A client is therefore its page, when the page knows tickets (it sends a ``ticket`` field,
empty until it has one): its own ``messages_per_minute``, for its conversation, which was
counted once, when it was opened. The first ``conversations_per_hour`` an address opens an hour
are free; past them a page is asked for a proof of work instead of being told to wait, harder
the more conversations the address opened this hour, up to ``conversations_ceiling``
(``webchat_tickets.py``). The answer that opens a conversation gives its page a **ticket**, the
server's signature on that conversation: with it the conversation is never counted as new
again, not after an hour's silence, nor from another network (a phone that moves from a
hotel's Wi-Fi to mobile data). A page too old to know tickets keeps the old rule, its address
as the client: ``messages_per_minute`` for all such pages of the address together, and the
free ``conversations_per_hour``, so a cached page is never locked out. Every message of an
address also counts towards ``network_ceiling`` a minute, whatever its pages: conversations
gathered over days cannot become a flood of messages.

The address is the peer's. Behind a reverse proxy the peer is the proxy, so its header
(``X-Forwarded-For``) names the client, but only when the peer is one of the configured
``WEBCHAT_TRUSTED_PROXIES``: from anyone else the header is a lie the client wrote itself.

Counted in the channels' memory (``memory.py``): one count for every Rasa process when Redis is
configured, fixed windows of a minute and an hour, each key expiring by itself. In one process
the counts have a memory of their own (``WebchatInput``), so that a flood from many addresses
cannot push a caseworker's reply out of the mailboxes. Addresses and conversations are kept as
keyed hashes only; an IPv6 client is its /64, the block one household or phone is given (it has
many addresses). When the memory is down the message is admitted (and no ticket is given): a
Redis outage must not silence the people the limits are there to protect.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.channels.identity import keyed_tag
from bot.channels.settings import WebchatSettings
from bot.channels.webchat_tickets import (
    RENEW_AFTER_SECONDS,
    Challenge,
    Work,
    bits_for,
    challenge_for,
    ticket_age,
    ticket_for,
    work_done,
)
from kernel.memory import ChannelMemory, MemoryUnavailable

logger = logging.getLogger(__name__)

_KEY = "webchat.limit."
MINUTE = 60.0
HOUR = 3600.0


@dataclass(frozen=True)
class Refusal:
    """Why a message was not taken, and after how many seconds to try again; or, with
    ``work``, what the page must do first (it may then send again at once)."""

    reason: str
    retry_after: int
    work: Challenge | None = None


@dataclass(frozen=True)
class Admitted:
    """A message that may go on; with the ``ticket`` to give its page, when it needs one."""

    ticket: str | None = None


@dataclass(frozen=True)
class PageProof:
    """What a page that knows tickets sends with a message: its ticket ("" before it has one),
    and the work it did when asked."""

    ticket: str = ""
    work: Work | None = None


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _counted_as(client: str) -> str:
    """What is counted for ``client``: its address, or its /64 for IPv6."""
    address = _address(client)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address) if address is not None else client


class ClientLimits:
    """Admits a web chat message, or says how long its client must wait."""

    def __init__(
        self,
        memory: ChannelMemory,
        settings: WebchatSettings,
        clock: Callable[[], float] = time.time,  # wall time: several processes share a window
    ) -> None:
        self._memory = memory
        self._settings = settings
        self._clock = clock

    def client_address(self, peer: str, headers: Mapping[str, str]) -> str:
        """The client's address: the peer's, or, when the peer is a trusted proxy, the last
        address in its header that is not itself a trusted proxy."""
        if not self._trusted(peer):
            return peer
        forwarded = headers.get(self._settings.client_header, "")
        for hop in reversed(forwarded.split(",")):
            address = _address(hop)
            if address is None:
                return peer  # a header the proxy did not write: count it on the proxy
            if not self._trusted(str(address)):
                return str(address)
        return peer

    def _trusted(self, peer: str) -> bool:
        address = _address(peer)
        return address is not None and any(
            address in network for network in self._settings.trusted_proxies
        )

    async def admit(
        self, client: str, conversation: str, page: PageProof | None = None
    ) -> Admitted | Refusal:
        """Whether the message may go on (counted either way). ``page`` is None for a page too
        old to know tickets: then its address is the client, as it always was."""
        now = self._clock()
        address = keyed_tag("webchat-client", _counted_as(client))
        age = ticket_age(page.ticket, conversation, now) if page is not None else None
        try:
            minute = int(now // MINUTE)
            # A page that knows tickets is a client of its own: each of its conversations was
            # paid for when it was opened (free, or with work, below).
            who = address if page is None else keyed_tag("webchat-page", conversation)
            if not await self._memory.push(
                f"{_KEY}m.{who}.{minute}", "1", self._settings.messages_per_minute, 2 * MINUTE
            ):
                return Refusal("messages per minute", self._wait(now, MINUTE))
            # Counted after the client's own limit: one client's flood, refused, must not use
            # up what the other pages on its network may send.
            if not await self._memory.push(
                f"{_KEY}n.{address}.{minute}", "1", self._settings.network_ceiling, 2 * MINUTE
            ):
                return Refusal("messages per minute from this network", self._wait(now, MINUTE))
            if age is not None:
                renewed = ticket_for(conversation, now) if age > RENEW_AFTER_SECONDS else None
                return Admitted(renewed)
            seen = f"{_KEY}c.{address}.{conversation}"
            if await self._memory.get(seen) is None:
                refusal = await self._open(address, conversation, page, now)
                if refusal is not None:
                    return refusal
            await self._memory.put({seen: "1"}, HOUR)
        except MemoryUnavailable:
            return Admitted()
        return Admitted(ticket_for(conversation, now) if page is not None else None)

    async def _open(
        self, address: str, conversation: str, page: PageProof | None, now: float
    ) -> Refusal | None:
        """A new conversation from ``address``: free among the first of the hour, then (for a
        page that knows tickets) after work that grows with the count, never past the ceiling."""
        opened = f"{_KEY}h.{address}.{int(now // HOUR)}"
        free = self._settings.conversations_per_hour
        if await self._memory.push(opened, "1", free, 2 * HOUR):
            return None
        full = Refusal("new conversations per hour", self._wait(now, HOUR))
        if page is None:
            return full
        ceiling = self._settings.conversations_ceiling
        bits = bits_for(len(await self._memory.items(opened)), free, ceiling)
        if bits is None:
            return full
        if page.work is None or not work_done(page.work, conversation, bits, now):
            return Refusal(
                "new conversations from this network", 0, challenge_for(conversation, now, bits)
            )
        if not await self._memory.push(opened, "1", ceiling, 2 * HOUR):
            return full
        return None

    @staticmethod
    def _wait(now: float, window: float) -> int:
        return max(1, math.ceil(window - now % window))
