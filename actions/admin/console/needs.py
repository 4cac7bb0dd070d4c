"""What needs an editor now: facts past or near their freshness limit, expired, untranslated,
and alerts that did not reach people.

Ordered by harm: a stale fact is still shown (with a warning) and gets more wrong every hour,
so it comes first, the stalest at the top; then those about to pass the limit; then volatile
facts past ``valid_until``, which answers already call out of date. Flights count only until a
few hours after departure (:data:`RECENT_DEPARTURE`): after that nobody asks about them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from actions.alerts import outbox
from actions.alerts.models import Broadcast
from actions.content.freshness import limit_for
from actions.content.models import Flight
from actions.content.records import SPECS, KindSpec
from actions.content.review import MissingText, missing_translations
from actions.content.revision import RecordKind
from actions.settings import FreshnessLimits

#: "About to pass it": the last quarter of a fact's freshness window.
SOON = 0.25
RECENT_DEPARTURE = timedelta(hours=6)
#: Volatile facts whose ``valid_until`` passed this long ago are no longer listed as expired.
EXPIRED_SHOWN = timedelta(days=3)
#: Only kinds whose every fact must be re-checked; their limits come from FreshnessLimits.
CHECKED_KINDS = (
    RecordKind.AIRPORT,
    RecordKind.GATE,
    RecordKind.FLIGHT,
    RecordKind.ANNOUNCEMENT,
    RecordKind.GUIDANCE,
)
VOLATILE = (RecordKind.AIRPORT, RecordKind.GATE, RecordKind.FLIGHT)
FAILED_ALERTS_LOOKED_AT = 50


@dataclass(frozen=True)
class Need:
    kind: str
    key: str
    row: Any
    verified_at: datetime
    limit: timedelta
    #: Positive: how long past the limit; negative: how long until it.
    over: timedelta


@dataclass(frozen=True)
class FailedAlert:
    broadcast: Broadcast
    failed: int
    total: int


@dataclass(frozen=True)
class Needs:
    stale: list[Need]
    soon: list[Need]
    expired: list[Need]
    untranslated: list[MissingText]
    failed_alerts: list[FailedAlert]

    @property
    def empty(self) -> bool:
        return not (
            self.stale or self.soon or self.expired or self.untranslated or self.failed_alerts
        )


def _shortest_limit(kind: RecordKind, limits: FreshnessLimits) -> timedelta:
    return {
        RecordKind.AIRPORT: limits.airport,
        RecordKind.GATE: limits.airport,
        RecordKind.FLIGHT: limits.flights,
        RecordKind.ANNOUNCEMENT: limits.announcements,
        RecordKind.GUIDANCE: min(limits.guidance, limits.contacts),
    }[kind]


def _current(spec: KindSpec, now: datetime) -> Any:
    statement = spec.ordered().where(spec.model.withdrawn_at.is_(None))
    if spec.model is Flight:
        statement = statement.where(Flight.departs_at >= now - RECENT_DEPARTURE)
    return statement


def _checks(session: Session, now: datetime, limits: FreshnessLimits) -> list[Need]:
    """Current facts in the last quarter of their window or past it (not yet expired)."""
    found: list[Need] = []
    for kind in CHECKED_KINDS:
        spec = SPECS[kind]
        oldest_fresh = now - _shortest_limit(kind, limits) * (1 - SOON)
        statement = _current(spec, now).where(spec.model.verified_at < oldest_fresh)
        for row in session.scalars(statement):
            if _expired(row, now):
                continue
            limit = limit_for(row, limits)
            over = now - row.verified_at - limit
            if over > -limit * SOON:
                found.append(Need(kind.value, spec.key_of(row), row, row.verified_at, limit, over))
    return found


def _expired(row: Any, now: datetime) -> bool:
    until = getattr(row, "valid_until", None)
    return until is not None and until <= now


def _expired_facts(session: Session, now: datetime, limits: FreshnessLimits) -> list[Need]:
    found: list[Need] = []
    for kind in VOLATILE:
        spec = SPECS[kind]
        statement = _current(spec, now).where(
            spec.model.valid_until <= now, spec.model.valid_until > now - EXPIRED_SHOWN
        )
        for row in session.scalars(statement):
            limit = limit_for(row, limits)
            found.append(
                Need(
                    kind.value, spec.key_of(row), row, row.verified_at, limit, now - row.valid_until
                )
            )
    return sorted(found, key=lambda need: need.over)


def _failed_alerts(session: Session) -> list[FailedAlert]:
    return [
        FailedAlert(broadcast, counts.get("failed", 0), sum(counts.values()))
        for broadcast, counts in outbox.latest(session, FAILED_ALERTS_LOOKED_AT)
        if counts.get("failed", 0)
    ]


def what_needs_me(session: Session, now: datetime, limits: FreshnessLimits) -> Needs:
    checks = _checks(session, now, limits)
    stale = sorted((n for n in checks if n.over > timedelta()), key=lambda n: n.over, reverse=True)
    soon = sorted((n for n in checks if n.over <= timedelta()), key=lambda n: n.over, reverse=True)
    return Needs(
        stale,
        soon,
        _expired_facts(session, now, limits),
        missing_translations(session),
        _failed_alerts(session),
    )
