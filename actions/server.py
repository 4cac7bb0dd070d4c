"""The action server: rasa-sdk's, but answering only Rasa.

rasa-sdk has no authentication and listens on every interface (``SANIC_HOST`` defaults to
0.0.0.0), so anyone who can reach :5055 can run any action for any conversation id, including
``action_delete_my_data``. Started as ``python -m actions.server --actions actions.chat`` (the
same arguments as ``python -m rasa_sdk``), it

- binds to **127.0.0.1** unless ``SANIC_HOST`` says otherwise;
- runs nothing for a request without the shared secret ``ACTION_SERVER_SECRET`` in the header
  ``X-Action-Server-Secret`` (Rasa sends it: ``headers`` of ``action_endpoint`` in
  endpoints.yml). Only ``/health`` answers without it, so that a load balancer can probe.
- refuses to start on a non-loopback address without a secret;
- stops on SIGTERM even while a worker is still starting (``kernel/worker_start.py``);
- serves ``/metrics`` (``actions/server_metrics.py``: each action run, by name, and its time)
  to Prometheus with ``METRICS_TOKEN`` instead of the secret; with several workers
  (``ACTION_SERVER_SANIC_WORKERS``) their counts added up in ``PROMETHEUS_MULTIPROC_DIR``.

Both variables are read once, at the start, by ``actions/settings.py``.

Why a shared secret rather than mutual TLS: it costs one constant-time comparison per call
(docs/BENCHMARKS.md, "Action server secret"), needs no certificates that an operator must renew
during a crisis, and works the same behind a TLS-terminating proxy; between machines it must
travel over TLS or a private network (docs/OPERATIONS.md).
"""

from __future__ import annotations

import hmac
import logging
import sys
from collections.abc import Callable, Coroutine
from typing import Any, Final

from pluggy import HookimplMarker
from sanic import Sanic, response
from sanic.request import Request
from sanic.response import HTTPResponse

from actions.server_metrics import MeasuredExecutor, add_metrics_route
from actions.settings import ACTION_SERVER_SECRET, ActionServerSettings, SettingsError
from kernel.metrics import METRICS_PATH, clear_worker_files
from kernel.worker_start import stop_unstarted_workers_on_term

logger = logging.getLogger(__name__)

SECRET_HEADER: Final = "X-Action-Server-Secret"
#: What a load balancer or `make run` may ask without the secret; Prometheus has a token of
#: its own (``METRICS_TOKEN``).
OPEN_PATHS: Final = frozenset({"/health", METRICS_PATH})

hookimpl = HookimplMarker("rasa_sdk")


def secret_check(secret: str) -> Callable[[Request], Coroutine[Any, Any, HTTPResponse | None]]:
    """A request middleware that answers 403 to every call without ``secret``."""
    expected = secret.encode()

    async def refuse_without_secret(request: Request) -> HTTPResponse | None:
        if request.path in OPEN_PATHS:
            return None
        given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogatepass")
        if hmac.compare_digest(given, expected):
            return None
        logger.warning("refused a call to %s without the action server secret", request.path)
        return response.json({"error": f"missing or wrong {SECRET_HEADER}"}, status=403)

    return refuse_without_secret


def protect(app: Sanic, secret: str | None) -> None:
    """Require ``secret`` on ``app``'s routes (nothing to require in local development)."""
    if secret is None:
        logger.warning(
            "%s is not set: the action server answers anyone on this machine (local use only)",
            ACTION_SERVER_SECRET,
        )
        return
    app.register_middleware(secret_check(secret), "request")


class SecretPlugin:
    """rasa-sdk's own extension point for middleware and routes
    (``attach_sanic_app_extensions``): the secret, and ``/metrics``."""

    def __init__(self, settings: ActionServerSettings) -> None:
        self.settings = settings

    @hookimpl
    def attach_sanic_app_extensions(self, app: Sanic) -> None:
        protect(app, self.settings.secret)
        add_metrics_route(app, self.settings.metrics_token, self.settings.metrics_dir)


def main() -> int:
    """rasa-sdk's command line and start-up, bound to loopback and behind the secret."""
    import rasa_sdk.endpoint
    from rasa_sdk.__main__ import main_from_args
    from rasa_sdk.endpoint import create_argument_parser
    from rasa_sdk.plugin import plugin_manager

    try:
        settings = ActionServerSettings.from_env()
    except SettingsError as error:
        print(f"Action server not started: {error}", file=sys.stderr)
        return 2

    settings.hand_to_rasa_sdk()
    clear_worker_files(settings.metrics_dir)  # before the workers start
    stop_unstarted_workers_on_term()
    # ``create_app`` makes its executor from this name: every action run is counted.
    rasa_sdk.endpoint.ActionExecutor = MeasuredExecutor
    plugin_manager().register(SecretPlugin(settings))
    main_from_args(create_argument_parser().parse_args())
    return 0


if __name__ == "__main__":
    sys.exit(main())
