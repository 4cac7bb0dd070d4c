"""The bot runtime's connections to the content database: one engine per database per process.

The address book, the alert channels' delivery log, the case inbox and the question log all
write the same database; they share one pool rather than open four.
"""

from __future__ import annotations

import threading
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.engine import Engine, make_url

DB_URL_ENV = "CONTENT_DB_URL"
#: The content runtime's default database (actions/content/db.py): both runtimes share it.
DEFAULT_DB_PATH = Path(__file__).resolve().parents[2] / "var" / "content.db"
CONNECT_TIMEOUT_SECONDS = 3

_engines: dict[str, Engine] = {}
_engines_lock = threading.Lock()


class ContentDatabaseError(ValueError):
    """``CONTENT_DB_URL`` names a database this runtime cannot use; the message says why."""


def database_url(configured: str | None) -> str:
    """``CONTENT_DB_URL`` as configured (``kernel/settings.py``'s ``content_db_url``) for this
    runtime's drivers (psycopg 3 there, psycopg2 here); the local SQLite file when None."""
    url = (configured or "").strip() or f"sqlite:///{DEFAULT_DB_PATH}"
    parsed = make_url(url)
    if parsed.drivername == "postgresql+psycopg":
        parsed = parsed.set(drivername="postgresql+psycopg2")
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise ContentDatabaseError(f"{DB_URL_ENV} must be a SQLite or PostgreSQL URL.")
    rendered: str = parsed.render_as_string(hide_password=False)
    return rendered


def engine_for(url: str) -> Engine:
    """One engine (and connection pool) per database per process."""
    with _engines_lock:
        engine = _engines.get(url)
        if engine is None:
            parsed = make_url(url)
            timeout = "timeout" if parsed.get_backend_name() == "sqlite" else "connect_timeout"
            # hide_parameters: a failed statement's parameters would be a sealed address, a
            # conversation id or a person's message; none belongs in an error log.
            engine = create_engine(
                parsed,
                pool_pre_ping=True,
                hide_parameters=True,
                connect_args={timeout: CONNECT_TIMEOUT_SECONDS},
                future=True,
            )
            _engines[url] = engine
        return engine


def dispose_engines() -> None:
    """Closes every pooled connection (tests, before their database is dropped)."""
    with _engines_lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()
