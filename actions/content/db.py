"""Where the content database is and how this process talks to it.

One engine per process, created on first use (importing the actions must not touch the
database: the action server imports every module at start-up). Sessions are short-lived, one
per unit of work, and nothing is cached between them, so an editor's change shows in the very
next answer.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.orm import Session

from actions import settings
from actions.common.transactions import READS_ONLY, unit_of_work

logger = logging.getLogger(__name__)

URL_ENV = settings.CONTENT_DB_URL
REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DB_PATH = REPO_ROOT / "var" / "content.db"
#: Seconds to wait for a connection (PostgreSQL) or a lock (SQLite) before failing: a user
#: waiting on a phone is better served by "try again later" than by a hung conversation.
CONNECT_TIMEOUT_SECONDS = 3

_lock = threading.Lock()
_engine: Engine | None = None
_engine_url: str | None = None


def database_url() -> str:
    """``CONTENT_DB_URL``, or the local SQLite file under ``var/`` (created if missing)."""
    url = settings.content_db_url()
    if url:
        return url
    DEFAULT_DB_PATH.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{DEFAULT_DB_PATH}"


def create_content_engine(url: str) -> Engine:
    """An engine that fails fast when the database is unreachable and checks pooled connections."""
    parsed = make_url(url)
    connect_args: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        connect_args["timeout"] = CONNECT_TIMEOUT_SECONDS
    elif parsed.get_backend_name() == "postgresql" and "connect_timeout" not in parsed.query:
        connect_args["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
    # hide_parameters: SQL parameters carry what users asked for; keep them out of error logs.
    engine = create_engine(
        parsed, pool_pre_ping=True, hide_parameters=True, connect_args=connect_args
    )
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_connection)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connection(dbapi_connection: Any, _record: Any) -> None:
    """Foreign keys on (SQLite ignores them unless asked, per connection), and transactions
    begun by us, not by Python's sqlite3 driver.

    The driver would send its ``BEGIN`` only before the first ``INSERT``/``UPDATE``, so the
    ``SELECT`` that checks a one-time code or a record's version ran outside any transaction:
    two requests read the same state and each wrote after the other (one code opened six
    sessions, six of ten writers passed one ``If-Match``). SQLAlchemy's documented recipe for
    pysqlite: switch the driver's own ``BEGIN`` off, send ours on the ``begin`` event.
    """
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    """``BEGIN IMMEDIATE`` takes the write lock up front: writers take turns from their first
    read (waiting up to ``CONNECT_TIMEOUT_SECONDS``), and none fails half-way for a lock it
    could not upgrade to. Units of work that only read begin a shared ``BEGIN``."""
    reads_only = connection.get_execution_options().get(READS_ONLY, False)
    connection.exec_driver_sql("BEGIN" if reads_only else "BEGIN IMMEDIATE")


def get_engine() -> Engine:
    """The process's engine; replaced (and the old one disposed) if ``CONTENT_DB_URL`` changes."""
    global _engine, _engine_url
    url = database_url()
    with _lock:
        if _engine is None or url != _engine_url:
            if _engine is not None:
                _engine.dispose()
            _engine = create_content_engine(url)
            _engine_url = url
            logger.debug("content database engine created for %s", describe(_engine))
        return _engine


@contextmanager
def session_scope(reads_only: bool = False) -> Iterator[Session]:
    """One unit of work on the process's engine: committed on success, rolled back on error."""
    with unit_of_work(get_engine(), reads_only) as session:
        yield session


def describe(engine: Engine) -> str:
    """The engine's URL without its password, for logs and CLI messages."""
    return engine.url.render_as_string(hide_password=True)


def dispose_engine() -> None:
    """Close the process's pooled connections (tests, and before a database is dropped)."""
    global _engine, _engine_url
    with _lock:
        if _engine is not None:
            _engine.dispose()
        _engine, _engine_url = None, None
