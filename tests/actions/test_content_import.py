"""Import and export of whole data sets: round trips, atomic imports, errors that name the line.

On SQLite and PostgreSQL; the CLI runs in-process here (test_content_cli.py runs it for real).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy import Engine, func, select

from actions.content import __main__ as cli
from actions.content import db, editing
from actions.content.models import RecordKind, Revision
from actions.content.records import SPECS, snapshot
from actions.content.review import records
from actions.content.seed.exporter import dump, export_document
from actions.content.seed.loader import read_file
from actions.publishing import clear, load
from tests.actions.content_support import DEMO_RECORDS, NOW

LATER = NOW + timedelta(minutes=5)


def exported() -> str:
    with db.session_scope() as session:
        return dump(export_document(session))


def content() -> dict[tuple[RecordKind, str], dict[str, Any]]:
    """Every current record's fields (what answers are built from), by kind and key."""
    with db.session_scope() as session:
        return {
            (kind, key): {k: v for k, v in snapshot(spec, row).items() if k != "withdrawn_at"}
            for kind, spec in SPECS.items()
            for key, row in records(session, kind)
        }


def revision_count() -> int:
    with db.session_scope() as session:
        return session.scalar(select(func.count()).select_from(Revision)) or 0


def import_file(path: Path, **options: Any) -> Any:
    with db.session_scope() as session:
        return load(session, read_file(path), LATER, editor="amina", **options)


def edit_some_records() -> None:
    """Changes an export must carry: a status gone, a gap in a translation, a moved flight."""
    with db.session_scope() as session:
        editing.withdraw(session, "amina", "airport", "KBL", "unclear", now=LATER)
        editing.publish(
            session,
            "amina",
            "gate",
            "KBL/east-gate",
            {"note": {"en": "Open for listed people."}},
            now=LATER,
            allow_missing_translation=True,
        )
        editing.publish(
            session,
            "amina",
            "flight",
            "QR8010@2021-08-24",
            {"departs_at": NOW + timedelta(days=1)},
            now=LATER,
        )


@pytest.mark.parametrize("edits", [None, edit_some_records], ids=["seeded", "edited"])
def test_export_then_import_round_trips_to_identical_content(
    content_db: Engine, tmp_path: Path, edits: Callable[[], None] | None
) -> None:
    if edits is not None:
        edits()
    text, before = exported(), content()
    path = tmp_path / "export.yml"
    path.write_text(text, "utf-8")
    assert "departs_in" not in text and "verified_ago" not in text  # absolute times only
    assert "departs_at: '2021-08-24T11:00:00+04:30'" in text  # RCH871, in Kabul time

    with db.session_scope() as session:
        clear(session)
    summary = import_file(path, allow_missing_translation=edits is not None)
    assert summary.created == len(before) and summary.changed == summary.withdrawn == 0
    assert exported() == text
    assert content() == before


def test_importing_what_is_there_changes_nothing(content_db: Engine, tmp_path: Path) -> None:
    path = tmp_path / "export.yml"
    path.write_text(exported(), "utf-8")
    count = revision_count()
    summary = import_file(path)
    assert (summary.created, summary.changed, summary.unchanged) == (0, 0, DEMO_RECORDS)
    assert revision_count() == count


def test_replace_withdraws_what_the_file_leaves_out(content_db: Engine, tmp_path: Path) -> None:
    document = yaml.safe_load(exported())
    left_out = document["flights"].pop(0)["number"]
    path = tmp_path / "export.yml"
    path.write_text(yaml.safe_dump(document, allow_unicode=True), "utf-8")
    summary = import_file(path, replace=True, note="nightly sync")
    assert (summary.withdrawn, summary.changed) == (1, 0)
    assert not [key for kind, key in content() if key.startswith(f"{left_out}@")]


def _broken(text: str, find: str, replace: str) -> tuple[str, int]:
    """The text with the first line containing ``find`` changed, and that line's number."""
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if find in line)
    lines[index] = lines[index].replace(find, replace)
    return "\n".join(lines) + "\n", index + 1


def _entry_line(text: str, line: int, start: str) -> int:
    """The number of the line where the list entry holding ``line`` starts."""
    lines = text.splitlines()
    return next(i for i in range(line - 1, -1, -1) if lines[i].lstrip().startswith(start)) + 1


LONG_SLUG = "keep-documents-hidden" + "-x" * 29
LONG_GATE = "abbey-gate" + "-x" * 30
BROKEN = {
    "bad yaml": ("status: departed", "status: [departed", "not valid YAML", None),
    "bad enum": (
        "status: boarding",
        "status: landed",
        "(flights[1]): 'status' is 'landed'; expected one of scheduled | boarding",
        "- number:",
    ),
    "missing translation": (
        "    ps: د پاکستان نړیوال هوايي شرکت (PIA)",
        "    pa: د پاکستان نړیوال هوايي شرکت (PIA)",
        "(organisations.pia): 'pia' needs exactly the languages en, prs, ps "
        "(unknown pa; missing ps)",
        "organisations:",
    ),
    "unknown source": (
        "source: pia",
        "source: ariana",
        "(flights[2]): 'source' refers to unknown 'ariana'",
        "- number:",
    ),
    "expiry before check": (
        "valid_until: '2021-08-24T13:00:00+04:30'",
        "valid_until: '2021-08-24T08:00:00+04:30'",
        "(airport_statuses[0]): 'valid_until' is 2021-08-24T03:30:00+00:00, not after verified",
        "- airport:",
    ),
    "both forms of a time": (
        "departs_at: '2021-08-24T11:00:00+04:30'",
        "departs_in: 2h\n  departs_at: '2021-08-24T11:00:00+04:30'",
        "(flights[1]): 'departs_in' and 'departs_at' both given; keep one",
        "- number:",
    ),
    # YAML's "\0" is U+0000: PostgreSQL cannot store it, so it is refused on SQLite too.
    "NUL in a text": (
        "en: Inside the airport; no new passengers.",
        'en: "Inside the airport;\\0 no new passengers."',
        "(flights[0]): 'assembly_point.en' contains the NUL character (U+0000)",
        "- number:",
    ),
    "NUL in a place": (
        "place: Kabul",
        'place: "Kab\\0ul"',
        "(airports[6]): 'place' contains the NUL character (U+0000)",
        "- iata:",
    ),
    "NUL in an e-mail": (
        "email: unhcr@example.org",
        'email: "unhcr\\0@example.org"',
        "(contacts[0]): 'email' contains the NUL character (U+0000)",
        "- slug:",
    ),
    # Longer than their columns: SQLite would store them, PostgreSQL would fail.
    "long flight number": (
        "- number: QR8010",
        "- number: QR8010" + "0" * 11,
        "(flights[4]): 'number' is 'QR801000000000000', 17 characters long; at most 16",
        "- number:",
    ),
    "long slug": (
        "- slug: keep-documents-hidden",
        f"- slug: {LONG_SLUG}",
        f"(documents[4]): guidance key '{LONG_SLUG}' is 79 characters long; at most 64",
        "- slug:",
    ),
    "long gate slug": (
        "- slug: abbey-gate",
        f"- slug: {LONG_GATE}",
        f"(gates[0]): gate key '{LONG_GATE}' is 70 characters long; at most 64",
        "- slug:",
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_file_changes_nothing_and_names_the_line_and_field(
    content_db: Engine,
    case: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    find, replace, message, entry_start = BROKEN[case]
    text, line = _broken(exported(), find, replace)
    path = tmp_path / "broken.yml"
    path.write_text(text, "utf-8")
    before, count = content(), revision_count()

    assert cli.main(["import", str(path), "--editor", "amina"]) == 1
    error = capsys.readouterr().err.strip()
    assert message in error
    if entry_start is None:
        assert f"line {line}" in error  # PyYAML's own words
    elif entry_start == "organisations:":
        assert error.startswith(f"error: line {line - 2} (organisations.pia)")  # pia's names
    else:
        assert error.startswith(f"error: line {_entry_line(text, line, entry_start)} (")
    assert (content(), revision_count()) == (before, count)


def test_the_import_command_reports_what_it_changed(
    content_db: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, _ = _broken(exported(), "status: boarding", "status: delayed")
    path = tmp_path / "update.yml"
    path.write_text(text, "utf-8")
    assert cli.main(["import", str(path), "--editor", "amina", "--note", "RCH871 late"]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(
        r"Imported update\.yml into \S+: 18 organisations, 13 airports, 5 gates, 10 flights, "
        r"4 announcements, 18 guidance topics, \d+ claims, \d+ answers — 0 created, 1 changed, "
        rf"{DEMO_RECORDS - 1} unchanged, "
        r"0 withdrawn \(revisions (\d+)–\1\)\.\n",
        out,
    )
    with db.session_scope() as session:
        latest = editing.history(session, limit=1)[0]
        assert (latest.record_key, latest.editor, latest.note) == (
            "RCH871@2021-08-24",
            "amina",
            "RCH871 late",
        )
        assert latest.changed_fields() == ["status"]
