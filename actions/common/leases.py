"""What both outboxes of the notifier process share: a row is claimed with a lease, taken back
when the lease ends (its sender stopped), and retried with backoff until it is given up.

The alerts' and caseworkers' replies' outbox (``actions/common/outbox.py``) and the
helpdesk's case events (``actions/cases/webhook_sender.py``) use these rules; what differs
between them is said there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import Select, and_, select
from sqlalchemy.sql.elements import ColumnElement


class RetrySettings(Protocol):
    """The settings of a sender that say how it retries (the notifier's, the helpdesk's)."""

    @property
    def max_attempts(self) -> int: ...
    @property
    def backoff_seconds(self) -> float: ...
    @property
    def max_backoff_seconds(self) -> float: ...
    @property
    def claim_lease_seconds(self) -> float: ...


@dataclass(frozen=True)
class Retries:
    """How long a claim holds, and how a failed row is tried again."""

    max_attempts: int
    backoff_seconds: float
    max_backoff_seconds: float
    claim_lease_seconds: float

    @classmethod
    def of(cls, settings: RetrySettings) -> Retries:
        return cls(
            settings.max_attempts,
            settings.backoff_seconds,
            settings.max_backoff_seconds,
            settings.claim_lease_seconds,
        )

    def lease_ended(self, table: Any, sending: Any, now: datetime) -> ColumnElement[bool]:
        """Rows of ``table`` in status ``sending`` whose sender has not renewed its claim
        within the lease: it has stopped, and the row is free again."""
        lease = timedelta(seconds=self.claim_lease_seconds)
        return and_(table.status == sending, table.claimed_at < now - lease)

    def next_attempt(
        self, attempts: int, now: datetime, retry_after: float | None = None
    ) -> datetime | None:
        """When to try again after ``attempts`` tries, the last one failed: 5 s, 10 s, 20 s …
        at most ``max_backoff_seconds`` apart, or later when the receiver asked so; None when
        every attempt is used up."""
        if attempts >= self.max_attempts:
            return None
        wait = min(self.max_backoff_seconds, self.backoff_seconds * 2 ** (attempts - 1))
        if retry_after is not None:
            wait = max(wait, retry_after)
        return now + timedelta(seconds=wait)


def due(table: Any, queued: Any, now: datetime, *conditions: Any, limit: int) -> Select[Any]:
    """Queued rows of ``table`` whose next attempt is due, oldest first, locked for this
    claim; rows another sender is claiming are skipped (``SKIP LOCKED`` on PostgreSQL)."""
    return (
        select(table)
        .where(table.status == queued, table.next_attempt_at <= now, *conditions)
        .order_by(table.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )


def claim(rows: Any, sending: Any, now: datetime) -> None:
    """Marks ``rows`` as being sent by this sender, from ``now`` for one lease."""
    for row in rows:
        row.status = sending
        row.claimed_at = now


def note_error(row: Any, error: str) -> None:
    """Why the last attempt failed, short enough for the column (never an address)."""
    row.last_error = error[:200]
