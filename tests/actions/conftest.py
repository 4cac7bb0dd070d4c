"""Fixtures for the content runtime: databases (SQLite and PostgreSQL) and the demo content.

The demo content is seeded relative to ``NOW`` (Tuesday 24 August 2021, 09:00 in Kabul), and
the actions run with the same clock, so every answer is exactly predictable. Each backend's
database is migrated (and seeded) once per session and copied for each test: a file copy on
SQLite, ``CREATE DATABASE … TEMPLATE`` on PostgreSQL. Which backends run: ``TEST_DATABASES``
(``tests/databases.py``).
"""

from __future__ import annotations

from tests.runtimes import require_runtime

require_runtime(__file__)  # before the imports below fail in the other runtime's venv

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from actions.content import db
from actions.content.migrate import upgrade_to_head
from actions.content.seed.loader import read_file
from actions.publishing import load
from tests.actions.content_support import NOW
from tests.databases import backend_params

PG_URL = os.environ.get("CONTENT_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PG_DSN = PG_URL.replace("+psycopg", "")


def _postgres_unreachable_reason() -> str | None:
    try:
        with psycopg.connect(PG_DSN, connect_timeout=3):
            return None
    except psycopg.Error as error:
        return str(error).splitlines()[0]


@pytest.fixture(scope="session")
def postgres_available() -> None:
    """Skip (visibly) without PostgreSQL; in CI (CI=true) its absence is a failure."""
    reason = _postgres_unreachable_reason()
    if reason is None:
        return
    message = f"PostgreSQL unreachable at {PG_URL}: {reason}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message} (CI=true: PostgreSQL tests are mandatory)")
    pytest.skip(message)


def _admin(statement: str) -> None:
    """CREATE / DROP DATABASE, which refuse to run inside a transaction."""
    with psycopg.connect(PG_DSN, autocommit=True) as connection:
        connection.execute(statement)


def _url_of(name: str) -> str:
    return PG_URL.rsplit("/", 1)[0] + f"/{name}"


@contextmanager
def _fresh_database(template: str | None = None) -> Iterator[str]:
    """A new database of its own (others share the server), a copy of ``template`` when given;
    dropped afterwards with everything in it. Yields its name."""
    name = f"test_content_{uuid.uuid4().hex[:12]}"
    _admin(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    try:
        yield name
    finally:
        db.dispose_engine()
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def _postgres_template(document: Any | None) -> Iterator[str]:
    """A database migrated once (and seeded with ``document`` at NOW when given), for the
    session's tests to copy: the server copies it in a fraction of migrating or seeding."""
    with _fresh_database() as name:
        _migrate(_url_of(name), document)
        yield name


def _migrate(url: str, document: Any | None) -> None:
    """Migrates the database at ``url`` to head, seeding ``document`` at NOW when given; no
    connection stays open (a PostgreSQL database being copied must have none)."""
    engine = db.create_content_engine(url)
    upgrade_to_head(engine)
    if document is not None:
        with Session(engine) as session, session.begin():
            load(session, document, NOW)
    engine.dispose()


def _sqlite_template(directory: Path, document: Any | None) -> Path:
    path = directory / "content.db"
    _migrate(f"sqlite:///{path}", document)
    return path


def _copy_of(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> Iterator[Engine]:
    """CONTENT_DB_URL pointed at this test's own copy of the backend's ``<backend>_<kind>``
    session fixture (a file copy on SQLite, ``CREATE DATABASE … TEMPLATE`` on PostgreSQL)."""
    template = request.getfixturevalue(f"{request.param}_{kind}")
    if request.param == "sqlite":
        path = tmp_path / "content.db"
        shutil.copyfile(template, path)
        monkeypatch.setenv(db.URL_ENV, f"sqlite:///{path}")
        yield db.get_engine()
    else:
        with _fresh_database(template) as name:
            monkeypatch.setenv(db.URL_ENV, _url_of(name))
            yield db.get_engine()
    db.dispose_engine()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp_path / 'content.db'}"
    db.dispose_engine()


BACKENDS = backend_params()


@pytest.fixture(scope="session")
def demo_document() -> Any:
    return read_file()


@pytest.fixture(scope="session")
def sqlite_migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated, empty SQLite file, copied for each test."""
    return _sqlite_template(tmp_path_factory.mktemp("migrated"), None)


@pytest.fixture(scope="session")
def postgres_migrated_template(postgres_available: None) -> Iterator[str]:
    """A migrated, empty PostgreSQL database for the session, copied for each test."""
    with _postgres_template(None) as name:
        yield name


@pytest.fixture(params=BACKENDS)
def migrated(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Engine]:
    """A fresh, migrated, empty content database that CONTENT_DB_URL points at: a copy of one
    migrated once per session (SQLite and PostgreSQL, ``TEST_DATABASES``)."""
    yield from _copy_of(request, tmp_path, monkeypatch, "migrated_template")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory, demo_document: Any) -> Path:
    """A migrated SQLite file with the demo seeded at NOW, copied for each test."""
    return _sqlite_template(tmp_path_factory.mktemp("template"), demo_document)


@pytest.fixture(scope="session")
def postgres_template(postgres_available: None, demo_document: Any) -> Iterator[str]:
    """A migrated PostgreSQL database with the demo seeded at NOW, copied for each test."""
    with _postgres_template(demo_document) as name:
        yield name


@pytest.fixture(params=BACKENDS)
def content_db(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Engine]:
    """The demo content, seeded at NOW, that CONTENT_DB_URL points at (SQLite and PostgreSQL,
    ``TEST_DATABASES``): each test has a copy of its own, whatever the previous one wrote."""
    yield from _copy_of(request, tmp_path, monkeypatch, "template")


@pytest.fixture
def no_alert_subscribers(content_db: Engine) -> Iterator[None]:
    """No subscriptions or alerts before the test, and none left after it, whatever the
    database fixture copied: these tests count who was alerted."""
    from tests.actions.alerts_support import clear_alerts

    clear_alerts()
    yield
    clear_alerts()
