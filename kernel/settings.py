"""What Rasa's process reads from its environment, outside the channel connectors: one reader
per variable, with its default, each parsed by ``kernel/settings_values.py`` (one syntax, one
``SettingsError`` naming the variable).

Nothing is read at import: a component calls its reader when it is constructed (the policy when
Rasa loads the model, the tracker store when Rasa creates it, the server's hardening before it
serves), so a wrong value stops the start with a sentence instead of failing a person's turn.
Standard library only, like ``kernel/settings_values.py``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Final

from kernel import case_events
from kernel.alert_rates import DEFAULT_RATES, OTHER_RATE
from kernel.settings_values import duration_setting, fraction, positive_number, whole_number

#: How long a conversation is kept after its last message (``7d``, ``36h``, ``1d12h``).
CONVERSATION_RETENTION: Final = "CONVERSATION_RETENTION"
DEFAULT_RETENTION: Final = timedelta(days=7)
#: The embedded profile's in-memory tracker store: how many conversations it holds at most
#: (the least recently active go first, never one a caseworker holds), and how long one that
#: never got past its first message is kept.
MEMORY_CONVERSATIONS: Final = "MEMORY_CONVERSATIONS"
DEFAULT_MEMORY_CONVERSATIONS: Final = 10_000
ONE_MESSAGE_RETENTION: Final = "ONE_MESSAGE_RETENTION"
#: The SQL tracker store: conversations each Rasa worker keeps the session's events of, so a
#: turn reads only the rows stored since (``bot/session_snapshots.py``).
TRACKER_SNAPSHOTS: Final = "TRACKER_SNAPSHOTS"
DEFAULT_TRACKER_SNAPSHOTS: Final = 2000
DEFAULT_ONE_MESSAGE_RETENTION: Final = timedelta(hours=1)
#: Minutes a follow-up still inherits the topic and details of the questions before it (a
#: fraction too: ``0.2`` is twelve seconds, which lets a test watch the memory lapse).
CONVERSATION_MEMORY_MINUTES: Final = "CONVERSATION_MEMORY_MINUTES"
DEFAULT_MEMORY: Final = timedelta(minutes=30)
#: Below this identifier confidence a message does not switch the conversation's language:
#: a short "ok" must not flip a Pashto conversation into English.
LANGUAGE_FOLLOW_CONFIDENCE: Final = "LANGUAGE_FOLLOW_CONFIDENCE"
DEFAULT_FOLLOW_CONFIDENCE: Final = 0.7
#: The token of Rasa's HTTP API (never on the command line, where ``ps`` shows it).
RASA_API_TOKEN: Final = "RASA_API_TOKEN"
#: The endpoints file Rasa was started with, for the retention run outside it.
RASA_ENDPOINTS: Final = "RASA_ENDPOINTS"
#: The key of the keyed hashes that stand for addresses (``bot/channels/identity.py``): the
#: same in every worker and on every machine, or one person becomes several conversations.
CONVERSATION_ID_KEY: Final = "CONVERSATION_ID_KEY"
#: Rasa's Sanic worker processes; each sends its share of a channel's alert rate.
SANIC_WORKERS: Final = "SANIC_WORKERS"
#: Who may read ``/metrics`` on every process (``kernel/metrics.py``), and where several workers of
#: one server keep their counts (prometheus_client's own variable, read by it at import).
METRICS_TOKEN: Final = "METRICS_TOKEN"
PROMETHEUS_MULTIPROC_DIR: Final = "PROMETHEUS_MULTIPROC_DIR"
#: The content database, shared with the content runtime (``kernel/contentdb/engines.py`` turns
#: it into this runtime's driver and supplies the local default).
CONTENT_DB_URL: Final = "CONTENT_DB_URL"


def conversation_retention(environ: Mapping[str, str] = os.environ) -> timedelta:
    """``CONVERSATION_RETENTION``, default 7 days."""
    return duration_setting(environ, CONVERSATION_RETENTION, DEFAULT_RETENTION)


def memory_conversations(environ: Mapping[str, str] = os.environ) -> int:
    """``MEMORY_CONVERSATIONS``, default 10,000 (about 180 MB of Rasa's memory)."""
    return whole_number(environ, MEMORY_CONVERSATIONS, DEFAULT_MEMORY_CONVERSATIONS)


def session_snapshots(environ: Mapping[str, str] = os.environ) -> int:
    """``TRACKER_SNAPSHOTS``, default 2,000 conversations per Rasa worker."""
    return whole_number(environ, TRACKER_SNAPSHOTS, DEFAULT_TRACKER_SNAPSHOTS)


def one_message_retention(environ: Mapping[str, str] = os.environ) -> timedelta:
    """``ONE_MESSAGE_RETENTION``, default 1 hour."""
    return duration_setting(environ, ONE_MESSAGE_RETENTION, DEFAULT_ONE_MESSAGE_RETENTION)


def conversation_memory(environ: Mapping[str, str] = os.environ) -> timedelta:
    """``CONVERSATION_MEMORY_MINUTES``, default 30."""
    default = DEFAULT_MEMORY.total_seconds() / 60
    return timedelta(minutes=positive_number(environ, CONVERSATION_MEMORY_MINUTES, default))


def language_follow_confidence(environ: Mapping[str, str] = os.environ) -> float:
    """``LANGUAGE_FOLLOW_CONFIDENCE``, from 0 to 1, default 0.7."""
    return fraction(environ, LANGUAGE_FOLLOW_CONFIDENCE, DEFAULT_FOLLOW_CONFIDENCE)


def api_token(environ: Mapping[str, str] = os.environ) -> str | None:
    """``RASA_API_TOKEN``, or None when unset (then the HTTP API takes no token at all)."""
    return environ.get(RASA_API_TOKEN) or None


def conversation_id_key(environ: Mapping[str, str] = os.environ) -> bytes | None:
    """``CONVERSATION_ID_KEY`` as bytes, or None when unset or blank."""
    configured = environ.get(CONVERSATION_ID_KEY, "")
    return configured.encode() if configured.strip() else None


def sanic_workers(environ: Mapping[str, str] = os.environ) -> int:
    """``SANIC_WORKERS``, a whole number above zero, default 1."""
    return whole_number(environ, SANIC_WORKERS, 1)


def metrics_token(environ: Mapping[str, str] = os.environ) -> str | None:
    """``METRICS_TOKEN``, or None when unset or blank (then ``/metrics`` answers nobody).
    Read by every process of both runtimes."""
    return environ.get(METRICS_TOKEN, "").strip() or None


def metrics_dir(environ: Mapping[str, str] = os.environ) -> str | None:
    """``PROMETHEUS_MULTIPROC_DIR``, or None: the workers' shared count files."""
    return environ.get(PROMETHEUS_MULTIPROC_DIR, "").strip() or None


def unset_variables(names: Iterable[str], environ: Mapping[str, str] = os.environ) -> set[str]:
    """Those of ``names`` whose variable is unset or blank."""
    return {name for name in names if not environ.get(name, "").strip()}


def alert_rate(channel: str, environ: Mapping[str, str] = os.environ) -> float:
    """Alerts a second for ``channel`` (``ALERT_RATE_<CHANNEL>``, else ``kernel/alert_rates.py``'s
    default): read by the notifier and by Rasa's alert channels alike."""
    default = DEFAULT_RATES.get(channel, OTHER_RATE)
    return positive_number(environ, f"ALERT_RATE_{channel.upper()}", default)


def endpoints_file(environ: Mapping[str, str] = os.environ) -> str:
    """``RASA_ENDPOINTS``, default ``endpoints.yml``."""
    return environ.get(RASA_ENDPOINTS) or "endpoints.yml"


def content_db_url(environ: Mapping[str, str] = os.environ) -> str | None:
    """``CONTENT_DB_URL`` as written, or None when unset (then the local SQLite file)."""
    return environ.get(CONTENT_DB_URL, "").strip() or None


def publishes_case_events(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether a helpdesk gets case events (``CASE_WEBHOOK_URL``, ``kernel/case_events.py``): the
    tracker store then queues the person's messages too. A malformed URL is logged, not
    raised: the person's message matters more."""
    return case_events.publishing(environ)
