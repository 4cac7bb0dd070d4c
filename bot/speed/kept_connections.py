"""Rasa's HTTP calls to the action server over kept-alive connections.

Rasa's ``EndpointConfig.request`` opens a new ``aiohttp.ClientSession`` — and so a new TCP
connection — for every call, and closes it after the answer: each turn's action call pays a
connection set-up in Rasa and in the action server (in the load test, session and connection
were a third of the call's cost in Rasa). Here ``EndpointConfig.session`` hands out one session
per endpoint and event loop, made with the same headers, authentication and timeout, which
``request`` then leaves open. Its connections are dropped after ``KEEPALIVE_SECONDS`` idle,
sooner than the action server's own keep-alive timeout (Sanic's 5 s), so a call never goes out
on a connection the server is closing.
"""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Final

import aiohttp
from rasa.core.constants import DEFAULT_REQUEST_TIMEOUT
from rasa.utils.endpoints import EndpointConfig

KEEPALIVE_SECONDS: Final = 2.0
#: Endpoints are made once when Rasa starts; past this many, calls get Rasa's own sessions.
MAX_KEPT: Final = 32
_rasas_session = EndpointConfig.session


class _LeftOpen:
    """``async with`` on a session that stays open afterwards."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self._session = session

    async def __aenter__(self) -> aiohttp.ClientSession:
        return self._session

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        return None


#: (endpoint, loop) → the endpoint and its session; the endpoint is kept to check the id.
_sessions: dict[tuple[int, int], tuple[EndpointConfig, aiohttp.ClientSession]] = {}


def kept_session(endpoint: EndpointConfig) -> _LeftOpen | aiohttp.ClientSession:
    """The endpoint's session on this event loop, made as Rasa makes it, kept open."""
    loop = asyncio.get_running_loop()
    key = (id(endpoint), id(loop))
    kept = _sessions.get(key)
    if kept is not None and kept[0] is endpoint and not kept[1].closed:
        return _LeftOpen(kept[1])
    if len(_sessions) >= MAX_KEPT:
        return _rasas_session(endpoint)  # closed by Rasa after the call, as without this module
    auth = endpoint.basic_auth
    session = aiohttp.ClientSession(  # Rasa's settings (EndpointConfig.session) ...
        headers=endpoint.headers,
        auth=aiohttp.BasicAuth(auth["username"], auth["password"]) if auth else None,
        timeout=aiohttp.ClientTimeout(total=DEFAULT_REQUEST_TIMEOUT),
        # ... and connections kept for the next call
        connector=aiohttp.TCPConnector(keepalive_timeout=KEEPALIVE_SECONDS),
    )
    _sessions[key] = (endpoint, session)
    return _LeftOpen(session)


async def close_all(*_: object) -> None:
    """Closes the sessions made on this event loop (the server's ``after_server_stop``)."""
    loop = asyncio.get_running_loop()
    for key in [key for key in _sessions if key[1] == id(loop)]:
        await _sessions.pop(key)[1].close()


def install() -> None:
    """Make every Rasa endpoint call of this process use :func:`kept_session`."""
    EndpointConfig.session = kept_session  # type: ignore[assignment,method-assign]
