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

from sqlalchemy import case, false, func, or_, select
from sqlalchemy.orm import Session

from actions.alerts import outbox
from actions.alerts.models import Broadcast
from actions.content.freshness import limit_for
from actions.content.models import Flight
from actions.content.records import SPECS, KindSpec
from actions.content.review import MissingText, missing_translations
from actions.content.revision import RecordKind, Revision
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
#: A list shows at most this many (with the total): a surge must not make the page unusable.
SHOWN = 20


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
    #: How many there are in each list (a list shows at most :data:`SHOWN`).
    totals: dict[str, int]

    @property
    def empty(self) -> bool:
        return not any(self.totals.values())


def _limits_of(kind: RecordKind, limits: FreshnessLimits) -> tuple[timedelta, timedelta]:
    """The shortest and longest freshness limit of the kind's facts."""
    if kind is RecordKind.GUIDANCE:
        return min(limits.guidance, limits.contacts), max(limits.guidance, limits.contacts)
    one = {
        RecordKind.AIRPORT: limits.airport,
        RecordKind.GATE: limits.airport,
        RecordKind.FLIGHT: limits.flights,
        RecordKind.ANNOUNCEMENT: limits.announcements,
    }[kind]
    return one, one


def _unexpired(spec: KindSpec, now: datetime) -> Any:
    until = spec.model.valid_until
    return or_(until.is_(None), until > now)


def _rows(session: Session, spec: KindSpec, ids: list[int]) -> dict[int, Any]:
    statement = select(spec.model).where(spec.model.id.in_(ids))
    return {row.id: row for row in session.scalars(statement)} if ids else {}


def _conditions(spec: KindSpec, now: datetime) -> list[Any]:
    """Current (not withdrawn), not expired; flights only until a while after departure."""
    model = spec.model
    found = [model.withdrawn_at.is_(None), _unexpired(spec, now)]
    if model is Flight:
        found.append(Flight.departs_at >= now - RECENT_DEPARTURE)
    return found


def _oldest(session: Session, spec: KindSpec, *where: Any) -> list[tuple[int, datetime]]:
    model = spec.model
    statement = select(model.id, model.verified_at).where(*where)
    return [
        tuple(row) for row in session.execute(statement.order_by(model.verified_at).limit(SHOWN))
    ]


def _checks(
    session: Session, now: datetime, limits: FreshnessLimits, totals: dict[str, int]
) -> tuple[list[Need], list[Need]]:
    """Current, unexpired facts past their limit, and in its last quarter: the first
    :data:`SHOWN` of each (oldest check first), while ``totals`` counts them all.

    Counted and picked by the database, and only the rows shown are read: with 10 000
    flights, reading the candidates to count them cost the page 100 ms.
    """
    stale: list[Need] = []
    soon: list[Need] = []
    for kind in CHECKED_KINDS:
        spec = SPECS[kind]
        shortest, longest = _limits_of(kind, limits)
        model, where = spec.model, _conditions(spec, now)
        if shortest == longest:
            fresh_enough = _unexpired(spec, now)
            past = fresh_enough & (model.verified_at < now - shortest)
            near = (
                fresh_enough
                & (model.verified_at >= now - shortest)
                & (model.verified_at < now - shortest * (1 - SOON))
            )
            lapsed = (
                (model.valid_until <= now) & (model.valid_until > now - EXPIRED_SHOWN)
                if kind in VOLATILE
                else false()
            )
            # One pass over the kind's current rows counts all three lists.
            counted = session.execute(
                select(
                    func.count(case((past, 1))),
                    func.count(case((near, 1))),
                    func.count(case((lapsed, 1))),
                ).where(*where[:1], *where[2:])
            ).one()
            totals["stale"] += int(counted[0] or 0)
            totals["soon"] += int(counted[1] or 0)
            totals["expired"] += int(counted[2] or 0)
            picked = [
                (i, verified, shortest)
                for i, verified in _oldest(session, spec, *where, past)
                + _oldest(session, spec, *where, near)
            ]
        else:  # guidance and contacts: two limits, a few dozen rows; sorted out here
            candidates = select(model).where(
                *where, model.verified_at < now - shortest * (1 - SOON)
            )
            picked = []
            for row in session.scalars(candidates):
                limit = limit_for(row, limits)
                if now - row.verified_at > limit * (1 - SOON):
                    picked.append((row.id, row.verified_at, limit))
                    totals["stale" if now - row.verified_at > limit else "soon"] += 1
        rows = _rows(session, spec, [item[0] for item in picked])
        for row_id, verified, limit in picked:
            row = rows[row_id]
            need = Need(kind.value, spec.key_of(row), row, verified, limit, now - verified - limit)
            (stale if need.over > timedelta() else soon).append(need)
    stale.sort(key=lambda n: n.over, reverse=True)
    soon.sort(key=lambda n: n.over, reverse=True)
    return stale[:SHOWN], soon[:SHOWN]


def _expired_facts(
    session: Session, now: datetime, limits: FreshnessLimits, totals: dict[str, int]
) -> list[Need]:
    found: list[Need] = []
    for kind in VOLATILE:
        spec = SPECS[kind]
        model = spec.model
        where = [
            model.withdrawn_at.is_(None),
            model.valid_until <= now,
            model.valid_until > now - EXPIRED_SHOWN,
        ]
        if model is Flight:
            where.append(Flight.departs_at >= now - RECENT_DEPARTURE)
        statement = select(model).where(*where).order_by(model.valid_until.desc())
        for row in session.scalars(statement.limit(SHOWN)):  # counted by _checks
            limit = limit_for(row, limits)
            found.append(
                Need(
                    kind.value, spec.key_of(row), row, row.verified_at, limit, now - row.valid_until
                )
            )
    return sorted(found, key=lambda need: need.over)[:SHOWN]


def _failed_alerts(session: Session) -> list[FailedAlert]:
    return [
        FailedAlert(broadcast, counts.get("failed", 0), sum(counts.values()))
        for broadcast, counts in outbox.latest(session, FAILED_ALERTS_LOOKED_AT)
        if counts.get("failed", 0)
    ]


def what_needs_me(session: Session, now: datetime, limits: FreshnessLimits) -> Needs:
    totals = {"stale": 0, "soon": 0, "expired": 0}
    stale, soon = _checks(session, now, limits, totals)
    expired = _expired_facts(session, now, limits, totals)
    untranslated = missing_translations(session)
    failed = _failed_alerts(session)
    totals |= {"untranslated": len(untranslated), "failed_alerts": len(failed)}
    return Needs(stale, soon, expired, untranslated[:SHOWN], failed, totals)


def versions(session: Session, needs: list[Need]) -> dict[tuple[str, int], int]:
    """Each listed fact's version in one query per kind, for its "checked" form."""
    found: dict[tuple[str, int], int] = {}
    by_kind: dict[str, list[int]] = {}
    for need in needs:
        by_kind.setdefault(need.kind, []).append(need.row.id)
    for kind, ids in by_kind.items():
        rows = session.execute(
            select(Revision.record_id, func.max(Revision.id))
            .where(Revision.kind == RecordKind(kind), Revision.record_id.in_(ids))
            .group_by(Revision.record_id)
        )
        found |= {(kind, record_id): int(latest) for record_id, latest in rows}
    return found
