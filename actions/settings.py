"""The action server's configuration, from environment variables, with defaults that work locally.

Every variable the answering side of the content runtime reads is read here and nowhere else
(the admin API has its own, ``actions/admin/settings.py``, the notifier and its helpdesk
sender theirs, ``actions/alerts/notifier_settings.py``). All of them raise this module's
``SettingsError``, the one of ``kernel/settings_values.py``, which reads numbers and durations
for both runtimes:

``SANIC_HOST`` (default ``127.0.0.1``), ``ACTION_SERVER_SECRET`` (default: unset)
    The interface the action server binds to (rasa-sdk's own variable, whose default there is
    every interface) and the secret Rasa sends with each call (``actions/server.py``). Read
    when the action server starts; an address other machines can reach without a secret stops
    the start.
``METRICS_TOKEN`` (unset), ``ACTION_SERVER_SANIC_WORKERS`` (``1``), ``PROMETHEUS_MULTIPROC_DIR``
    The bearer token ``/metrics`` answers (read by every process; ``kernel/settings.py``), and,
    with several workers, the empty directory where they keep their counts (``kernel/metrics.py``);
    several workers without it stop the start.

``CONTENT_DB_URL``
    The content database (default: the SQLite file ``var/content.db``). Read on every use, so
    that a process (or a test) pointed at another database uses it from the next answer on.
``CONTENT_FRESHNESS_AIRPORT`` (``2h``), ``CONTENT_FRESHNESS_FLIGHTS`` (``6h``),
``CONTENT_FRESHNESS_ANNOUNCEMENTS`` (``72h``), ``CONTENT_FRESHNESS_GUIDANCE`` (``14d``),
``CONTENT_FRESHNESS_CONTACTS`` (``14d``), ``CONTENT_FRESHNESS_CLAIMS`` (``24h``),
``CONTENT_FRESHNESS_ANSWERS`` (``3d``)
    How long after an editor last checked a fact an answer still presents it without a warning
    that it may be out of date (it is still shown until its ``valid_until``). Airport and gate
    states change within hours in a crisis, flights within a day, advice and help lines slowly.
    A rumour's verdict is re-checked daily: what was false yesterday may be true today; an
    editor's answer (a border, a bank, a programme) every few days.
    A duration is whole numbers with units ``d``, ``h``, ``m``: ``90m``, ``2h``, ``1h30m``,
    ``14d`` (``kernel/settings_values.py`` reads durations for both runtimes). Read when the
    action server starts (each action reads them once when it is created), so a wrong value
    stops the start with a message naming the variable.
``ALERT_SUBSCRIPTION_TTL`` (default ``30d``)
    How long a subscription, and the sealed address it needs, is kept after the user last
    subscribed; subscribing again renews it. An evacuation lasts weeks, not months.
``CONVERSATION_RETENTION`` (default ``7d``)
    Conversations (tracker events) and finished alert deliveries older than this are deleted
    by the retention command (``python -m actions.alerts purge``, run hourly by the notifier);
    so are cases handed to caseworkers nothing was written to for this long.
``CLOSED_CASE_RETENTION`` (default: ``CONVERSATION_RETENTION``)
    A closed case's transcript is deleted this long after it closed; a longer value than
    ``CONVERSATION_RETENTION`` counts as that.
``WHATSAPP_ALERT_TEMPLATE`` (default ``evacuation_alert``)
    The approved WhatsApp message template used for an alert to someone who has not written
    in the last 24 hours (WhatsApp allows free text only inside that window). Its body must
    have one parameter, ``{{1}}``, that receives the alert text; create it in each language
    (``fa`` for Dari, ``ps``, ``en``) in WhatsApp Manager (docs/DATA_PROTECTION.md).
``WHATSAPP_CASE_REPLY_TEMPLATE`` (default ``caseworker_reply``)
    The same for a caseworker's reply to someone who has not written for 24 hours: one
    parameter, ``{{1}}``, receives the reply (docs/HANDOFF.md).
``CASE_WEBHOOK_URL`` (default: unset), ``CASE_WEBHOOK_WEBCHAT_PER_MINUTE`` (default ``10``)
    A helpdesk's address that receives the case lifecycle, and how many web chat cases a
    minute it is told of at once; parsed by ``kernel/case_events.py``, which both runtimes share
    (Rasa queues the person's messages too), with the notifier's ``CASE_WEBHOOK_SECRET`` … in
    ``actions/alerts/notifier_settings.py`` (docs/HANDOFF.md). Read here on every case change
    (a case opened, taken, closed, a reply written), like ``CONTENT_DB_URL``; a malformed URL
    is logged and queues nothing.
``RASA_URL`` (default ``http://127.0.0.1:5005``), ``RASA_API_TOKEN`` (default: unset)
    Rasa's HTTP API (the Rasa servers' load balancer) and the token Rasa runs with: the
    notifier sends alerts and caseworkers' replies through it, the console hands a closed
    case's conversation back through it (``actions/common/rasa_api.py``). Read once, here, for
    both.
``EMERGENCY_HOTLINE`` (default: unset)
    A number people can call when the content database cannot be read, with who answers, e.g.
    ``+93 700 000 100 (Kabul Aid Network)``. The hotlines users are normally given live in that
    database; with this set, the apology for a database that is down or too slow names this
    one (``utter_content_unavailable_hotline``), without it the apology names none. Read when
    the action server starts; a value without a digit stops the start.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, fields, replace
from datetime import timedelta

from kernel import case_events
from kernel.metrics import workers_without_dir
from kernel.settings import metrics_dir, metrics_token
from kernel.settings_values import SettingsError, duration_setting, parse_duration, whole_number

__all__ = [
    "ActionServerSettings",
    "FreshnessLimits",
    "RasaSettings",
    "SettingsError",
    "parse_duration",
]

CONTENT_DB_URL = "CONTENT_DB_URL"
FRESHNESS_PREFIX = "CONTENT_FRESHNESS_"
EMERGENCY_HOTLINE = "EMERGENCY_HOTLINE"
ALERT_SUBSCRIPTION_TTL = "ALERT_SUBSCRIPTION_TTL"
CONVERSATION_RETENTION = "CONVERSATION_RETENTION"
CLOSED_CASE_RETENTION = "CLOSED_CASE_RETENTION"
WHATSAPP_ALERT_TEMPLATE = "WHATSAPP_ALERT_TEMPLATE"
WHATSAPP_CASE_REPLY_TEMPLATE = "WHATSAPP_CASE_REPLY_TEMPLATE"
RASA_URL, RASA_API_TOKEN = "RASA_URL", "RASA_API_TOKEN"
DEFAULT_RASA_URL = "http://127.0.0.1:5005"
ACTION_SERVER_SECRET = "ACTION_SERVER_SECRET"
#: rasa-sdk's own variable for the interface it binds to.
SANIC_HOST = "SANIC_HOST"
DEFAULT_ACTION_SERVER_HOST = "127.0.0.1"
#: rasa-sdk's own variable for its Sanic workers.
ACTION_SERVER_WORKERS = "ACTION_SERVER_SANIC_WORKERS"


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach ``host``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class ActionServerSettings:
    """Where the action server listens, the secret every call must carry, and who may read
    its ``/metrics``."""

    host: str = DEFAULT_ACTION_SERVER_HOST
    #: None only on a loopback-only server (local development).
    secret: str | None = None
    #: ``METRICS_TOKEN``; None: ``/metrics`` answers nobody.
    metrics_token: str | None = None
    #: ``ACTION_SERVER_SANIC_WORKERS`` (rasa-sdk's), and their shared count files
    #: (``PROMETHEUS_MULTIPROC_DIR``), needed when there are several (``kernel/metrics.py``).
    workers: int = 1
    metrics_dir: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> ActionServerSettings:
        """``SANIC_HOST``, ``ACTION_SERVER_SECRET``, ``METRICS_TOKEN``,
        ``ACTION_SERVER_SANIC_WORKERS`` and ``PROMETHEUS_MULTIPROC_DIR``; SettingsError when
        the server would be reachable from other machines without a secret, or when several
        workers would count apart."""
        secret = environ.get(ACTION_SERVER_SECRET, "").strip() or None
        workers = whole_number(environ, ACTION_SERVER_WORKERS, 1)
        directory = metrics_dir(environ)
        problem = workers_without_dir(workers, directory, ACTION_SERVER_WORKERS)
        if problem:
            raise SettingsError(problem)
        host = environ.get(SANIC_HOST, DEFAULT_ACTION_SERVER_HOST)
        if secret is None and not is_loopback(host):
            raise SettingsError(
                f"{SANIC_HOST}={host} makes the action server reachable from other machines: "
                f"set {ACTION_SERVER_SECRET} (the same value for Rasa, endpoints.yml sends it) "
                "or bind to 127.0.0.1"
            )
        return cls(
            host=host,
            secret=secret,
            metrics_token=metrics_token(environ),
            workers=workers,
            metrics_dir=directory,
        )

    def hand_to_rasa_sdk(self, environ: MutableMapping[str, str] = os.environ) -> None:
        """rasa-sdk reads ``SANIC_HOST`` itself, with every interface as its default: give it
        this host (127.0.0.1 when the operator set none)."""
        environ[SANIC_HOST] = self.host


@dataclass(frozen=True)
class RasaSettings:
    """Where Rasa's HTTP API is and the token it wants, for everything that triggers an intent
    there (the notifier, the console's hand-back)."""

    url: str = DEFAULT_RASA_URL
    token: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> RasaSettings:
        """``RASA_URL`` without a trailing slash, ``RASA_API_TOKEN`` or None."""
        return cls(
            url=(environ.get(RASA_URL, "").strip() or DEFAULT_RASA_URL).rstrip("/"),
            token=environ.get(RASA_API_TOKEN, "").strip() or None,
        )


@dataclass(frozen=True)
class FreshnessLimits:
    """Per kind of fact, how long after its last check it is shown without a warning."""

    airport: timedelta = timedelta(hours=2)  # airport status and gates
    flights: timedelta = timedelta(hours=6)
    announcements: timedelta = timedelta(hours=72)
    guidance: timedelta = timedelta(days=14)  # documents and who may board
    contacts: timedelta = timedelta(days=14)
    claims: timedelta = timedelta(hours=24)  # rumours' verdicts
    answers: timedelta = timedelta(days=3)  # editors' answers to people's questions

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> FreshnessLimits:
        """The defaults, each overridden by ``CONTENT_FRESHNESS_<KIND>`` when that is set."""
        overrides = {}
        for field in fields(cls):
            name = f"{FRESHNESS_PREFIX}{field.name.upper()}"
            raw = environ.get(name, "").strip()
            if raw:
                overrides[field.name] = parse_duration(name, raw)
        return replace(cls(), **overrides)


def content_db_url(environ: Mapping[str, str] = os.environ) -> str | None:
    """``CONTENT_DB_URL`` if set (db.py supplies the local default)."""
    return environ.get(CONTENT_DB_URL, "").strip() or None


def emergency_hotline(environ: Mapping[str, str] = os.environ) -> str | None:
    """``EMERGENCY_HOTLINE`` on one line, or None if unset; SettingsError if it has no number."""
    raw = " ".join(environ.get(EMERGENCY_HOTLINE, "").split())
    if not raw:
        return None
    if not any(character.isdigit() for character in raw):
        raise SettingsError(
            f"{EMERGENCY_HOTLINE} is {raw!r}; give a number to call, "
            "e.g. '+93 700 000 100 (Kabul Aid Network)'"
        )
    return raw


def subscription_ttl(environ: Mapping[str, str] = os.environ) -> timedelta:
    """``ALERT_SUBSCRIPTION_TTL``: how long a subscription and its address are kept."""
    return duration_setting(environ, ALERT_SUBSCRIPTION_TTL, timedelta(days=30))


def conversation_retention(environ: Mapping[str, str] = os.environ) -> timedelta:
    """``CONVERSATION_RETENTION``: how long a conversation is kept after its last message."""
    return duration_setting(environ, CONVERSATION_RETENTION, timedelta(days=7))


def closed_case_retention(environ: Mapping[str, str] = os.environ) -> timedelta:
    """``CLOSED_CASE_RETENTION``: how long a closed case's transcript is kept after it closed;
    never longer than ``CONVERSATION_RETENTION`` (the default), however it is set."""
    longest = conversation_retention(environ)
    return min(duration_setting(environ, CLOSED_CASE_RETENTION, longest), longest)


def whatsapp_alert_template(environ: Mapping[str, str] = os.environ) -> str:
    """``WHATSAPP_ALERT_TEMPLATE``: the approved template for alerts outside the 24 h window."""
    return environ.get(WHATSAPP_ALERT_TEMPLATE, "").strip() or "evacuation_alert"


def whatsapp_case_reply_template(environ: Mapping[str, str] = os.environ) -> str:
    """``WHATSAPP_CASE_REPLY_TEMPLATE``: the approved template for a caseworker's reply outside
    the 24 h window."""
    return environ.get(WHATSAPP_CASE_REPLY_TEMPLATE, "").strip() or "caseworker_reply"


def case_events_published(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether case changes queue events for a helpdesk (``CASE_WEBHOOK_URL`` set and usable)."""
    return case_events.publishing(environ)


def webchat_cases_per_minute(environ: Mapping[str, str] = os.environ) -> int:
    """``CASE_WEBHOOK_WEBCHAT_PER_MINUTE``: web chat cases a minute a helpdesk is told of."""
    return case_events.webchat_per_minute(environ)
