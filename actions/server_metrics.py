"""The action server's ``/metrics``: each action Rasa asked for, how it ended and how long it took.

rasa-sdk's ``create_app`` makes its ``ActionExecutor`` itself and keeps it inside the webhook's
closure; ``MeasuredExecutor`` is that executor with every call counted, put in its place before
the app is made (``actions/server.py``). The action's name is a label only when the action is
one of ours: a caller's made-up name (the route answers 404) counts as ``unknown``, so nobody
can add series by sending names.
"""

from __future__ import annotations

import time
from typing import Any, Final

from prometheus_client import Counter, Histogram
from rasa_sdk.executor import ActionExecutor
from rasa_sdk.interfaces import ActionExecutionRejection, ActionNotFoundException
from sanic import Sanic, response
from sanic.request import Request
from sanic.response import HTTPResponse

from kernel.metrics import ACTION_BUCKETS, CONTENT_TYPE, METRICS_PATH, exposition, name, refusal

#: The label of a call for an action this server does not have (or for none).
UNKNOWN: Final = "unknown"

ACTIONS = Counter(
    name("actions"),
    "Actions Rasa asked the action server to run, by action and outcome "
    "(ok, rejected, not_found, error)",
    ["action", "outcome"],
)
ACTION_SECONDS = Histogram(
    name("action_duration_seconds"),
    "How long an action took to run, by action",
    ["action"],
    buckets=ACTION_BUCKETS,
)


class MeasuredExecutor(ActionExecutor):  # type: ignore[misc]  # rasa-sdk ships no types
    """rasa-sdk's executor, counting each run by the action's name and outcome."""

    async def run(self, action_call: Any) -> dict[str, Any] | None:
        asked = action_call.get("next_action") if isinstance(action_call, dict) else None
        action = asked if isinstance(asked, str) and asked in self.actions else UNKNOWN
        outcome = "error"
        started = time.perf_counter()
        try:
            result: dict[str, Any] | None = await super().run(action_call)
            outcome = "ok"
            return result
        except ActionExecutionRejection:
            outcome = "rejected"
            raise
        except ActionNotFoundException:
            outcome = "not_found"
            raise
        finally:
            ACTION_SECONDS.labels(action).observe(time.perf_counter() - started)
            ACTIONS.labels(action, outcome).inc()


def add_metrics_route(app: Sanic, token: str | None, multiprocess_dir: str | None) -> None:
    """``GET /metrics`` behind ``METRICS_TOKEN`` (``kernel/metrics.py``), every worker's counts."""

    async def metrics(request: Request) -> HTTPResponse:
        refused = refusal(token, request.headers.get("authorization"))
        if refused is not None:
            return response.json(refused.body(), status=refused.status, headers=refused.headers)
        return response.raw(exposition(multiprocess_dir), content_type=CONTENT_TYPE)

    app.add_route(metrics, METRICS_PATH, methods=["GET"], name="metrics")
