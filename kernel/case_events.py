"""The case lifecycle as a helpdesk sees it: event types, their JSON, and whether they are sent.

Organisations that already run a helpdesk (Zendesk, Chatwoot, Zammad bridges) get each case's
``case.opened``, ``case.message``, ``case.taken`` and ``case.closed`` as signed HTTP POSTs to
``CASE_WEBHOOK_URL`` (docs/HANDOFF.md, "Helpdesk webhooks"). Events are written in the same
transaction as the change they describe — by the action server (a case opens), the admin server
(taken, closed) and Rasa's tracker store (the person's messages) — and sent by the notifier.

Standard library only: both runtimes build the same JSON with this module. A payload names the
case by its own number, never by the conversation id or an address. The variables are parsed
here for both runtimes and read by their settings modules (``kernel/settings.py``,
``actions/settings.py``, ``actions/alerts/notifier_settings.py``).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta, timezone
from typing import Any, Final
from urllib.parse import urlsplit

from kernel.settings_values import SettingsError, whole_number

URL_ENV: Final = "CASE_WEBHOOK_URL"
SECRET_ENV: Final = "CASE_WEBHOOK_SECRET"
#: The payload's ``schema``; a receiver checks it and refuses what it does not know.
SCHEMA: Final = "case-event/1"

OPENED: Final = "case.opened"
MESSAGE: Final = "case.message"
TAKEN: Final = "case.taken"
CLOSED: Final = "case.closed"
#: More web chat cases opened within a minute than ``WEBCHAT_PER_MINUTE_ENV`` allows: the rest
#: of that minute's are announced only when a caseworker takes one (docs/HANDOFF.md).
SURGE: Final = "case.surge"
#: The person asked us to delete their data: the case and every line of it are gone here, and
#: the helpdesk is asked to delete its copy (docs/HANDOFF.md).
DELETED: Final = "case.deleted"
EVENT_TYPES: Final = (OPENED, MESSAGE, TAKEN, CLOSED, SURGE, DELETED)

#: Channels on which anyone can open any number of conversations without a phone number or
#: chat id (the REST channel is not served in production, credentials.channels.yml); the
#: others cost an address each.
ANONYMOUS_CHANNELS: Final = frozenset({"webchat", "rest"})
#: Cases a minute on those channels whose events a helpdesk gets at once.
WEBCHAT_PER_MINUTE_ENV: Final = "CASE_WEBHOOK_WEBCHAT_PER_MINUTE"
DEFAULT_WEBCHAT_PER_MINUTE: Final = 10

#: Kabul has kept UTC+04:30 all year since 1945.
KABUL: Final = timezone(timedelta(hours=4, minutes=30), "Asia/Kabul")
_PRIORITIES: Final = {0: "normal", 1: "urgent"}

logger = logging.getLogger(__name__)


def webhook_url(environ: Mapping[str, str]) -> str | None:
    """``CASE_WEBHOOK_URL``, or None when unset (then no event is queued at all); a
    SettingsError saying what to write when it is set but unusable."""
    raw = environ.get(URL_ENV, "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingsError(
            f"{URL_ENV} is {raw!r}; give the helpdesk's address, e.g. "
            "https://helpdesk.example.org/hooks/cases"
        )
    return raw


def webchat_per_minute(environ: Mapping[str, str]) -> int:
    """``CASE_WEBHOOK_WEBCHAT_PER_MINUTE``: a whole number above zero, default 10."""
    return whole_number(environ, WEBCHAT_PER_MINUTE_ENV, DEFAULT_WEBCHAT_PER_MINUTE)


def publishing(environ: Mapping[str, str]) -> bool:
    """Whether case events are queued: only when a helpdesk is configured to receive them.

    A malformed URL queues nothing and is logged, never raised: the change it would describe (a
    case, a person's message) matters more; the notifier logs it too, and sends no events.
    """
    try:
        return webhook_url(environ) is not None
    except SettingsError as error:
        logger.error("no case events are queued: %s", error)
        return False


def _plain(value: Any) -> Any:
    """An enum member's value (the content runtime's statuses), anything else as it is."""
    return getattr(value, "value", value)


def moment(at: datetime) -> dict[str, str]:
    """A time as both UTC and Kabul time, to the second: what a caseworker and a log need."""
    if at.tzinfo is None or at.utcoffset() is None:
        raise ValueError("case event times must be timezone-aware")
    at = at.replace(microsecond=0)
    return {
        "utc": at.astimezone(timezone.utc).isoformat().replace("+00:00", "Z"),
        "kabul": at.astimezone(KABUL).isoformat(),
    }


def new_event_id() -> str:
    """A receiver de-duplicates on this: a retried event keeps its id."""
    return str(uuid.uuid4())


def payload(
    *,
    event_id: str,
    event_type: str,
    occurred_at: datetime,
    case: Mapping[str, Any],
    organisation: str | None,
    message: Mapping[str, Any] | None = None,
    surge: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The event's JSON object (docs/HANDOFF.md documents every field).

    ``case`` holds the case row's ``id``, ``status``, ``language``, ``channel``, ``priority``,
    ``opened_at``, ``taken_by``, ``taken_at`` and ``closed_at``; ``message`` (``case.message``
    only) its ``author``, ``text`` and ``written_at``; ``surge`` (``case.surge`` only) the
    ``channel`` and its ``per_minute`` limit.
    """
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown case event {event_type!r}")
    if (message is None) == (event_type == MESSAGE):
        raise ValueError("a case.message event, and only that one, carries a message")

    def when(name: str) -> dict[str, str] | None:
        value = case.get(name)
        return None if value is None else moment(value)

    body: dict[str, Any] = {
        "schema": SCHEMA,
        "event_id": event_id,
        "type": event_type,
        "occurred_at": moment(occurred_at),
        "case": {
            "id": int(case["id"]),
            "status": str(_plain(case["status"])),
            "language": str(case["language"]),
            "channel": str(case["channel"]),
            "priority": _PRIORITIES.get(int(_plain(case["priority"])), "urgent"),
            "organisation": organisation,
            "opened_at": when("opened_at"),
            "taken_by": case.get("taken_by"),
            "taken_at": when("taken_at"),
            "closed_at": when("closed_at"),
        },
    }
    if surge is not None:
        body["surge"] = dict(surge)
    if message is not None:
        body["message"] = {
            "author": str(_plain(message["author"])),
            "text": str(message["text"]),
            "written_at": moment(message["written_at"]),
        }
    return body


def encode(body: Mapping[str, Any]) -> str:
    """The exact text that is stored, signed and sent (UTF-8, Dari and Pashto unescaped)."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
