"""Alembic, configured in code: the schema is owned by ``actions/content/migrations/``.

No ``alembic.ini``: the database URL comes from ``CONTENT_DB_URL`` like everywhere else, and the
migration runs on the caller's connection, so its timeouts and SQLite settings apply.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config() -> Config:
    """Alembic's configuration without an ini file (usable for ``command.revision`` too)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def upgrade_to_head(engine: Engine) -> str:
    """Apply every pending migration in one transaction; return the revision now in force."""
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    return head_revision()


def head_revision() -> str:
    """The newest migration in the code."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError(f"no migrations found in {MIGRATIONS_DIR}")
    return head


def current_revision(engine: Engine) -> str | None:
    """The migration the database is at, or None for a database Alembic has never touched."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
