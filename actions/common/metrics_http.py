"""``/metrics`` on the content runtime's aiohttp servers: the admin server (the console) and
the notifier's own small server. Who may read it and what it says: ``kernel/metrics.py``."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from kernel.metrics import CONTENT_TYPE, METRICS_PATH, exposition, refusal

logger = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def metrics_handler(token: str | None) -> Handler:
    """``GET /metrics`` behind ``METRICS_TOKEN``: this process's metrics."""

    async def metrics(request: web.Request) -> web.StreamResponse:
        refused = refusal(token, request.headers.get("Authorization"))
        if refused is not None:
            return web.json_response(refused.body(), status=refused.status, headers=refused.headers)
        # aiohttp wants the charset apart from the content type.
        content_type, _, charset = CONTENT_TYPE.partition("; charset=")
        return web.Response(
            body=exposition(None), content_type=content_type, charset=charset or None
        )

    return metrics


async def serve_metrics(host: str, port: int, token: str | None) -> web.AppRunner | None:
    """A server of ``/metrics`` alone on ``host:port`` (the notifier, which has no HTTP server
    of its own); None when there is no token (nothing to serve) or the port is taken: metrics
    never stop what the process is for, which is logged instead."""
    if not token:
        logger.info("metrics not served: METRICS_TOKEN is not set")
        return None
    app = web.Application()
    app.router.add_get(METRICS_PATH, metrics_handler(token))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as error:
        logger.error("metrics not served: %s:%s unavailable (%s)", host, port, error.strerror)
        await runner.cleanup()
        return None
    logger.info("metrics on http://%s:%s%s", host, port, METRICS_PATH)
    return runner
