"""``rasa run``, with what a server on the internet needs and Rasa does not do by itself.

Start it exactly like ``rasa run`` (same arguments): ``python -m bot.server run --enable-api ...``.
On top of Rasa's own behaviour:

- **A small request-size limit for the whole app** (``MAX_REQUEST_BYTES``, the largest webhook
  limit of ``transport.BODY_LIMITS``). Sanic's default is 100 MB, which it buffers before any
  handler runs, for every route, including Rasa's REST channel and HTTP API.
- **The HTTP API token in a header.** Rasa accepts its token only as ``?token=``, which every
  reverse proxy writes to its access log; ``Authorization: Bearer <token>`` is accepted too.
- **The token from the environment** (``RASA_API_TOKEN``) instead of ``--auth-token``, whose
  value any local user can read in ``ps``.
- **A channel's refusal as JSON.** When the output channel of a ``trigger_intent`` could not
  hand a message to the provider (``AlertNotDelivered``), Rasa answers 500 with the error's
  text inside a sentence; this answers ``kernel/contract.py``'s ``NotDelivered`` body instead, so
  that the notifier and the console read the reason, permanence and retry time by key.
- **STOP, "delete my data" and "safety" in a paused conversation** (a caseworker holds it):
  ``bot/paused.py``.
- **``/metrics`` for Prometheus** (``bot/channels/metrics.py``), whatever channels the
  credentials file names, behind ``METRICS_TOKEN``; with ``SANIC_WORKERS`` above 1 it adds up
  every worker's counts in ``PROMETHEUS_MULTIPROC_DIR``, which it empties before they start,
  and refuses to start without it (``kernel/metrics.py``).
- **No production start without its keys**: with a shared tracker store Rasa refuses to start
  without ``CONVERSATION_ID_KEY`` or ``ADDRESS_ENCRYPTION_KEY`` and names it, and with
  ``SANIC_WORKERS`` above 1 without ``CONVERSATION_ID_KEY`` (``bot/deployment.py``). The key
  is read once, before the workers start, and they all inherit it.
- **A worker stopped while it starts stops** (``kernel/worker_start.py``): with several workers,
  Sanic's forked workers would otherwise ignore a SIGTERM until their loop is up and then run
  on, and the server never exits.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Final

from rasa.core.utils import read_endpoints_from_path
from rasa.server import ErrorResponse
from rasa.shared.exceptions import RasaException
from sanic import Sanic, response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels import identity
from bot.channels.alerts import AlertNotDelivered
from bot.channels.metrics import metrics_blueprint
from bot.channels.transport import BODY_LIMITS, secrets_match
from bot.deployment import PRODUCTION_KEYS, missing_keys, workers_without_key
from bot.speed import kept_connections
from kernel.contract import NOT_DELIVERED_STATUS
from kernel.metrics import clear_worker_files, workers_without_dir
from kernel.settings import (
    SANIC_WORKERS,
    api_token,
    conversation_id_key,
    metrics_dir,
    metrics_token,
    sanic_workers,
    unset_variables,
)
from kernel.settings_values import SettingsError
from kernel.worker_start import stop_unstarted_workers_on_term

logger = logging.getLogger(__name__)

#: No request to this server is larger than the largest provider notification we accept.
MAX_REQUEST_BYTES: Final = max(BODY_LIMITS.values())
#: Sanic's name of Rasa's ``POST /conversations/<id>/trigger_intent`` route.
TRIGGER_ROUTE: Final = "rasa_server.trigger_intent"


def harden(app: Sanic) -> None:
    """Put the request-size limit and the header token on ``app`` (before it serves); the
    token is read now, once."""
    app.config.REQUEST_MAX_SIZE = MAX_REQUEST_BYTES
    app.register_middleware(bearer_token_as_query_token(api_token()), "request")
    answer_refusals_as_json(app)


def answer_refusals_as_json(app: Sanic) -> None:
    """Rasa's ``trigger_intent`` answers a channel's ``AlertNotDelivered`` with our JSON.

    Rasa catches every exception of the trigger and raises its own ``ErrorResponse`` in the
    ``except`` block, so the channel's error is that response's ``__context__``; this handler,
    for that route only, is looked up before Rasa's handler for all routes.
    """
    app.error_handler.add(ErrorResponse, refusal_as_json, route_names=[TRIGGER_ROUTE])


def refusal_as_json(request: Request, error: ErrorResponse) -> HTTPResponse:
    """The ``NotDelivered`` body for a channel's refusal; Rasa's own answer for anything else."""
    refusal = not_delivered(error)
    if refusal is None:
        return response.json(error.error_info, status=error.status)
    return response.json(refusal.answer().body(), status=NOT_DELIVERED_STATUS)


def not_delivered(error: BaseException) -> AlertNotDelivered | None:
    """The ``AlertNotDelivered`` that ``error`` was raised while handling, if any."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, AlertNotDelivered):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def bearer_token_as_query_token(
    token: str | None,
) -> Callable[[Request], Coroutine[Any, Any, None]]:
    """A middleware by which ``Authorization: Bearer <token>`` counts as ``?token=``, where
    Rasa looks.

    Only the exact token is passed on (compared in constant time); anything else, a JWT for
    Rasa's own JWT check included, is left as it came, for Rasa to accept or refuse.
    """

    async def bearer_token(request: Request) -> None:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if not token or scheme.lower() != "bearer" or "token" in request.args:
            return
        if secrets_match(given.strip(), token):
            request.args["token"] = [token]

    return bearer_token


async def _harden_on_start(app: Sanic, _: Any) -> None:
    harden(app)


def _run_hardened(run: Any) -> Any:
    """Rasa's ``rasa run`` entry, given the token from the environment and ``harden``."""

    def run_hardened(args: argparse.Namespace) -> None:
        refuse_without_keys(getattr(args, "endpoints", None))
        # Before Sanic starts its workers: they inherit this one key.
        identity.hold_key(conversation_key_for_workers())
        prepare_metrics_dir()
        stop_unstarted_workers_on_term()
        args.auth_token = args.auth_token or api_token()
        listeners = list(getattr(args, "server_listeners", None) or [])
        args.server_listeners = [
            *listeners,
            (_harden_on_start, "before_server_start"),
            (kept_connections.close_all, "after_server_stop"),
        ]
        run(args)

    return run_hardened


def refuse_without_keys(endpoints: str | None) -> None:
    """Stop (Rasa prints the sentence, no traceback) when a production deployment, one with a
    shared tracker store, lacks a key it must be given."""
    tracker_store = read_endpoints_from_path(endpoints).tracker_store
    lacking = missing_keys(
        tracker_store.type if tracker_store else None, unset_variables(PRODUCTION_KEYS)
    )
    if lacking:
        raise RasaException(
            "This deployment shares its tracker store (production) and must be given its keys, "
            "the same on every machine (docs/OPERATIONS.md); missing: " + "; ".join(lacking)
        )


def conversation_key_for_workers() -> bytes | None:
    """``CONVERSATION_ID_KEY``, read once; stop when several workers would run without it."""
    try:
        workers = sanic_workers()
    except SettingsError as error:
        raise RasaException(str(error)) from None
    key = conversation_id_key()
    problem = workers_without_key(workers, key)
    if problem:
        raise RasaException(problem)
    return key


def prepare_metrics_dir() -> None:
    """Before the workers start: stop when several would count apart, else empty their
    directory of a run before's counts."""
    directory = metrics_dir()
    problem = workers_without_dir(sanic_workers(), directory, SANIC_WORKERS)
    if problem:
        raise RasaException(problem)
    clear_worker_files(directory)


def _with_metrics(configure: Callable[..., Sanic]) -> Callable[..., Sanic]:
    """Rasa's ``configure_app``, whose app also serves ``/metrics``; the token is read once,
    here, before the workers start."""

    def configure_with_metrics(*args: Any, **kwargs: Any) -> Sanic:
        app = configure(*args, **kwargs)
        app.blueprint(metrics_blueprint(metrics_token(), metrics_dir()))
        return app

    return configure_with_metrics


def harden_rasa_run() -> None:
    """``rasa run`` hardened (``_run_hardened``): ``rasa.cli.run.run`` is what the ``run``
    sub-command calls; it is looked up when Rasa builds its argument parser. A patch of
    ``bot/patches.py``, which installs it."""
    import rasa.cli.run

    rasa.cli.run.run = _run_hardened(rasa.cli.run.run)


def serve_metrics() -> None:
    """The app of ``rasa run`` serves ``/metrics`` too (``_with_metrics``):
    ``serve_application`` looks ``configure_app`` up in its module when it builds the app. A
    patch of ``bot/patches.py``, which installs it."""
    import rasa.core.run

    rasa.core.run.configure_app = _with_metrics(rasa.core.run.configure_app)


def main() -> None:
    """Rasa's own command line, with every patch of ``bot/patches.py`` installed: ``rasa
    run`` hardened, its app serving ``/metrics``, the paused processor and the speed-ups.
    Stops before Rasa starts when Rasa or redis-py is not the version they were written for."""
    import rasa.__main__

    from bot import patches

    patches.install()
    rasa.__main__.main()


if __name__ == "__main__":
    main()
