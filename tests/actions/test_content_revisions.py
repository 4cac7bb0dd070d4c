"""Revisions: every change is recorded with who, when, why, before and after, and can be undone.

Runs on SQLite and PostgreSQL (``content_db``: the demo seeded at NOW).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from actions.content import db, editing
from actions.content.editing import ContentError, MissingTranslation
from actions.content.models import RecordKind, Revision, RevisionAction
from actions.content.records import snapshot, spec_for
from tests.actions.content_support import DEMO_RECORDS, NOW

LATER = NOW + timedelta(minutes=10)
NUL = r"contains the NUL character \(U\+0000\), which cannot be stored"
NAME = {"name": {"en": "Kabul Aid", "prs": "کمک کابل", "ps": "د کابل مرسته"}}
ADVICE = {
    "en": "The airport is closed after the blast. Do not come.",
    "prs": "میدان هوایی پس از انفجار بسته است. نیایید.",
    "ps": "هوايي ډګر له چاودنې وروسته بند دی. مه راځئ.",
}


def state(kind: str, key: str) -> dict[str, Any]:
    """The record as a revision would store it, read in a fresh session."""
    with db.session_scope() as session:
        spec = spec_for(kind)
        row = spec.find(session, spec.normalise(key))
        assert row is not None
        return snapshot(spec, row)


def publish(kind: str, key: str, changes: dict[str, Any], **options: Any) -> Revision | None:
    options.setdefault("now", LATER)
    with db.session_scope() as session:
        return editing.publish(session, "amina", kind, key, changes, "a note", **options)


def rollback(revision_id: int) -> Revision:
    with db.session_scope() as session:
        return editing.rollback(session, "bilal", revision_id, "undo", now=LATER)


def revision_count() -> int:
    with db.session_scope() as session:
        return session.scalar(select(func.count()).select_from(Revision)) or 0


def history(kind: str | None = None, key: str | None = None) -> list[int]:
    with db.session_scope() as session:
        return [revision.id for revision in editing.history(session, kind, key)]


def test_the_seed_is_recorded_as_revisions_by_seed(content_db: Engine) -> None:
    with db.session_scope() as session:
        revisions = editing.history(session)
        assert len(revisions) == DEMO_RECORDS
        assert {(r.editor, r.action, r.before is None) for r in revisions} == {
            ("seed", RevisionAction.CREATE, True)
        }
        assert {r.created_at for r in revisions} == {NOW}


def test_publish_records_who_when_why_and_the_whole_record_before_and_after(
    content_db: Engine,
) -> None:
    before = state("airport", "KBL")
    revision = publish("airport", "kbl", {"state": "closed", "advice": ADVICE})

    assert revision is not None
    assert (revision.kind, revision.record_key, revision.action) == (
        RecordKind.AIRPORT,
        "KBL",
        RevisionAction.UPDATE,
    )
    assert (revision.editor, revision.note, revision.created_at) == ("amina", "a note", LATER)
    assert revision.before == before
    assert revision.after == state("airport", "KBL")
    assert revision.changed_fields() == ["state", "advice", "verified_at", "valid_until"]
    assert revision.before["state"] == "restricted" and revision.after["state"] == "closed"
    assert revision.after["advice"] == ADVICE
    assert revision.after["source"] == "us-embassy-kabul"
    # Publishing vouches for it now; it stays valid as long as last time (25 min + 4 h).
    assert revision.after["verified_at"] == LATER.isoformat()
    assert revision.after["valid_until"] == (LATER + timedelta(hours=4, minutes=25)).isoformat()
    with db.session_scope() as session:
        stored = editing.history(session, "airport", "KBL")[0]
        assert (stored.id, stored.before, stored.after) == (
            revision.id,
            revision.before,
            revision.after,
        )


def test_creating_a_record_has_no_before(content_db: Engine) -> None:
    changes = {
        "issuer": "us-embassy-kabul",
        "kind": "safety",
        "published_at": "2021-08-24T08:00:00+04:30",
        "verification": "verified",
        "title": {"en": "Stay away", "prs": "دور بمانید", "ps": "لرې اوسئ"},
        "text": {"en": "Stay away.", "prs": "دور بمانید.", "ps": "لرې اوسئ."},
        "source": "us-embassy-kabul",
    }
    revision = publish("announcement", "gates-2021-08-24", changes)
    assert revision is not None
    assert (revision.action, revision.before) == (RevisionAction.CREATE, None)
    assert revision.after == state("announcement", "gates-2021-08-24")
    assert revision.after["valid_until"] is None and revision.after["withdrawn_at"] is None


def test_rollback_restores_the_previous_values_exactly_and_can_be_undone(
    content_db: Engine,
) -> None:
    original = state("airport", "KBL")
    change = publish("airport", "KBL", {"state": "closed", "advice": ADVICE})
    assert change is not None

    undo = rollback(change.id)
    assert state("airport", "KBL") == original
    assert (undo.action, undo.rolls_back_id, undo.editor) == (
        RevisionAction.ROLLBACK,
        change.id,
        "bilal",
    )
    assert (undo.before, undo.after) == (change.after, original)

    redo = rollback(undo.id)
    assert state("airport", "KBL") == change.after
    assert history("airport", "KBL") == [redo.id, undo.id, change.id, history("airport")[-1]]
    with pytest.raises(ContentError, match="already as it was before revision"):
        rollback(redo.id - 1)  # the state before `undo` is what `redo` restored


def test_rolling_back_a_creation_withdraws_the_record(content_db: Engine) -> None:
    texts = {"en": "Kabul Aid", "prs": "کمک کابل", "ps": "د کابل مرسته"}
    created = publish("organisation", "kabul-aid", {"name": texts})
    assert created is not None
    undo = rollback(created.id)
    assert undo.after["withdrawn_at"] == LATER.isoformat()
    assert undo.after["name"] == texts  # withdrawn, not deleted


def test_a_flight_moved_to_another_day_keeps_one_history(content_db: Engine) -> None:
    moved = publish("flight", "RCH871@2021-08-24", {"departs_at": NOW + timedelta(hours=26)})
    assert moved is not None and moved.record_key == "RCH871@2021-08-25"
    seeded = history("flight", "RCH871@2021-08-25")[-1]
    assert history("flight", "RCH871@2021-08-24") == [moved.id, seeded]
    assert history("flight", "RCH871@2021-08-25") == [moved.id, seeded]
    back = rollback(moved.id)
    assert back.record_key == "RCH871@2021-08-24"


def test_publishing_what_is_already_there_records_nothing(content_db: Engine) -> None:
    count = revision_count()
    verified = state("airport", "KBL")["verified_at"]
    assert publish("airport", "KBL", {"state": "restricted", "verified_at": verified}) is None
    assert revision_count() == count


def test_history_is_newest_first_overall_by_kind_and_by_record(content_db: Engine) -> None:
    gate = publish("gate", "KBL/east-gate", {"state": "closed"})
    flight = publish("flight", "QR8010@2021-08-24", {"status": "cancelled"})
    assert gate is not None and flight is not None
    assert history()[:2] == [flight.id, gate.id]
    assert history("gate")[0] == gate.id and len(history("gate")) == 6
    assert history("gate", "KBL/east-gate")[0] == gate.id
    assert len(history("gate", "KBL/east-gate")) == 2


@pytest.mark.parametrize(
    ("kind", "key", "changes", "field", "message"),
    [
        ("airport", "KBL", {"state": "shut"}, "state", "expected one of open | restricted"),
        ("airport", "KBL", {"source": "nobody"}, "source", "unknown organisation 'nobody'"),
        ("airport", "KBL", {"verified_at": LATER + timedelta(hours=1)}, "verified_at", "future"),
        ("airport", "KBL", {"valid_until": NOW}, "valid_until", "not after verified_at"),
        ("airport", "KBL", {"verified_at": "2021-08-24T09:00"}, "verified_at", "UTC offset"),
        ("airport", "KBL", {"gates": []}, None, "has no field gates; its fields: state"),
        ("gate", "KBL/abbey-gate", {"position": -1}, "position", "cannot be negative"),
        ("gate", "XYZ/new-gate", {"state": "open"}, "airport", "unknown airport 'XYZ'"),
        ("flight", "QR8010", {}, None, "write it as number@Kabul date of departure"),
        ("flight", "QR8010@2021-08-24", {"destination": "KBL"}, "destination", "same airport"),
        ("flight", "QR9999@2021-08-24", {}, None, "missing text: eligibility in en, prs, ps;"),
        ("guidance", "keep-documents-hidden", {"phone": "+93 700 000 199"}, "phone", "contacts"),
        ("guidance", "unhcr-protection-line", {"email": "unhcr at x"}, "email", "help@example"),
        (
            "guidance",
            "unhcr-protection-line",
            {"phone": "", "whatsapp": "", "email": None},
            "phone",
            "a contact needs at least one of phone, whatsapp, email",
        ),
        ("organisation", "Not A Slug", {}, None, "is not a slug"),
        ("gate", "KBL/abbey-gate", {"name": {"en": "x" * 201}}, "name.en", "at most 200"),
        # PostgreSQL cannot store U+0000 (SQLite would): refused on both, naming the field.
        ("airport", "KBL", {"advice": {**ADVICE, "prs": "بسته\x00"}}, "advice.prs", NUL),
        ("airport-name", "KBL", {"place": "Kab\x00ul"}, "place", NUL),
        ("guidance", "unhcr-protection-line", {"email": "unhcr\x00@example.org"}, "email", NUL),
        ("guidance", "unhcr-protection-line", {"hours": {"en": "\x00"}}, "hours.en", NUL),
        # Keys longer than their columns: SQLite would store them, PostgreSQL would fail.
        ("organisation", "a" * 80, NAME, None, "organisation key 'a+' is 80 .*; at most 64$"),
        ("announcement", "b" * 65, {}, None, "announcement key 'b+' is 65 .*; at most 64$"),
        ("guidance", "c" * 65, {}, None, "guidance key 'c+' is 65 characters long; at most 64$"),
        ("gate", "KBL/" + "d" * 65, {}, None, "gate key 'd+' is 65 characters long; at most 64$"),
        ("flight", "Q" * 17 + "@2021-08-24", {}, None, "flight number 'Q+' is 17 .*; at most 16$"),
    ],
)
def test_every_change_is_validated_and_a_bad_one_changes_nothing(
    content_db: Engine,
    kind: str,
    key: str,
    changes: dict[str, Any],
    field: str | None,
    message: str,
) -> None:
    count = revision_count()
    with pytest.raises(ContentError, match=message) as raised:
        publish(kind, key, changes)
    assert raised.value.field == field
    assert revision_count() == count


def test_a_new_flight_must_leave_on_the_day_its_key_says(content_db: Engine) -> None:
    changes = {
        "operator": "qatar-airways",
        "origin": "KBL",
        "destination": "DOH",
        "departs_at": "2021-08-25T10:00:00+04:30",
        "status": "scheduled",
        "eligibility": {"en": "Listed", "prs": "در لست", "ps": "په لست کې"},
        "assembly_point": {"en": "East Gate", "prs": "دروازهٔ شرقی", "ps": "ختیځه دروازه"},
        "source": "qatar-airways",
        "valid_until": LATER + timedelta(hours=3),
    }
    with pytest.raises(ContentError, match="another Kabul day than the key QR8020@2021-08-24"):
        publish("flight", "QR8020@2021-08-24", changes)
    created = publish("flight", "QR8020@2021-08-25", changes)
    assert created is not None and created.action is RevisionAction.CREATE


def test_a_text_changes_in_every_language_or_not_at_all(content_db: Engine) -> None:
    before, count = state("airport", "KBL"), revision_count()
    with pytest.raises(MissingTranslation) as raised:
        publish("airport", "KBL", {"state": "closed", "advice": {"en": ADVICE["en"]}})
    assert raised.value.missing == {"advice": ["prs", "ps"]}
    assert str(raised.value).startswith("missing text: advice in prs, ps. Give every language")
    assert (state("airport", "KBL"), revision_count()) == (before, count)


def test_withdraw_needs_an_editor_and_a_reason(content_db: Engine) -> None:
    with pytest.raises(ContentError, match="'note' must say why"), db.session_scope() as s:
        editing.withdraw(s, "amina", "flight", "RCH871@2021-08-24", " ", now=LATER)
    with pytest.raises(ContentError, match="'editor' must name who"), db.session_scope() as s:
        editing.withdraw(s, "", "flight", "RCH871@2021-08-24", "cancelled", now=LATER)


def test_an_organisation_in_use_cannot_be_withdrawn_nor_a_withdrawn_one_cited(
    content_db: Engine,
) -> None:
    in_use = pytest.raises(ContentError, match="still used by flight GAF612@2021-08-24, flight")
    with in_use, db.session_scope() as session:
        editing.withdraw(session, "amina", "organisation", "luftwaffe", "gone", now=LATER)
    publish("organisation", "kabul-aid", {"name": {"en": "KA", "prs": "ک", "ps": "ک"}})
    with db.session_scope() as session:
        editing.withdraw(session, "amina", "organisation", "kabul-aid", "duplicate", now=LATER)
    with pytest.raises(ContentError, match="withdrawn organisation 'kabul-aid'; publish it"):
        publish("airport", "KBL", {"source": "kabul-aid"})


def test_rolling_back_cannot_withdraw_an_organisation_that_facts_cite(content_db: Engine) -> None:
    created = publish("organisation", "kabul-aid", {"name": {"en": "KA", "prs": "ک", "ps": "ک"}})
    assert created is not None
    publish("airport", "KBL", {"source": "kabul-aid"})
    with pytest.raises(ContentError, match="organisation kabul-aid is still used by airport KBL"):
        rollback(created.id)


def test_who_and_why_cannot_hold_a_nul_character(content_db: Engine) -> None:
    count = revision_count()
    with pytest.raises(ContentError, match=NUL) as raised, db.session_scope() as session:
        editing.publish(session, "ami\x00na", "organisation", "kabul-aid", NAME, "new", now=LATER)
    assert raised.value.field == "editor"
    with pytest.raises(ContentError, match=NUL) as raised, db.session_scope() as session:
        editing.publish(session, "amina", "organisation", "kabul-aid", NAME, "new\x00", now=LATER)
    assert raised.value.field == "note"
    with pytest.raises(ContentError, match=NUL) as raised, db.session_scope() as session:
        editing.withdraw(session, "amina", "flight", "RCH871@2021-08-24", "gone\x00", now=LATER)
    assert raised.value.field == "note"
    assert revision_count() == count


def test_keys_as_long_as_their_columns_are_stored(content_db: Engine) -> None:
    slug = "a" * 64
    created = publish("organisation", slug, NAME)
    assert created is not None and created.record_key == slug
    flight = "Q" * 16 + "@2021-08-24"
    changes = {
        "operator": "qatar-airways",
        "origin": "KBL",
        "destination": "DOH",
        "departs_at": "2021-08-24T20:00:00+04:30",
        "status": "scheduled",
        "eligibility": {"en": "Listed", "prs": "در لست", "ps": "په لست کې"},
        "assembly_point": {"en": "East Gate", "prs": "دروازهٔ شرقی", "ps": "ختیځه دروازه"},
        "source": slug,
        "valid_until": LATER + timedelta(hours=3),
    }
    created = publish("flight", flight, changes)
    assert created is not None and created.record_key == flight
    assert state("flight", flight)["source"] == slug
