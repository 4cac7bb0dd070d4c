"""Who a request comes from: the client's address, even behind the reverse proxy.

Behind a proxy every connection comes from the proxy's address, so per-client limits would
treat every editor and caseworker as one client. A proxy appends the address it saw to
``X-Forwarded-For``; anyone can write that header, so it is believed only on a connection from
a proxy the operator named in ``CONSOLE_TRUSTED_PROXIES``, and only its right-hand end: the
entries the trusted proxies added. The client is the right-most entry that is not itself a
trusted proxy. An IPv6 client counts as its /64: one home or phone is given a whole /64, and
hopping between its addresses must not buy new tries.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the settings import this module, and the token commands need no aiohttp
    from aiohttp import web

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
#: What a request from a unix socket or an unreadable peer counts as.
UNKNOWN = "-"
FORWARDED_FOR = "X-Forwarded-For"
IPV6_CLIENT_PREFIX = 64


def networks(raw: str) -> tuple[Network, ...]:
    """``127.0.0.1, 10.0.0.0/8, ::1`` → networks; ValueError naming the entry that is none."""
    found = []
    for entry in raw.replace(";", ",").split(","):
        entry = entry.strip()
        if not entry:
            continue
        try:
            found.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or network like 10.0.0.0/8") from None
    return tuple(found)


def _address(raw: str | None) -> Address | None:
    if not raw:
        return None
    try:
        address = ipaddress.ip_address(raw.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, proxies: Iterable[Network]) -> bool:
    return any(address.version == net.version and address in net for net in proxies)


def _client(address: Address) -> str:
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{address}/{IPV6_CLIENT_PREFIX}", strict=False))
    return str(address)


def client_of(request: web.BaseRequest, proxies: tuple[Network, ...]) -> str:
    """The client's address (an IPv6 client's /64), as far as the trusted proxies vouch for it."""
    peer = _address(request.remote)
    if peer is None:
        return UNKNOWN
    if not _trusted(peer, proxies):
        return _client(peer)
    forwarded = ",".join(request.headers.getall(FORWARDED_FOR, []))
    for entry in reversed(forwarded.split(",")):
        hop = _address(entry)
        if hop is None:
            break  # not written by a proxy of ours: stop believing the header here
        if not _trusted(hop, proxies):
            return _client(hop)
        peer = hop
    return _client(peer)
