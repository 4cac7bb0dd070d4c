"""Every request but ``/health``, ``/openapi.json``, ``/metrics`` and the console needs a current
editor token.

Authentication comes before anything reads the body or the route's parameters, so a request
without a valid token learns nothing and changes nothing. The editor a revision names is the
token's editor, set here; a body cannot claim to be someone else.
"""

from __future__ import annotations

import asyncio
from functools import partial

from aiohttp import hdrs, web
from aiohttp.typedefs import Handler

from actions.admin import tokens
from actions.admin.errors import ApiError
from actions.admin.state import EDITOR, ENGINE, now, transact
from actions.admin.tokens import Rejection, TokenRejected
from kernel.metrics import METRICS_PATH

#: ``/metrics`` answers Prometheus's own token instead (``METRICS_TOKEN``, kernel/metrics.py).
PUBLIC = frozenset({"/health", "/openapi.json", METRICS_PATH})
#: The web console signs its editors in with a session cookie instead (console/guard.py).
CONSOLE = "/console"
TOKEN_HELP = "ask an administrator to run `python -m actions.admin token add YOUR-NAME`"
MESSAGES = {
    Rejection.MISSING: f"send your editor token as 'Authorization: Bearer <token>'; {TOKEN_HELP}",
    Rejection.INVALID: f"this is not a valid editor token; check that you copied it whole, or "
    f"{TOKEN_HELP}",
    Rejection.REVOKED: f"this token has been revoked; {TOKEN_HELP}",
}


def bearer(header: str | None) -> str | None:
    """The token in ``Authorization: Bearer <token>``; other schemes are passed on to fail."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else header


@web.middleware
async def require_editor(request: web.Request, handler: Handler) -> web.StreamResponse:
    if request.method in (hdrs.METH_GET, hdrs.METH_HEAD) and request.path in PUBLIC:
        return await handler(request)
    if request.path == CONSOLE or request.path.startswith(CONSOLE + "/"):
        return await handler(request)
    presented = bearer(request.headers.get(hdrs.AUTHORIZATION))
    check = partial(tokens.authenticate, presented=presented, now=now(request))
    try:
        request[EDITOR] = await asyncio.to_thread(transact, request.app[ENGINE], check)
    except TokenRejected as rejected:
        challenge = 'Bearer realm="content editors"'
        if rejected.reason is not Rejection.MISSING:
            challenge += ', error="invalid_token"'
        raise ApiError(
            401,
            rejected.reason.value,
            MESSAGES[rejected.reason],
            headers={hdrs.WWW_AUTHENTICATE: challenge},
        ) from None
    return await handler(request)
