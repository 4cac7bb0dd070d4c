"""Changing content and telling subscribers, in one transaction: the one way in for editors.

The editing service (``actions/content/editing.py``) records a change as a revision; the outbox
(``actions/alerts/outbox.py``) queues the alerts a revision calls for. Content knows nothing of
alerts, so this module, above both, puts the two together: every entry point that changes
content — the admin API, the console, the CLI's changes and imports, seeding — calls the
functions here, and each queues its alerts in the caller's session, before the caller commits.
An edit and its alerts are committed together or not at all, whichever door it came through.

Publishing and rolling back also keep the rules of :mod:`actions.consistency` (a closed airport
has no open gate; a changed state keeps no note that may say the opposite), so no door can
publish facts that contradict each other.

A joint change is undone as one: rolling back an airport's revision that closed (or re-checked)
its gates with it puts those gates back too, in the same transaction (:func:`rollback`). Left
behind, the gates would still say "closed — The airport is closed." under an open airport.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from actions import consistency
from actions.alerts.models import Broadcast, Delivery
from actions.alerts.outbox import queue_alerts
from actions.claims import askers
from actions.common.clock import utc_now_to_second
from actions.content import editing
from actions.content.models import (
    AirportState,
    AirportStatus,
    Gate,
    GateState,
    RecordKind,
    Revision,
    RevisionAction,
)
from actions.content.records import snapshot, spec_for
from actions.content.seed import loader
from actions.content.seed.entries import SeedError

__all__ = [
    "Undone",
    "announce",
    "clear",
    "closed_with",
    "load",
    "publish",
    "reverify",
    "rollback",
    "withdraw",
]

P = ParamSpec("P")
R = TypeVar("R", bound=Revision | None)
#: An editing function: the session first, then what it changes; its revision, if any.
Change = Callable[Concatenate[Session, P], R]


def announce(session: Session, revision: Revision) -> None:
    """Queue the alerts ``revision`` calls for (none for a re-check or a typo fix); a claim's
    verdict or an editor's answer goes to those who asked about it and are still waiting
    (``claims/askers.py``)."""
    row = session.get(spec_for(revision.kind).model, revision.record_id)
    queue_alerts(session, revision, row)
    if revision.kind in askers.AWAITED:
        askers.tell(session, revision)


def _announced(change: Change[P, R]) -> Change[P, R]:
    """``change``, followed in the same session by the alerts its revision calls for."""

    @wraps(change)
    def announced(session: Session, /, *args: P.args, **kwargs: P.kwargs) -> R:
        revision = change(session, *args, **kwargs)
        if revision is not None:
            announce(session, revision)
        return revision

    return announced


def publish(
    session: Session,
    editor: str,
    kind: RecordKind | str,
    key: str,
    changes: Mapping[str, Any],
    note: str = "",
    *,
    now: datetime | None = None,
    allow_missing_translation: bool = False,
    expected_version: int | None = None,
    close_gates: bool = False,
    confirm_unchanged: bool = False,
) -> Revision | None:
    """:func:`editing.publish`, then the consistency rules, then the alerts.

    ``close_gates``: closing an airport closes its open gates too (else it is refused while
    any says open). ``confirm_unchanged``: the editor confirmed that a text left unchanged in
    some language still holds after its record changed state.

    The gates closed with an airport are revisions of their own but queue no alert: the
    airport's alert shows the whole airport, gates included, so people get one alert, not five.
    """
    now = now or utc_now_to_second()
    revision = editing.publish(
        session,
        editor,
        kind,
        key,
        changes,
        note,
        now=now,
        allow_missing_translation=allow_missing_translation,
        expected_version=expected_version,
    )
    if revision is not None:
        gates = consistency.check_change(
            session, revision, close_gates=close_gates, confirm_unchanged=confirm_unchanged
        )
        if close_gates:
            _close_with_airport(session, revision, gates)
        announce(session, revision)
    return revision


def _close_with_airport(session: Session, airport: Revision, gates: list[Gate]) -> None:
    """Each open gate closed as a revision of its own, by the same editor, why and moment.

    When this change closed the airport, the gates that already said closed are re-checked
    too: the editor closing the whole airport vouches for every gate of it now, so no answer
    says "checked 40 min ago" of a gate the airport's closure just confirmed.
    """
    row = session.get(AirportStatus, airport.record_id)
    change = consistency.state_change(airport)
    if row is None or row.state is not AirportState.CLOSED:
        return
    iata = row.airport.iata
    if change is not None and change.after == AirportState.CLOSED.value:
        checked = [
            gate
            for gate in consistency.closed_gates(session, row.airport_id)
            if gate.verified_at < airport.created_at  # else it was checked in this very second
        ]
        for gate in checked:
            key = f"{iata}/{gate.slug}"
            editing.reverify(
                session, airport.editor, RecordKind.GATE, key, airport.note, now=airport.created_at
            )
    for gate in gates:
        key = f"{iata}/{gate.slug}"
        editing.publish(
            session, airport.editor, RecordKind.GATE, key, consistency.closing(), airport.note,
            now=airport.created_at,
        )  # fmt: skip


#: Fields a re-check changes, and nothing else.
_CHECK_FIELDS = frozenset({"verified_at", "valid_until"})


def _rechecked_only(revision: Revision) -> bool:
    return set(revision.changed_fields()) <= _CHECK_FIELDS


def closed_with(session: Session, airport: Revision) -> list[Revision]:
    """The gate revisions made together with the airport's ``airport`` revision: written right
    after it, in its transaction, by its editor, at its moment and with its note.

    For a change that closed the airport, the gates it closed and those it re-checked; for a
    rollback, the gates rolled back with it (:func:`rollback`), so that undoing an undo closes
    them again. A gate changed otherwise in that same second is not one of them.
    """
    if airport.kind is not RecordKind.AIRPORT:
        return []
    written = session.scalars(
        select(Revision)
        .where(
            Revision.kind == RecordKind.GATE,
            Revision.id > airport.id,
            Revision.editor == airport.editor,
            Revision.created_at == airport.created_at,
            Revision.note == airport.note,
            Revision.record_key.startswith(f"{airport.record_key}/"),
        )
        .order_by(Revision.id)
    )
    if airport.action is RevisionAction.ROLLBACK:
        return [gate for gate in written if gate.action is RevisionAction.ROLLBACK]
    if airport.after.get("state") != AirportState.CLOSED.value:
        return []
    return [gate for gate in written if _closed_with_airport(gate)]


def _closed_with_airport(gate: Revision) -> bool:
    """A gate change the close-gates path makes: closed (from open), or re-checked."""
    if gate.action is RevisionAction.ROLLBACK:
        return False
    closed = "state" in gate.changed_fields() and gate.after.get("state") == GateState.CLOSED.value
    return closed or _rechecked_only(gate)


@dataclass(frozen=True)
class Undone:
    """A rollback, and what it undid with it of the gates a joint change touched."""

    revision: Revision
    #: The gates' own rollbacks, made with it (:func:`closed_with` finds them again).
    with_it: list[Revision] = field(default_factory=list)
    #: Gates the undone change closed or re-checked that were changed since, each by the first
    #: revision that changed it: left as they are, for an editor to look at.
    left: list[Revision] = field(default_factory=list)

    @property
    def changed_state(self) -> list[Revision]:
        """The gates whose state it changed back (closed with the airport: open again)."""
        return [gate for gate in self.with_it if "state" in gate.changed_fields()]


def rollback(
    session: Session, editor: str, revision_id: int, note: str = "", *, now: datetime | None = None
) -> Undone:
    """:func:`editing.rollback`, with what a joint change did to the airport's gates undone
    too, refused when what it restores would contradict the facts around it now (an airport
    closed again while its gates say open), then the alerts.

    One undo for one change: the editor who undoes "close the airport and its gates" means the
    whole of it. A gate changed since (other than re-checked) is left as it is and named
    (``left``): its later change may be a closure of its own, which putting the gate back would
    undo unseen. Only the airport's rollback is announced, as only its closure was.
    """
    now = now or utc_now_to_second()
    target = session.get(Revision, revision_id)
    joint = [] if target is None else _joint(session, target)
    revision = editing.rollback(session, editor, revision_id, note, now=now)
    with_it, left = _put_back(session, joint, revision)
    for change in (revision, *with_it):
        consistency.check_change(session, change, how_close="publish gate KEY --state closed")
    announce(session, revision)
    return Undone(revision, with_it, left)


def _joint(session: Session, target: Revision) -> list[Revision]:
    """The gate revisions made with ``target`` or with the later revisions of its airport,
    which rolling ``target`` back undoes as well, oldest first."""
    if target.kind is not RecordKind.AIRPORT:
        return []
    undone = session.scalars(
        select(Revision)
        .where(
            Revision.kind == RecordKind.AIRPORT,
            Revision.record_id == target.record_id,
            Revision.id >= target.id,
        )
        .order_by(Revision.id)
    )
    return sorted(
        (gate for airport in undone for gate in closed_with(session, airport)),
        key=lambda gate: gate.id,
    )


def _put_back(
    session: Session, joint: list[Revision], undo: Revision
) -> tuple[list[Revision], list[Revision]]:
    """Each gate as it was before the first of ``joint`` that touched it, by ``undo``'s editor,
    moment and note; or, when changed since, left: (rolled back, changed since)."""
    undone = {gate.id for gate in joint}
    first: dict[int, Revision] = {}
    for gate in joint:
        first.setdefault(gate.record_id, gate)
    with_it: list[Revision] = []
    left: list[Revision] = []
    spec = spec_for(RecordKind.GATE)
    for gate in first.values():
        since = _changed_since(session, gate, undone)
        row = session.get(Gate, gate.record_id)
        if since is not None:
            left.append(since)
        elif row is not None and snapshot(spec, row) != gate.before:
            with_it.append(
                editing.rollback(session, undo.editor, gate.id, undo.note, now=undo.created_at)
            )
    return with_it, left


def _changed_since(session: Session, gate: Revision, undone: set[int]) -> Revision | None:
    """The first later change to ``gate``'s record that is neither undone with it nor a
    re-check (a re-check vouched for the closure being undone)."""
    later = session.scalars(
        select(Revision)
        .where(
            Revision.kind == RecordKind.GATE,
            Revision.record_id == gate.record_id,
            Revision.id > gate.id,
        )
        .order_by(Revision.id)
    )
    return next((r for r in later if r.id not in undone and not _rechecked_only(r)), None)


reverify = _announced(editing.reverify)
withdraw = _announced(editing.withdraw)


def load(session: Session, document: Any, now: datetime, **options: Any) -> loader.LoadSummary:
    """A content file's records published (:func:`loader.load`), each followed by its alerts;
    refused when, the whole file applied, a closed airport still has a gate saying open.

    Checked once the file is applied, not record by record: a file may close an airport before
    the gates it lists further down.
    """
    summary = loader.load(session, document, now, announce=announce, **options)
    for status in session.scalars(
        select(AirportStatus).where(AirportStatus.withdrawn_at.is_(None))
    ):
        try:
            consistency.check_airport(session, status, False, "state: closed in the file")
        except consistency.GatesStillOpen as error:
            raise SeedError(f"airport {status.airport.iata}: {error}") from error
    return summary


def clear(session: Session) -> None:
    """Delete all content, its history and the alerts about it (subscriptions stay):
    ``seed --reset``, for demos, not for real data."""
    session.execute(delete(Delivery))
    session.execute(delete(Broadcast))
    loader.clear(session)
