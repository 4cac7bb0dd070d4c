"""The notifier's configuration, from environment variables, with defaults that work locally
(README "Alerts", docs/OPERATIONS.md), and that of the helpdesk's case events it sends beside
the alerts (``actions/cases/webhook_sender.py``). Read once when the notifier starts. A wrong
value stops the notifier with a ``SettingsError`` naming the variable
(``actions/settings.py``); a wrong helpdesk setting only leaves the case events out."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from actions.settings import RasaSettings
from kernel import case_events
from kernel.alert_rates import DEFAULT_RATES
from kernel.settings import alert_rate, metrics_token
from kernel.settings_values import positive_number, whole_number

#: Where the notifier serves ``/metrics`` (``actions/common/metrics_http.py``): this machine
#: only by default, and only with ``METRICS_TOKEN`` set.
NOTIFIER_METRICS_HOST = "NOTIFIER_METRICS_HOST"
NOTIFIER_METRICS_PORT = "NOTIFIER_METRICS_PORT"

#: The helpdesk's case events (docs/HANDOFF.md): how often an event is tried, and how often the
#: queue is looked at.
CASE_WEBHOOK_MAX_ATTEMPTS = "CASE_WEBHOOK_MAX_ATTEMPTS"
CASE_WEBHOOK_POLL_SECONDS = "CASE_WEBHOOK_POLL_SECONDS"


@dataclass(frozen=True)
class NotifierSettings:
    """How fast, how often and where the notifier sends alerts and caseworkers' replies."""

    rasa: RasaSettings = field(default_factory=RasaSettings)
    rates: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_RATES))
    per_conversation_interval: float = 1.0
    concurrency: int = 16
    max_attempts: int = 6
    backoff_seconds: float = 5.0
    max_backoff_seconds: float = 900.0
    claim_lease_seconds: float = 60.0
    poll_seconds: float = 1.0
    purge_every_seconds: float = 3600.0
    request_timeout_seconds: float = 30.0
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 5057
    #: ``METRICS_TOKEN``; None: no metrics server at all.
    metrics_token: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> NotifierSettings:
        rates = {channel: alert_rate(channel, environ) for channel in DEFAULT_RATES}
        return cls(
            metrics_host=environ.get(NOTIFIER_METRICS_HOST, "").strip() or cls.metrics_host,
            metrics_port=whole_number(environ, NOTIFIER_METRICS_PORT, cls.metrics_port),
            metrics_token=metrics_token(environ),
            rasa=RasaSettings.from_env(environ),
            rates=rates,
            concurrency=whole_number(environ, "ALERT_CONCURRENCY", cls.concurrency),
            max_attempts=whole_number(environ, "ALERT_MAX_ATTEMPTS", cls.max_attempts),
            backoff_seconds=positive_number(environ, "ALERT_BACKOFF_SECONDS", cls.backoff_seconds),
            claim_lease_seconds=positive_number(
                environ, "ALERT_CLAIM_LEASE", cls.claim_lease_seconds
            ),
            poll_seconds=positive_number(environ, "ALERT_POLL_SECONDS", cls.poll_seconds),
        )


@dataclass(frozen=True)
class WebhookSettings:
    """Where and how the helpdesk's case events are posted (README, "For organisations")."""

    url: str
    secret: str | None = None
    max_attempts: int = 20
    backoff_seconds: float = 5.0
    max_backoff_seconds: float = 900.0
    claim_lease_seconds: float = 60.0
    poll_seconds: float = 1.0
    timeout_seconds: float = 10.0
    batch: int = 16

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> WebhookSettings | None:
        """None without ``CASE_WEBHOOK_URL``: then no helpdesk is told anything;
        ``SettingsError`` naming the variable when one cannot be used."""
        url = case_events.webhook_url(environ)  # raises the one SettingsError
        if url is None:
            return None
        return cls(
            url=url,
            secret=environ.get(case_events.SECRET_ENV, "").strip() or None,
            max_attempts=whole_number(environ, CASE_WEBHOOK_MAX_ATTEMPTS, cls.max_attempts),
            poll_seconds=positive_number(environ, CASE_WEBHOOK_POLL_SECONDS, cls.poll_seconds),
        )
