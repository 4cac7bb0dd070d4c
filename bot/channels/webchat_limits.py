"""Limits per client on the web chat: messages a minute, new conversations an hour.

The web chat needs no identity: any page can make a new sender id for every message, and one
client could open hundreds of cases in seconds, burying a real urgent one in the caseworkers'
queue, and grow Rasa's in-memory conversations without end. These limits are keyed on the
client's address, the one thing such a client cannot change for free. Behind a reverse proxy the
peer is the proxy, so its header (``X-Forwarded-For``) names the client, but only when the peer
is one of the configured ``WEBCHAT_TRUSTED_PROXIES``: from anyone else the header is a lie the
client wrote itself.

Counted in the channels' memory (``memory.py``): one count for every Rasa process when Redis is
configured, fixed windows of a minute and an hour, each key expiring by itself. In one process
the counts have a memory of their own (``WebchatInput``), so that a flood from many addresses
cannot push a caseworker's reply out of the mailboxes. Addresses are kept as keyed hashes only;
an IPv6 client is its /64, the block one household or phone is given (it has many addresses).
When the memory is down the message is admitted: a Redis outage must not silence the people the
limits are there to protect.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.channels.identity import keyed_tag
from bot.channels.memory import ChannelMemory, MemoryUnavailable
from bot.channels.settings import WebchatSettings

logger = logging.getLogger(__name__)

_KEY = "webchat.limit."
MINUTE = 60.0
HOUR = 3600.0


@dataclass(frozen=True)
class Refusal:
    """Why a message was not taken, and after how many seconds to try again."""

    reason: str
    retry_after: int


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

    async def admit(self, client: str, conversation: str) -> Refusal | None:
        """None when the message may go on, else the refusal; counts it either way."""
        now = self._clock()
        who = keyed_tag("webchat-client", _counted_as(client))
        try:
            minute = int(now // MINUTE)
            if not await self._memory.push(
                f"{_KEY}m.{who}.{minute}", "1", self._settings.messages_per_minute, 2 * MINUTE
            ):
                return Refusal("messages per minute", self._wait(now, MINUTE))
            seen = f"{_KEY}c.{who}.{conversation}"
            if await self._memory.get(seen) is None:
                hour = int(now // HOUR)
                if not await self._memory.push(
                    f"{_KEY}h.{who}.{hour}", "1", self._settings.conversations_per_hour, 2 * HOUR
                ):
                    return Refusal("new conversations per hour", self._wait(now, HOUR))
            await self._memory.put({seen: "1"}, HOUR)
        except MemoryUnavailable:
            return None
        return None

    @staticmethod
    def _wait(now: float, window: float) -> int:
        return max(1, math.ceil(window - now % window))
