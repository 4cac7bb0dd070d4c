"""``/metrics`` in Prometheus text format, the same way on every process: who may read it, how
the text is made, and how several workers of one server add up.

Shared by both runtimes (Rasa, the action server, the notifier, the admin server): standard
library and ``prometheus_client`` only, no web framework. Each process's server gives this
module the ``Authorization`` header and sends back what it answers.

**Who may read it: ``METRICS_TOKEN``.** Rasa serves people's webhooks on its public port, so
``/metrics`` cannot rely on the interface it is bound to; every process therefore answers
``/metrics`` only to ``Authorization: Bearer <METRICS_TOKEN>`` (compared in constant time).
Without the variable the route is closed (403, naming it): nothing is readable by default, and
turning metrics on is one secret in the environment. What the metrics say is not personal (no
conversation id, no number, no text: labels are channel, language, outcome, action name), but
the volume of messages per channel during an evacuation is nobody else's business.

**Several workers: ``PROMETHEUS_MULTIPROC_DIR``.** With ``SANIC_WORKERS`` (Rasa) or
``ACTION_SERVER_SANIC_WORKERS`` above 1 each scrape reaches one worker at random; its own
counts alone would jump up and down between scrapes. prometheus_client's multiprocess mode
keeps each worker's values in a file of that directory and sums them at scrape time
(``exposition``). The variable must be set in the server's environment before it starts (the
library reads it at import); the server empties the directory before its workers start
(``clear_worker_files``), and refuses several workers without it (``workers_without_dir``).
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import Metric
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

#: Every metric of this project begins with it (the editor tokens' ``eia_`` too).
NAMESPACE: Final = "eia"
METRICS_PATH: Final = "/metrics"
#: The classic text format, what ``generate_latest`` writes and every Prometheus reads.
CONTENT_TYPE: Final = CONTENT_TYPE_PLAIN_0_0_4
TOKEN_ENV: Final = "METRICS_TOKEN"
MULTIPROCESS_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"
#: Seconds: a chat turn is 50 ms to a few seconds; an action 2 ms to a slow database's 5 s.
TURN_BUCKETS: Final = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)
ACTION_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Refusal:
    """Why ``/metrics`` was not answered: the status, the JSON error and the headers."""

    def __init__(self, status: int, error: str, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.error = error
        self.headers = headers or {}

    def body(self) -> dict[str, str]:
        return {"error": self.error}


def refusal(token: str | None, authorization: str | None) -> Refusal | None:
    """None when ``authorization`` carries ``Bearer <token>``; else why not: 403 when no
    token is configured (metrics are closed), 401 for a missing or wrong one."""
    if not token:
        return Refusal(403, f"metrics are closed: set {TOKEN_ENV} (docs/OPERATIONS.md)")
    scheme, _, given = (authorization or "").partition(" ")
    expected = token.encode("utf-8", "surrogatepass")
    if scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode("utf-8", "surrogatepass"), expected
    ):
        return None
    return Refusal(401, f"missing or wrong {TOKEN_ENV}", {"WWW-Authenticate": "Bearer"})


class _Families(Collector):
    """Metric families read just before this scrape (the intake's line), as a collector."""

    def __init__(self, families: Iterable[Metric]) -> None:
        self._families = list(families)

    def collect(self) -> Iterator[Metric]:
        return iter(self._families)


def exposition(multiprocess_dir: str | None, now: Iterable[Metric] = ()) -> bytes:
    """The text Prometheus reads: this process's metrics, or every worker's summed when
    ``multiprocess_dir`` is set, followed by ``now`` (gauges read at scrape time)."""
    if multiprocess_dir:
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=multiprocess_dir)  # type: ignore[no-untyped-call]
        text = generate_latest(registry)
    else:
        text = generate_latest(REGISTRY)
    families = list(now)
    if families:
        extra = CollectorRegistry()
        extra.register(_Families(families))
        text += generate_latest(extra)
    return text


def clear_worker_files(multiprocess_dir: str | None) -> None:
    """Empties the directory of the workers' files before they start: files of a run before
    (whose process ids may come again) would be added to this run's counts."""
    if not multiprocess_dir:
        return
    folder = Path(multiprocess_dir)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.db"):
        stale.unlink(missing_ok=True)


def workers_without_dir(workers: int, multiprocess_dir: str | None, variable: str) -> str | None:
    """Why ``workers`` workers cannot serve metrics without ``PROMETHEUS_MULTIPROC_DIR``, or
    None: each scrape would read one worker's counts only."""
    if workers <= 1 or multiprocess_dir:
        return None
    return (
        f"{variable} is {workers}, but {MULTIPROCESS_ENV} is not set: /metrics must add up "
        "every worker's counts (an empty directory of its own, docs/OPERATIONS.md)"
    )


def name(*parts: str) -> str:
    """A metric's full name: ``eia_<parts>``."""
    return "_".join((NAMESPACE, *parts))


__all__ = [
    "ACTION_BUCKETS",
    "CONTENT_TYPE",
    "METRICS_PATH",
    "MULTIPROCESS_ENV",
    "TOKEN_ENV",
    "TURN_BUCKETS",
    "Refusal",
    "clear_worker_files",
    "exposition",
    "name",
    "refusal",
    "workers_without_dir",
]
