"""What needs an editor now: gates that contradict their airport, facts past or near their
freshness limit, expired, untranslated, and alerts that did not reach people (with what became
of the latest ones).

Ordered by harm: a gate saying "closed — The airport is closed." under an open airport is
read as true by everyone who asks, with no warning, so it comes first
(:func:`actions.consistency.contradicting_gates`); a stale fact is still shown (with a warning)
and gets more wrong every hour, so it comes next, the stalest at the top; then those about to
pass the limit; then volatile facts past ``valid_until``, which answers already call out of
date. Flights count only until a few hours after departure (:data:`RECENT_DEPARTURE`): after
that nobody asks about them.

Why it is fast with 10 000 flights: the database counts every list in one statement, from
partial indexes of current records that hold what the counts compare (migration 0013); then
reads only the rows shown, of lists that are not empty, with the columns their titles need and
their airports in the same query. Only the SQL is built once; what it finds is never kept, so
the page is what the database holds now.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import Integer, and_, bindparam, func, or_, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import BindParameter

from actions import consistency
from actions.admin.console.alert_outcomes import Outcome, outcomes
from actions.admin.console.titles import shown_with
from actions.alerts.models import Broadcast
from actions.content.kinds import freshness_where
from actions.content.models import Flight, Gate, UTCDateTime
from actions.content.records import SPECS
from actions.content.review import MissingText, missing_translations, untranslated_count
from actions.content.revision import RecordKind, Revision
from actions.settings import FreshnessLimits

#: "About to pass it": the last quarter of a fact's freshness window.
SOON = 0.25
RECENT_DEPARTURE = timedelta(hours=6)
#: Volatile facts whose ``valid_until`` passed this long ago are no longer listed as expired.
EXPIRED_SHOWN = timedelta(days=3)
FAILED_ALERTS_LOOKED_AT = 50
#: Alerts that all went well are listed for this long after their change was published, so
#: that its editor sees them delivered and read; failed ones stay while they are among the
#: latest :data:`FAILED_ALERTS_LOOKED_AT`.
RECENT_ALERTS = timedelta(hours=24)
#: A list shows at most this many (with the total): a surge must not make the page unusable.
SHOWN = 20
LISTS = ("stale", "soon", "expired")


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
class AlertReport:
    """One published change's alerts: where they stand, counted, never who."""

    broadcast: Broadcast
    outcome: Outcome


@dataclass(frozen=True)
class Needs:
    stale: list[Need]
    soon: list[Need]
    expired: list[Need]
    untranslated: list[MissingText]
    #: The latest broadcasts with a failed alert, newest first.
    failed_alerts: list[AlertReport]
    #: How many there are in each list (a list shows at most :data:`SHOWN`).
    totals: dict[str, int]
    #: Broadcasts of the last :data:`RECENT_ALERTS` with no failure (not a need: news).
    recent_alerts: list[AlertReport] = field(default_factory=list)
    #: Gates whose note says the airport is closed while it is not.
    contradicting: list[Gate] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not any(self.totals.values())


@dataclass(frozen=True)
class Checks:
    """Facts of one kind that share one freshness limit: what the database counts and lists
    in one go, oldest check first (the same order as furthest past the limit)."""

    kind: RecordKind
    limit: timedelta
    #: Which of the kind's facts (guidance: contacts, or the rest).
    only: tuple[Any, ...] = ()


def checks(limits: FreshnessLimits) -> list[Checks]:
    """Every fact that must be re-checked, grouped by its limit as its kind's spec gives it."""
    return [
        Checks(kind, rule.limit(limits), freshness_where(spec.model, spec.freshness, rule))
        for kind, spec in SPECS.items()
        for rule in spec.freshness
    ]


@dataclass(frozen=True)
class Wanted:
    """One list of one group: its conditions and order in SQL, with the times as parameters."""

    checks: Checks
    name: str
    where: tuple[Any, ...]
    order: Any


def _moment(name: str) -> BindParameter[datetime]:
    """A time the request supplies (:meth:`Plan.parameters`)."""
    return bindparam(name, type_=UTCDateTime())


def _wanted(group: Checks, index: int) -> list[Wanted]:
    """Current (not withdrawn) facts, flights only until a while after departure: unexpired
    ones past the limit or in its last quarter, and volatile ones that expired lately."""
    model = SPECS[group.kind].model
    current: list[Any] = [model.withdrawn_at.is_(None), *group.only]
    if model is Flight:
        current.append(Flight.departs_at >= _moment("departed_since"))
    until, verified, now = model.valid_until, model.verified_at, _moment("now")
    # A required valid_until (volatile facts) as a plain range: the index can then serve it.
    unexpired = until > now if not until.nullable else or_(until.is_(None), until > now)
    stale_before, soon_before = _moment(f"stale_before_{index}"), _moment(f"soon_{index}")
    found = [
        Wanted(group, "stale", (*current, unexpired, verified < stale_before), verified.asc()),
        Wanted(
            group,
            "soon",
            (*current, unexpired, verified >= stale_before, verified < soon_before),
            verified.asc(),
        ),
    ]
    if SPECS[group.kind].volatile:
        lapsed = (*current, until <= now, until > _moment("expired_since"))
        found.append(Wanted(group, "expired", lapsed, until.desc()))
    return found


@dataclass(frozen=True)
class Plan:
    """The page's statements, built once per set of limits (the times are parameters).

    Only the SQL is kept, never what it found: building and keying these statements anew cost
    each request about 10 ms.
    """

    groups: list[Checks]
    wanted: list[Wanted]
    #: Every list's count, then the untranslated texts of each kind in :attr:`texts`.
    counts: Any
    texts: list[RecordKind]
    lists: list[Any]

    def parameters(self, now: datetime) -> dict[str, Any]:
        found: dict[str, Any] = {
            "shown": SHOWN,
            "now": now,
            "departed_since": now - RECENT_DEPARTURE,
            "expired_since": now - EXPIRED_SHOWN,
        }
        for index, group in enumerate(self.groups):
            found[f"stale_before_{index}"] = now - group.limit
            found[f"soon_{index}"] = now - group.limit * (1 - SOON)
        return found


def _list_of(wanted: Wanted) -> Any:
    model = SPECS[wanted.checks.kind].model
    return (
        select(model)
        .options(*shown_with(model, "verified_at", "valid_until"))
        .where(*wanted.where)
        .order_by(wanted.order)
        .limit(bindparam("shown", type_=Integer()))
    )


@cache
def plan(limits: FreshnessLimits) -> Plan:
    groups = checks(limits)
    wanted = [one for index, group in enumerate(groups) for one in _wanted(group, index)]
    texts = {kind: n for kind, spec in SPECS.items() if (n := untranslated_count(spec)) is not None}
    counts = [
        select(func.count()).select_from(SPECS[one.checks.kind].model).where(*one.where)
        for one in wanted
    ]
    lists = [_list_of(one) for one in wanted]
    statement = select(*(count.scalar_subquery() for count in counts), *texts.values())
    return Plan(groups, wanted, statement, list(texts), lists)


def _listed(
    session: Session, wanted: Wanted, statement: Any, parameters: dict[str, Any]
) -> list[Need]:
    """The first :data:`SHOWN` of one list, with what their titles and keys need."""
    spec, limit, now = SPECS[wanted.checks.kind], wanted.checks.limit, parameters["now"]
    found = []
    for row in session.scalars(statement, parameters):
        over = now - row.valid_until if wanted.name == "expired" else now - row.verified_at - limit
        found.append(Need(spec.kind.value, spec.key_of(row), row, row.verified_at, limit, over))
    return found


def _alerts(session: Session, now: datetime) -> tuple[list[AlertReport], list[AlertReport]]:
    """The latest broadcasts that failed someone, and the recent ones that failed nobody."""
    broadcasts = session.scalars(
        select(Broadcast).order_by(Broadcast.id.desc()).limit(FAILED_ALERTS_LOOKED_AT)
    ).all()
    found = outcomes(session, [broadcast.id for broadcast in broadcasts])
    reports = [AlertReport(broadcast, found[broadcast.id]) for broadcast in broadcasts]
    failed = [report for report in reports if report.outcome.failed]
    recent = [
        report
        for report in reports
        if not report.outcome.failed
        and report.outcome.total
        and report.broadcast.created_at >= now - RECENT_ALERTS
    ]
    return failed, recent[:SHOWN]


def what_needs_me(session: Session, now: datetime, limits: FreshnessLimits) -> Needs:
    steps = plan(limits)
    parameters = steps.parameters(now)
    counted = session.execute(steps.counts, parameters).one()
    totals = dict.fromkeys(LISTS, 0)
    lists: dict[str, list[Need]] = {name: [] for name in LISTS}
    for one, statement, count in zip(steps.wanted, steps.lists, counted, strict=False):
        totals[one.name] += count
        if count:
            lists[one.name] += _listed(session, one, statement, parameters)
    missing = dict(zip(steps.texts, counted[len(steps.wanted) :], strict=True))
    untranslated = missing_translations(session, SHOWN, [kind for kind, n in missing.items() if n])
    failed, recent = _alerts(session, now)
    contradicting = consistency.contradicting_gates(session)
    totals |= {
        "untranslated": sum(missing.values()),
        "failed_alerts": len(failed),
        "contradicting": len(contradicting),
    }
    stale = sorted(lists["stale"], key=lambda need: need.over, reverse=True)
    soon = sorted(lists["soon"], key=lambda need: need.over, reverse=True)
    expired = sorted(lists["expired"], key=lambda need: need.over)
    return Needs(
        stale[:SHOWN],
        soon[:SHOWN],
        expired[:SHOWN],
        untranslated,
        failed,
        totals,
        recent,
        contradicting[:SHOWN],
    )


def versions(session: Session, needs: list[Need]) -> dict[tuple[str, int], int]:
    """Each listed fact's version, in one query, for its "checked" form."""
    by_kind: dict[str, list[int]] = {}
    for need in needs:
        by_kind.setdefault(need.kind, []).append(need.row.id)
    if not by_kind:
        return {}
    listed = [
        and_(Revision.kind == RecordKind(kind), Revision.record_id.in_(ids))
        for kind, ids in by_kind.items()
    ]
    rows = session.execute(
        select(Revision.kind, Revision.record_id, func.max(Revision.id))
        .where(or_(*listed))
        .group_by(Revision.kind, Revision.record_id)
    )
    return {(kind.value, record_id): int(latest) for kind, record_id, latest in rows}
