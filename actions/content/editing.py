"""Publishing, withdrawing and rolling back content: the one way editors change facts.

The CLI, the file import and the admin HTTP API all call these functions, so every change is
validated the same way and recorded as a :class:`Revision` with who, when, why, before and
after. Nothing is deleted: withdrawing hides a record from the answers, and rolling back
applies an earlier state as a new revision, so a rollback can itself be rolled back.

Rules an editor can rely on:

* A user-facing text changes in all three languages at once. Changing the English advice and
  leaving the old Dari one would tell Dari readers something that is no longer true, so the
  other languages must be given too, or explicitly left missing
  (``allow_missing_translation``: readers then get the text in a language that has it, and
  the ``translations`` report lists it). Filling in a missing translation alone is allowed.
* Publishing a fact vouches for it now: ``verified_at`` defaults to the time of publishing, and
  a volatile fact (airport status, gate, flight) keeps the length of its validity window
  unless ``valid_until`` is given. Filling in translations does not re-verify anything.
* Each function adds to the caller's session and flushes; the caller commits or rolls back,
  so an import of many records is all or nothing.

Entry points call these through ``actions/publishing.py``, which queues each revision's alerts
in the same transaction; content itself knows nothing of alerts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from actions.common.clock import utc_now_to_second
from actions.content import fields
from actions.content import validation as check
from actions.content.models import (
    Airport,
    Organisation,
    RecordKind,
    Revision,
    RevisionAction,
)
from actions.content.records import KindSpec, snapshot, spec_for, users
from actions.content.rules import MissingTranslation, check_record, merged, stored
from actions.content.validation import ContentError

__all__ = [
    "Announce",
    "ContentError",
    "MissingTranslation",
    "StaleVersion",
    "history",
    "publish",
    "reverify",
    "rollback",
    "version_of",
    "withdraw",
]


#: What has to follow every revision, in the transaction that records it: the publishing layer
#: queues the alerts it calls for. Passed in by whoever changes content in bulk (the loader).
Announce = Callable[[Session, Revision], object]


class StaleVersion(ContentError):
    """The record changed since the editor opened it: saving would overwrite a colleague.

    Says who changed it last and when (plain values: the transaction is rolled back), and
    ``version``, what the record is at now, to carry in the next attempt when the editor means
    to replace it.
    """

    def __init__(self, kind: str, key: str, expected: int, latest: Revision | None) -> None:
        self.expected = expected
        self.version = 0 if latest is None else latest.id
        self.changed_by = None if latest is None else latest.editor
        self.changed_at = None if latest is None else latest.created_at
        super().__init__(
            None,
            f"{kind} {key} was changed by {self.changed_by or 'someone'} since you opened it "
            f"(version {expected}, now {self.version}); read it again and apply your change "
            "to what it says now",
        )


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
) -> Revision | None:
    """Create or change one record (bringing it back if withdrawn); None if nothing changed.

    ``changes`` maps field names to values as a revision stores them (texts as
    ``{"en": …, "prs": …, "ps": …}``, organisations by slug, times as aware datetimes or ISO
    text); fields left out keep their value. With ``expected_version`` (what
    :func:`version_of` said when the editor read the record; 0 for "does not exist yet") a
    record changed since then is refused with :class:`StaleVersion` instead of overwritten.
    """
    now = now or utc_now_to_second()
    editor, note = check.editor(editor), check.note(note)
    spec = spec_for(kind)
    key = spec.normalise(key)
    row = _locked(session, spec.find(session, key))
    _refuse_if_stale(session, spec, key, row, expected_version)
    before = None if row is None else snapshot(spec, row)
    if row is None:
        row = spec.create(session, key)
    values = merged(session, spec, row, changes, now, allow_missing_translation)
    check_record(session, spec, row, key if before is None else None, values, now)
    for field in spec.fields:
        fields.write(field, row, values[field.name])
    row.withdrawn_at = None
    action = RevisionAction.CREATE if before is None else RevisionAction.UPDATE
    return _record(session, spec, row, action, before, editor, note, now)


def reverify(
    session: Session,
    editor: str,
    kind: RecordKind | str,
    key: str,
    note: str,
    *,
    now: datetime | None = None,
    expected_version: int | None = None,
) -> Revision:
    """An editor checked the fact and it still holds: a revision renewing ``verified_at`` only.

    A volatile fact (required ``valid_until``) keeps the length of its validity window from
    the new check, as publishing it would; nothing else changes, so nobody is alerted.
    """
    now = now or utc_now_to_second()
    spec = spec_for(kind)
    key = spec.normalise(key)
    row = spec.find(session, key)
    if row is None or not spec.has("verified_at"):
        raise ContentError(None, f"there is no {spec.kind.value} {key} to re-check")
    changes: dict[str, Any] = {"verified_at": now}
    if spec.field("valid_until").required and row.valid_until and row.valid_until > row.verified_at:
        changes["valid_until"] = now + (row.valid_until - row.verified_at)
    revision = publish(
        session, editor, spec.kind, key, changes, note, now=now, expected_version=expected_version
    )
    if revision is None:
        raise ContentError(None, f"{spec.kind.value} {key} was already checked just now")
    return revision


def withdraw(
    session: Session,
    editor: str,
    kind: RecordKind | str,
    key: str,
    note: str,
    *,
    now: datetime | None = None,
    expected_version: int | None = None,
) -> Revision:
    """Hide a record from every answer; it stays in the database and in its history."""
    now = now or utc_now_to_second()
    editor, note = check.editor(editor), check.note(note, required=True)
    spec = spec_for(kind)
    key = spec.normalise(key)
    row = _locked(session, spec.find(session, key))
    if row is not None:
        _refuse_if_stale(session, spec, key, row, expected_version)
    if row is None:
        name = spec.kind.value
        raise ContentError(None, f"there is no {name} {key}; see `list {name}`")
    if row.withdrawn_at is not None:
        raise ContentError(None, f"{spec.kind.value} {key} is already withdrawn")
    if isinstance(row, Organisation | Airport):
        _refuse_if_cited(session, spec, key, row)
    before = snapshot(spec, row)
    row.withdrawn_at = now
    revision = _record(session, spec, row, RevisionAction.WITHDRAW, before, editor, note, now)
    assert revision is not None
    return revision


def rollback(
    session: Session, editor: str, revision_id: int, note: str = "", *, now: datetime | None = None
) -> Revision:
    """Put a record back as it was before ``revision_id``: a new revision, itself undoable.

    Rolling back the revision that created a record withdraws it. Later changes to the same
    record are undone too, since the record returns to the state before ``revision_id``.
    """
    now = now or utc_now_to_second()
    editor, note = check.editor(editor), check.note(note)
    target = session.get(Revision, revision_id)
    if target is None:
        raise ContentError(None, f"there is no revision {revision_id}; see `history`")
    spec = spec_for(target.kind)
    row = _locked(session, session.get(spec.model, target.record_id))
    if row is None:
        raise ContentError(None, f"the record of revision {revision_id} no longer exists")
    before = snapshot(spec, row)
    if target.before is None:
        row.withdrawn_at = row.withdrawn_at or now
    else:
        values = {
            field.name: stored(session, field, target.before.get(field.name))
            for field in spec.fields
        }
        check_record(session, spec, row, None, values, now)
        for field in spec.fields:
            fields.write(field, row, values[field.name])
        withdrawn = target.before.get("withdrawn_at")
        row.withdrawn_at = None if withdrawn is None else check.moment("withdrawn_at", withdrawn)
    withdraws = before["withdrawn_at"] is None and row.withdrawn_at is not None
    if withdraws and isinstance(row, Organisation | Airport):
        _refuse_if_cited(session, spec, target.record_key, row)
    revision = _record(session, spec, row, RevisionAction.ROLLBACK, before, editor, note, now)
    if revision is None:
        raise ContentError(
            None,
            f"{spec.kind.value} {target.record_key} is already as it was before revision "
            f"{revision_id}; nothing to roll back",
        )
    revision.rolls_back_id = target.id
    return revision


def history(
    session: Session,
    kind: RecordKind | str | None = None,
    key: str | None = None,
    limit: int | None = None,
) -> Sequence[Revision]:
    """Revisions, newest first: all, of one kind, or of one record (under any key it had)."""
    statement = select(Revision).order_by(Revision.id.desc())
    if kind is not None:
        spec = spec_for(kind)
        statement = statement.where(Revision.kind == spec.kind)
        if key is not None:
            key = spec.normalise(key)
            row = spec.find(session, key)
            ids = set(
                session.scalars(
                    select(Revision.record_id).where(
                        Revision.kind == spec.kind, Revision.record_key == key
                    )
                )
            )
            ids |= {row.id} if row is not None else set()
            statement = statement.where(Revision.record_id.in_(ids))
    if limit is not None:
        statement = statement.limit(limit)
    return session.scalars(statement).all()


def version_of(session: Session, kind: RecordKind | str, row: Any | None) -> int:
    """The record's version: the id of its latest revision (0 for none, or no record yet).

    Revision ids only grow and every change writes one, so two reads that give the same
    version saw the same record; the API sends it as the ETag.
    """
    if row is None:
        return 0
    latest = session.scalar(
        select(func.max(Revision.id)).where(
            Revision.kind == spec_for(kind).kind, Revision.record_id == row.id
        )
    )
    return int(latest or 0)


def latest_revision(session: Session, kind: RecordKind | str, row: Any | None) -> Revision | None:
    version = version_of(session, kind, row)
    return session.get(Revision, version) if version else None


def _refuse_if_stale(
    session: Session, spec: KindSpec, key: str, row: Any | None, expected: int | None
) -> None:
    """Called with the row locked, so nobody can change it between this check and the write."""
    if expected is None or version_of(session, spec.kind, row) == expected:
        return
    raise StaleVersion(spec.kind.value, key, expected, latest_revision(session, spec.kind, row))


def _locked(session: Session, row: Any) -> Any:
    """The row re-read and locked until commit (PostgreSQL; on SQLite the unit of work holds
    the write lock from its ``BEGIN IMMEDIATE``, ``db.py``).

    Two editors changing one fact at once then take turns, and each revision's ``before`` is
    what the other one left, not a stale copy.
    """
    if row is not None:
        session.refresh(row, with_for_update=True)
    return row


def _refuse_if_cited(session: Session, spec: KindSpec, key: str, row: Any) -> None:
    cited = users(session, row)
    if cited:
        shown = ", ".join(cited[:5]) + (f" and {len(cited) - 5} more" if len(cited) > 5 else "")
        raise ContentError(
            None,
            f"{spec.kind.value} {key} is still used by {shown}: change or withdraw those first",
        )


def _record(
    session: Session,
    spec: KindSpec,
    row: Any,
    action: RevisionAction,
    before: dict[str, Any] | None,
    editor: str,
    note: str,
    now: datetime,
) -> Revision | None:
    session.add(row)
    session.flush()
    after = snapshot(spec, row)
    if after == before:
        return None
    revision = Revision(
        kind=spec.kind,
        record_id=row.id,
        record_key=spec.key_of(row),
        action=action,
        editor=editor,
        note=note,
        created_at=now,
        before=before,
        after=after,
    )
    session.add(revision)
    session.flush()
    return revision
