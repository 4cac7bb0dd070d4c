"""The admin server's counts for ``/metrics``: requests by route, method and status, and their
time. A route is its pattern (``/records/{kind}/{key}``), never the path people typed, so that
a record's key or a case number never becomes a label."""

from __future__ import annotations

import time
from typing import Final

from aiohttp import web
from aiohttp.typedefs import Handler
from prometheus_client import Counter, Histogram

from kernel.metrics import ACTION_BUCKETS, name

#: The route label of a request no route matched (a 404).
UNMATCHED: Final = "unmatched"

REQUESTS = Counter(
    name("admin_requests"),
    "Requests to the admin server (console and admin API), by route pattern, method and status",
    ["route", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    name("admin_request_duration_seconds"),
    "How long the admin server took to answer, by route pattern",
    ["route"],
    buckets=ACTION_BUCKETS,
)


def route_of(request: web.Request) -> str:
    """The pattern of the route that answered ``request``, or ``unmatched``."""
    resource = request.match_info.route.resource
    return resource.canonical if resource is not None else UNMATCHED


@web.middleware
async def measured(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Counts every request, the refused and failed ones too (outermost middleware)."""
    started = time.perf_counter()
    status = 500
    try:
        answer = await handler(request)
        status = answer.status
        return answer
    except web.HTTPException as error:
        status = error.status
        raise
    finally:
        route = route_of(request)
        REQUEST_SECONDS.labels(route).observe(time.perf_counter() - started)
        REQUESTS.labels(route, request.method, str(status)).inc()
