"""The schema comes from Alembic, on SQLite and PostgreSQL, and matches the models exactly."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, func, inspect, select
from sqlalchemy.exc import IntegrityError, StatementError

from actions import schema
from actions.content import db, editing
from actions.content.migrate import alembic_config, current_revision, head_revision
from actions.content.models import (
    Flight,
    GuidanceKind,
    GuidanceTopic,
    Organisation,
    Revision,
)
from actions.publishing import load
from tests.actions.content_support import NOW

TABLES = {
    "organisations",
    "airports",
    "airport_statuses",
    "gates",
    "flights",
    "announcements",
    "guidance_topics",
    "claims",
    "claim_asks",
    "hidden_ask_groups",
    "answers",
    "revisions",
    "editor_tokens",
}
ALERT_TABLES = {
    "alert_subscriptions",
    "alert_addresses",
    "alert_broadcasts",
    "alert_deliveries",
    "provider_messages",
}
TABLES |= ALERT_TABLES
CONSOLE_TABLES = {"console_sign_in_codes", "console_sessions"}
TABLES |= CONSOLE_TABLES
CASE_TABLES = {"cases", "case_messages", "case_audit", "case_events", "case_replies"}
TABLES |= CASE_TABLES
QUESTION_TABLES = {"question_counts", "unanswered_questions"}
TABLES |= QUESTION_TABLES
FLIGHTS = {
    "RCH871", "GAF612", "QR8010", "PK6250", "RCH519",
    "RCH233", "UAF102", "GAF614", "QR8012", "RCH618",
}  # fmt: skip


def test_migration_creates_the_whole_schema(migrated: Engine) -> None:
    tables = set(inspect(migrated).get_table_names())
    assert tables == TABLES | {"alembic_version"}
    assert current_revision(migrated) == head_revision() == "0028"


def test_migration_matches_the_models(migrated: Engine) -> None:
    with migrated.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, schema.metadata) == []


def test_constraint_names_follow_the_naming_convention(migrated: Engine) -> None:
    inspector = inspect(migrated)
    assert inspector.get_pk_constraint("flights")["name"] == "pk_flights"
    foreign_keys = {fk["name"] for fk in inspector.get_foreign_keys("flights")}
    assert "fk_flights_source_id_organisations" in foreign_keys
    unique = {uc["name"] for uc in inspector.get_unique_constraints("gates")}
    assert unique == {"uq_gates_airport_id_slug"}


def test_downgrade_and_upgrade_again(migrated: Engine) -> None:
    config = alembic_config()
    with migrated.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert set(inspect(migrated).get_table_names()) <= {"alembic_version"}
    with migrated.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    assert set(inspect(migrated).get_table_names()) >= TABLES


def test_times_come_back_as_aware_utc(content_db: Engine) -> None:
    with db.session_scope() as session:
        flight = session.scalars(select(Flight).where(Flight.flight_number == "RCH871")).one()
        assert flight.departs_at == NOW + timedelta(hours=2)
        assert flight.departs_at.utcoffset() == timedelta(0)


def test_naive_times_are_refused(content_db: Engine) -> None:
    with pytest.raises(StatementError, match="naive datetime"), db.session_scope() as session:
        flight = session.scalars(select(Flight)).first()
        assert flight is not None
        flight.verified_at = datetime(2021, 8, 24, 9, 0)  # no zone: ambiguous
        session.flush()


def test_every_text_is_required_in_every_language(migrated: Engine) -> None:
    with pytest.raises(IntegrityError), db.session_scope() as session:
        session.add(Organisation(slug="half-written", name_en="UNHCR", name_prs="یو ان اچ سی آر"))
        session.flush()


def test_default_url_is_a_sqlite_file_under_var(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(db.URL_ENV, raising=False)
    monkeypatch.setattr(db, "DEFAULT_DB_PATH", tmp_path / "var" / "content.db")
    assert db.database_url() == f"sqlite:///{tmp_path / 'var' / 'content.db'}"
    assert (tmp_path / "var").is_dir()


def test_one_engine_per_process_until_the_url_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(db.URL_ENV, f"sqlite:///{tmp_path / 'a.db'}")
    first = db.get_engine()
    assert db.get_engine() is first
    monkeypatch.setenv(db.URL_ENV, f"sqlite:///{tmp_path / 'b.db'}")
    second = db.get_engine()
    assert second is not first
    assert second.url.database == str(tmp_path / "b.db")
    db.dispose_engine()


def _migrate(engine: Engine, target: str, direction: str = "upgrade") -> None:
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        getattr(command, direction)(config, target)


def test_migration_0002_downgrades_to_0001_and_back_keeping_the_rest(
    migrated: Engine, demo_document: Any
) -> None:
    with db.session_scope() as session:
        load(session, demo_document, NOW)

    _migrate(migrated, "0001", "downgrade")
    assert current_revision(migrated) == "0001"
    assert set(inspect(migrated).get_table_names()) == (
        TABLES
        - {"guidance_topics", "claims", "claim_asks", "answers", "revisions", "editor_tokens"}
        - {"hidden_ask_groups"}
        - ALERT_TABLES
        - CONSOLE_TABLES
        - CASE_TABLES
        - QUESTION_TABLES
    ) | {"alembic_version"}
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Flight)) == 10

    _migrate(migrated, "head")
    assert current_revision(migrated) == head_revision()
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(GuidanceTopic)) == 0
        assert session.scalar(select(func.count()).select_from(Flight)) == 10
    with migrated.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, schema.metadata) == []


def _topic(session: Any, kind: GuidanceKind, **details: Any) -> GuidanceTopic:
    org = session.scalars(select(Organisation).where(Organisation.slug == "unhcr")).one()
    fields: dict[str, Any] = {"organisation": org} if details.pop("with_organisation") else {}
    return GuidanceTopic(
        kind=kind,
        slug="test-topic",
        position=99,
        source=org,
        verified_at=NOW,
        **{f"{field}_{lang}": "x" for field in ("title", "body") for lang in ("en", "prs", "ps")},
        **fields,
        **details,
    )


HOURS = {"hours_en": "24 h", "hours_prs": "۲۴ ساعت", "hours_ps": "۲۴ ساعته"}


@pytest.mark.parametrize(
    ("kind", "details", "constraint"),
    [
        (GuidanceKind.CONTACTS, {"with_organisation": True, **HOURS}, "contact_complete"),
        (
            GuidanceKind.CONTACTS,
            {"with_organisation": False, "phone": "+93 700 000 199", **HOURS},
            "contact_complete",
        ),
        (
            GuidanceKind.CONTACTS,
            {"with_organisation": True, "email": "x@example.org", "hours_en": "24 h"},
            "contact_complete",
        ),
        (
            GuidanceKind.DOCUMENTS,
            {"with_organisation": False, "phone": "+93 700 000 199"},
            "details_only_on_contacts",
        ),
        (
            GuidanceKind.ELIGIBILITY,
            {"with_organisation": True},
            "details_only_on_contacts",
        ),
    ],
)
def test_the_database_refuses_incomplete_contacts_and_stray_details(
    content_db: Engine, kind: GuidanceKind, details: dict[str, Any], constraint: str
) -> None:
    refused = pytest.raises(IntegrityError, match=f"ck_guidance_topics_{constraint}")
    with refused, db.session_scope() as session:
        session.add(_topic(session, kind, **details))
        session.flush()


def test_migration_0003_downgrades_dropping_history_and_withdrawn_rows(
    migrated: Engine, demo_document: Any
) -> None:
    with db.session_scope() as session:
        load(session, demo_document, NOW)
        editing.withdraw(session, "amina", "flight", "QR8010@2021-08-24", "cancelled", now=NOW)

    _migrate(migrated, "0002", "downgrade")
    assert "revisions" not in inspect(migrated).get_table_names()
    assert "withdrawn_at" not in {c["name"] for c in inspect(migrated).get_columns("flights")}
    with migrated.connect() as connection:
        numbers = connection.execute(sa.text("SELECT flight_number FROM flights")).scalars()
        assert sorted(numbers) == sorted(FLIGHTS - {"QR8010"})  # 0002 would show it as current

    _migrate(migrated, "head")
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Revision)) == 0
        assert session.scalar(select(func.count()).select_from(Flight)) == 9
    with migrated.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, schema.metadata) == []


def test_migration_0005_adds_and_drops_the_destination_index(content_db: Engine) -> None:
    def indexes() -> set[str]:
        return {str(index["name"]) for index in inspect(content_db).get_indexes("flights")}

    index = "ix_flights_destination_id_departs_at"
    assert index in indexes()
    _migrate(content_db, "0004", "downgrade")
    assert index not in indexes()
    _migrate(content_db, "head")
    assert index in indexes()
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Flight)) == 10


def test_migration_0025_downgrades_keeping_the_asks_and_forgetting_the_hidden_groups(
    migrated: Engine,
) -> None:
    """Down: the asks stay and count as their conversations again; the hidden groups show."""
    ask = {
        "conversation_id": "telegram-" + "a" * 40,
        "channel": "telegram",
        "language": "prs",
        "masked_text": "abbey gate baz ast",
        "group_key": "gates-rumour-0001",
        "asked_at": NOW,
        "wants_answer": False,
    }
    tables = schema.metadata.tables
    with migrated.begin() as connection:
        connection.execute(sa.insert(tables["claim_asks"]).values(**ask, asker=42))
        hidden = {"about": "claim", "group_key": ask["group_key"], "hidden_by": "amina"}
        connection.execute(sa.insert(tables["hidden_ask_groups"]).values(**hidden, hidden_at=NOW))
    _migrate(migrated, "0024", "downgrade")
    assert "hidden_ask_groups" not in inspect(migrated).get_table_names()
    assert "asker" not in {c["name"] for c in inspect(migrated).get_columns("claim_asks")}
    with migrated.connect() as connection:
        assert connection.scalar(sa.text("SELECT count(*) FROM claim_asks")) == 1
    _migrate(migrated, "head")
    with migrated.connect() as connection:
        assert connection.scalar(sa.text("SELECT asker FROM claim_asks")) is None
        assert connection.scalar(sa.text("SELECT count(*) FROM hidden_ask_groups")) == 0


def test_migration_0028_adds_and_drops_the_countries(content_db: Engine) -> None:
    """Down: the countries editors gave go with their columns, every flight and airport stays;
    up again: the columns are back, empty until an editor gives a country."""

    def columns(table: str) -> set[str]:
        return {str(column["name"]) for column in inspect(content_db).get_columns(table)}

    gaf612 = "SELECT evacuates_for FROM flights WHERE flight_number = 'GAF612'"
    ramstein = "SELECT country FROM airports WHERE iata = 'RMS'"
    with content_db.connect() as connection:
        assert (connection.scalar(sa.text(gaf612)), connection.scalar(sa.text(ramstein))) == (
            "DE",
            "DE",
        )
    _migrate(content_db, "0027", "downgrade")
    assert "evacuates_for" not in columns("flights")
    assert "country" not in columns("airports")
    with content_db.connect() as connection:
        assert connection.scalar(sa.text("SELECT count(*) FROM flights")) == 10
        assert connection.scalar(sa.text("SELECT count(*) FROM airports")) == 13
    _migrate(content_db, "head")
    with content_db.connect() as connection:
        assert connection.scalar(sa.text(gaf612)) is None
        assert connection.scalar(sa.text(ramstein)) is None
