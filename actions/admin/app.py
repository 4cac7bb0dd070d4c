"""The admin HTTP API application: ``create_app()`` wires the state, middlewares and routes.

Middlewares run outermost first: every request is counted (``measured.py``, for
``/metrics``), errors become the documented JSON shape, then the editor's token is checked,
then the handler runs. The access log names method, path, status, time and
editor, never the query string, headers or body (they carry tokens and unpublished text).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from actions.admin import alerts_api, console, dataset_api, history_api, openapi, records_api
from actions.admin.auth import require_editor
from actions.admin.console.guard import CASES
from actions.admin.errors import errors_as_json
from actions.admin.measured import measured
from actions.admin.settings import AdminSettings
from actions.admin.state import CLOCK, EDITOR, ENGINE, SETTINGS, in_transaction
from actions.common.clock import utc_now_to_second
from actions.common.metrics_http import metrics_handler
from actions.content import db
from kernel.metrics import METRICS_PATH

logger = logging.getLogger(__name__)


def create_app(
    engine: Engine | None = None,
    settings: AdminSettings | None = None,
    clock: Callable[[], datetime] = utc_now_to_second,
) -> web.Application:
    """The application; without ``engine`` it uses (and at shutdown closes) ``CONTENT_DB_URL``'s."""
    settings = settings or AdminSettings.from_env()
    app = web.Application(
        middlewares=[measured, errors_as_json, require_editor],
        client_max_size=settings.max_body_bytes,
    )
    app[SETTINGS] = settings
    app[CLOCK] = clock
    # Creating an engine does not connect: the database is first used by the first request.
    app[ENGINE] = engine if engine is not None else db.get_engine()
    if engine is None:
        app.on_cleanup.append(_close_engine)
    app.on_response_prepare.append(_private)
    app.router.add_get("/health", health)
    app.router.add_get("/openapi.json", describe)
    app.router.add_get(METRICS_PATH, metrics_handler(settings.metrics_token))
    for module in (records_api, history_api, dataset_api, alerts_api):
        app.add_routes(module.routes)
    console.setup(app)
    return app


async def health(request: web.Request) -> web.Response:
    """For load balancers and monitoring: 200 when the database answers, else 503."""
    await in_transaction(request, _ping)
    return web.json_response({"status": "ok"})


def _ping(session: Session) -> None:
    session.execute(text("SELECT 1"))


async def describe(request: web.Request) -> web.Response:
    return web.json_response(openapi.document())


async def _close_engine(app: web.Application) -> None:
    db.dispose_engine()


def _runs_script(path: str) -> bool:
    """The queue, and one case's page (``/console/cases/<number>``)."""
    return path == CASES or (path.startswith(CASES + "/") and path[len(CASES) + 1 :].isdigit())


async def _private(request: web.Request, response: web.StreamResponse) -> None:
    """Content being edited is nobody's cache's business; JSON is never to be sniffed as HTML.

    Console pages may load only their own style sheet, never be framed (clickjacking a
    "publish" button) and send no referrer (a sign-in link carries its code).
    """
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    if request.path.startswith("/console"):
        # The caseworkers' queue and case pages alone run a script, their own files
        # (static/cases.js fetches the queue again, static/case.js shows the saved replies in
        # the language chosen); inline or injected scripts still do not run.
        scripts = "script-src 'self'; connect-src 'self'; " if _runs_script(request.path) else ""
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
            f"{scripts}frame-ancestors 'none'; base-uri 'none'"
        )
        response.headers["Referrer-Policy"] = "no-referrer"


class AccessLog(AbstractAccessLogger):
    """One line per request: who did what, without anything secret or personal."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        who = request.get(EDITOR, "-")
        self.logger.info(
            "%s %s %s %.0f ms editor=%s",
            request.method,
            request.path,
            response.status,
            time * 1000,
            who,
        )
