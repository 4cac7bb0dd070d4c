"""What the tests of queued turns on real processes need: how many messages are still in the
intake's line in Redis (``scripts/loadtest/redis_server.line_depth``), a slow action server,
and waiting for a condition with a deadline.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any, Final

import aiohttp
from aiohttp import web

#: What Rasa's action call carries that the action server reads.
FORWARDED_HEADERS: Final = ("content-type", "content-encoding", "x-action-server-secret")


async def until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """What ``check()`` (or what it awaits) returns once it is true, polled every 50 ms; fails
    after ``timeout`` seconds naming ``what`` did not happen."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout:.0f} s: {what}")
        await asyncio.sleep(0.05)


class SlowActions:
    """Between Rasa and its action server: each action call waits ``delay`` seconds first,
    so that turns last long enough to pile up in line, or for a process to be killed in the
    middle of one (before the turn's action has sent anything)."""

    def __init__(self, action_url: str) -> None:
        self.target = f"{action_url}/webhook"
        self.delay = 0.0
        self.calls = 0
        #: Action calls waiting or being answered now.
        self.in_flight = 0
        self._runner: web.AppRunner | None = None
        self._http: aiohttp.ClientSession | None = None

    async def start(self, port: int) -> str:
        app = web.Application()
        app.router.add_post("/webhook", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", port).start()
        self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        return f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        if self._http is not None:
            await self._http.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._http is not None
        self.calls += 1
        self.in_flight += 1
        try:
            await asyncio.sleep(self.delay)
            headers = {
                name: value
                for name, value in request.headers.items()
                if name.lower() in FORWARDED_HEADERS
            }
            body = await request.read()
            async with self._http.post(self.target, data=body, headers=headers) as got:
                return web.Response(
                    body=await got.read(), status=got.status, content_type="application/json"
                )
        finally:
            self.in_flight -= 1
