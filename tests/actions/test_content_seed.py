"""The demo content and its loader, and the content CLI (`python -m actions.content`)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from actions.common.kabul_time import KABUL
from actions.content import __main__ as cli
from actions.content import db
from actions.content.migrate import head_revision
from actions.content.models import (
    Airport,
    Announcement,
    Flight,
    FlightStatus,
    Gate,
    GuidanceTopic,
    Organisation,
    Verification,
)
from actions.content.seed import loader
from actions.content.seed.loader import SeedError, read_file
from actions.content_cli import database as database_commands
from actions.publishing import load
from kernel.lang.codes import LANGUAGES
from kernel.lang.letters import DARI_GAF, PASHTO_LETTERS
from kernel.settings_values import duration
from tests.actions.content_support import NOW

PASHTO_ONLY = PASHTO_LETTERS
MODELS = (Organisation, Airport, Gate, Flight, Announcement, GuidanceTopic)


def counts(engine: Engine) -> dict[str, int]:
    with db.session_scope() as session:
        return {
            m.__name__: session.scalar(select(func.count()).select_from(m)) or 0 for m in MODELS
        }


def set_status(number: str, status: FlightStatus) -> None:
    with db.session_scope() as session:
        session.scalars(select(Flight).where(Flight.flight_number == number)).one().status = status


def status_of(number: str) -> FlightStatus:
    with db.session_scope() as session:
        return session.scalars(select(Flight).where(Flight.flight_number == number)).one().status


def demo_texts(document: Any, language: str) -> list[str]:
    """Every text of the demo file in one language."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if set(node) == set(LANGUAGES):
                found.append(node[language])
            else:
                for value in node.values():
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
    return found


def test_demo_has_the_promised_content(content_db: Engine) -> None:
    assert counts(content_db) == {
        "Organisation": 18,
        "Airport": 13,
        "Gate": 5,
        "Flight": 10,
        "Announcement": 4,
        "GuidanceTopic": 18,
    }
    with db.session_scope() as session:
        flights = session.scalars(select(Flight)).all()
        assert {f.status for f in flights} == set(FlightStatus)
        assert {f.destination.place for f in flights} >= {
            "Doha", "Islamabad", "Dubai", "Abu Dhabi", "Ramstein", "Tashkent",
        }  # fmt: skip
        amnesty = session.scalars(
            select(Announcement).where(Announcement.slug == "taliban-amnesty-2021-08-17")
        ).one()
        assert amnesty.published_at.astimezone(KABUL).date() == date(2021, 8, 17)
        assert amnesty.verification is Verification.UNVERIFIED
        assert "Zabihullah Mujahid" in amnesty.issuer.name_en


def test_relative_times_are_resolved_at_seeding(content_db: Engine) -> None:
    with db.session_scope() as session:
        rch871 = session.scalars(select(Flight).where(Flight.flight_number == "RCH871")).one()
        assert rch871.departs_at == NOW + timedelta(hours=2)
        assert rch871.verified_at == NOW - timedelta(minutes=20)
        assert rch871.valid_until == NOW + timedelta(hours=4)
        expired = session.scalars(select(Flight).where(Flight.flight_number == "PK6250")).one()
        assert expired.valid_until == NOW - timedelta(hours=1)


def test_demo_is_written_in_each_language(demo_document: Any) -> None:
    dari, pashto = demo_texts(demo_document, "prs"), demo_texts(demo_document, "ps")
    assert len(dari) == len(pashto) > 70
    assert not [text for text in dari if PASHTO_ONLY & set(text)], "Pashto letters in Dari"
    assert not [t for t in dari if re.search("فرودگاه|هواپیما", t)], "Iranian words in Dari"
    long_pashto = [text for text in pashto if len(text) > 40]
    assert long_pashto
    assert not [t for t in long_pashto if not PASHTO_ONLY & set(t)], "Pashto without Pashto letters"
    assert not [t for t in pashto if DARI_GAF in t], "Dari's گ in Pashto (Pashto writes ګ)"
    numbers = re.findall(r"\+\d[\d ]*\d", str(demo_document))
    assert numbers, "the demo's contacts have numbers"
    assert all(re.fullmatch(r"\+93 700 000 1\d\d", n) for n in numbers), "only fake numbers"
    emails = re.findall(r"[\w.-]+@[\w.-]+", str(demo_document))
    assert emails and all(e.endswith("@example.org") for e in emails), "only example.org"


def test_seeding_is_idempotent(migrated: Engine, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["seed"]) == 0
    first = counts(migrated)
    set_status("RCH871", FlightStatus.CANCELLED)  # an editor's change

    assert cli.main(["seed"]) == 0
    assert counts(migrated) == first
    assert status_of("RCH871") is FlightStatus.CANCELLED, "a second seed must not overwrite"
    output = capsys.readouterr().out.splitlines()
    assert output[0].startswith("Seeded ") and "10 flights" in output[0]
    assert "already has content; nothing seeded" in output[1]
    assert len(output) == 2

    assert cli.main(["seed", "--reset"]) == 0
    assert counts(migrated) == first
    assert status_of("RCH871") is FlightStatus.BOARDING
    assert "replaced all content" in capsys.readouterr().out


def test_migrate_command_prints_one_line(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(db.URL_ENV, sqlite_url)
    assert cli.main(["migrate"]) == 0
    assert cli.main(["migrate"]) == 0
    lines = capsys.readouterr().out.splitlines()
    latest = f"Content database {sqlite_url} is at migration {head_revision()} (latest)."
    assert lines == [latest] * 2


def test_seed_without_migration_fails_clearly(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(db.URL_ENV, sqlite_url)
    assert cli.main(["seed"]) == 1
    assert "run `python -m actions.content migrate` first" in capsys.readouterr().err


@pytest.mark.parametrize(
    "url",
    ["sqlite:///{tmp}/missing/dir/content.db", "postgresql+psycopg://postgres@127.0.0.1:1/x"],
)
def test_unreachable_database_fails_clearly(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(db.URL_ENV, url.format(tmp=tmp_path))
    assert cli.main(["migrate"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: cannot use the content database (")
    assert "Check CONTENT_DB_URL" in error
    db.dispose_engine()


def test_a_bad_file_names_its_line_and_writes_nothing(
    migrated: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = loader.DEMO_FILE.read_text("utf-8")
    lines = text.splitlines()
    bad_line = next(i for i, line in enumerate(lines) if "departs_in: 4h" in line)
    lines[bad_line] = lines[bad_line].replace("4h", "4 hours")
    bad = tmp_path / "demo.yml"
    bad.write_text("\n".join(lines), "utf-8")

    with pytest.raises(SeedError) as raised, db.session_scope() as session:
        load(session, read_file(bad), NOW)
    flight_line = next(i for i in range(bad_line, 0, -1) if "- number:" in lines[i]) + 1
    assert str(raised.value).startswith(f"line {flight_line} (flights[1]): 'departs_in'")
    assert "not a duration like 45m" in str(raised.value)
    assert counts(migrated) == dict.fromkeys(counts(migrated), 0)

    monkeypatch.setattr(database_commands, "DEMO_FILE", bad)
    assert cli.main(["seed"]) == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"status": "landed"}, "'status' is 'landed'; expected one of scheduled | boarding"),
        ({"operator": "ariana"}, "'operator' refers to unknown 'ariana'"),
        ({"number": "rch 871"}, "write it upper case without spaces"),
        ({"eligibility": {"en": "x", "prs": "y"}}, "needs exactly the languages en, prs, ps"),
        ({"gate": "North"}, "unknown keys gate"),
    ],
)
def test_flight_entries_are_validated(
    demo_document: Any, change: dict[str, Any], message: str, migrated: Engine
) -> None:
    document = loader._Mapping(demo_document)
    flight = loader._Mapping({**demo_document["flights"][0], **change})
    flight.line = demo_document["flights"][0].line
    document["flights"] = [flight]
    with pytest.raises(SeedError, match=re.escape(message)), db.session_scope() as session:
        load(session, document, NOW)


def _with_guidance(demo_document: Any, section: str, index: int, change: dict[str, Any]) -> Any:
    document = loader._Mapping(demo_document)
    original = demo_document[section][index]
    entry = loader._Mapping({**original, **change})
    entry.line = original.line
    for key in [key for key, value in change.items() if value is None]:
        del entry[key]
    document[section] = [*demo_document[section][:index], entry]
    return document


@pytest.mark.parametrize(
    ("section", "change", "message"),
    [
        (
            "contacts",
            {"phone": None, "whatsapp": None, "email": None},
            "a contact needs at least one of phone, whatsapp, email",
        ),
        ("contacts", {"phone": "0700 000 101"}, "'phone' is '0700 000 101'; write it like +93"),
        ("contacts", {"whatsapp": 93700000102}, "'whatsapp' is 93700000102; write it like +93"),
        ("contacts", {"email": "unhcr at example.org"}, "write it like help@example.org"),
        ("contacts", {"organisation": "unicef"}, "'organisation' refers to unknown 'unicef'"),
        ("contacts", {"hours": None}, "'hours' is missing"),
        ("documents", {"phone": "+93 700 000 199"}, "unknown keys phone"),
        ("eligibility", {"hours": {"en": "a", "prs": "b", "ps": "c"}}, "unknown keys hours"),
        ("documents", {"slug": "passport-or-tazkira"}, "'slug' 'passport-or-tazkira' is already"),
        ("eligibility", {"body": {"en": "x", "prs": "y"}}, "needs exactly the languages"),
    ],
)
def test_guidance_entries_are_validated(
    demo_document: Any, section: str, change: dict[str, Any], message: str, migrated: Engine
) -> None:
    document = _with_guidance(demo_document, section, 1, change)
    line = demo_document[section][1].line
    with pytest.raises(SeedError, match=re.escape(message)) as raised, db.session_scope() as s:
        load(s, document, NOW)
    assert str(raised.value).startswith(f"line {line} ({section}[1])")
    assert counts(migrated) == dict.fromkeys(counts(migrated), 0)


def test_guidance_keeps_the_order_of_the_file(content_db: Engine, demo_document: Any) -> None:
    with db.session_scope() as session:
        for section in ("documents", "eligibility", "contacts"):
            rows = session.scalars(
                select(GuidanceTopic)
                .where(GuidanceTopic.kind == section)
                .order_by(GuidanceTopic.position)
            ).all()
            assert [row.slug for row in rows] == [e["slug"] for e in demo_document[section]]
            assert [row.position for row in rows] == list(range(len(rows)))
        hidden = session.scalars(
            select(GuidanceTopic).where(GuidanceTopic.slug == "keep-documents-hidden")
        ).one()
        assert hidden.valid_until is None and hidden.verified_at == NOW - timedelta(hours=2)
        assert hidden.source.slug == "kabul-aid-network"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("45m", timedelta(minutes=45)),
        ("1h30m", timedelta(hours=1, minutes=30)),
        ("2d", timedelta(days=2)),
        ("-1h", timedelta(hours=-1)),
    ],
)
def test_durations(text: str, expected: timedelta) -> None:
    assert duration(text) == expected


@pytest.mark.parametrize("text", ["", "h", "3", "1.5h", "3x"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ValueError, match="not a duration"):
        duration(text)
