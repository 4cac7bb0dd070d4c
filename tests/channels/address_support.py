"""Content databases for the address book tests: SQLite always, PostgreSQL when reachable.

The schema is the content runtime's own: each database is created by its migrations
(``python -m actions.content migrate`` in ``.venv/actions``), as in a deployment, so these tests
fail if the bot's idea of ``alert_addresses`` and the migration's drift apart.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg2
import pytest

from kernel.contentdb.engines import dispose_engines

ROOT = Path(__file__).resolve().parents[2]
ACTIONS_PYTHON = ROOT / ".venv" / "actions" / "bin" / "python"
#: The server to create test databases on (a maintenance database of it, really).
PG_URL = os.environ.get("CONTENT_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PG_DSN = PG_URL.replace("+psycopg", "")

#: Keys for the tests; never used anywhere else.
TEST_KEY = "MZEQbYuqDVjzRfPV-fJxSBa4XjyrUhx0rgn3J01YOf8="
OTHER_KEY = "rkT0UYDy0ZmzGT6izChSBaywQ-dQznhnm5wMczLj6tA="


def migrate(url: str) -> None:
    """Creates every content table in ``url`` with the content runtime's migrations."""
    environment = {**os.environ, "CONTENT_DB_URL": url, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [str(ACTIONS_PYTHON), "-m", "actions.content", "migrate"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, f"migration failed:\n{result.stdout}\n{result.stderr}"


def postgres_unreachable_reason() -> str | None:
    try:
        psycopg2.connect(PG_DSN, connect_timeout=3).close()
        return None
    except psycopg2.Error as error:
        return str(error).strip().splitlines()[0]


def require_postgres() -> None:
    """Skip (visibly) without PostgreSQL; in CI (CI=true) its absence is a failure."""
    reason = postgres_unreachable_reason()
    if reason is None:
        return
    message = f"PostgreSQL unreachable at {PG_URL}: {reason}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message} (CI=true: PostgreSQL tests are mandatory)")
    pytest.skip(message)


def _admin(statement: str) -> None:
    connection = psycopg2.connect(PG_DSN, connect_timeout=3)
    connection.autocommit = True  # CREATE / DROP DATABASE refuse to run in a transaction
    try:
        with connection.cursor() as cursor:
            cursor.execute(statement)
    finally:
        connection.close()


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, migrated database of its own (other developers share the server); dropped after.

    Yields the URL as the content runtime spells it (``postgresql+psycopg``): the bot maps it.
    """
    name = f"test_addresses_{uuid.uuid4().hex[:12]}"
    _admin(f'CREATE DATABASE "{name}"')
    url = PG_URL.rsplit("/", 1)[0] + f"/{name}"
    try:
        migrate(url)
        yield url
    finally:
        dispose_engines()
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def clear_addresses(url: str) -> None:
    """Empties ``alert_addresses`` between tests sharing the session's PostgreSQL database."""
    connection = psycopg2.connect(url.replace("+psycopg", ""), connect_timeout=3)
    try:
        with connection, connection.cursor() as cursor:
            cursor.execute("DELETE FROM alert_addresses")
    finally:
        connection.close()
