"""One unit of work: one session, one transaction, committed if the work returns and rolled
back if it raises. The action server, the notifier, the editors' API and the CLI all open their
sessions this way, so nothing half-written is left behind by any of them.

On SQLite a unit of work takes the database's single write lock when it begins
(``BEGIN IMMEDIATE``, ``actions/content/db.py``), so that what it reads is still true when it
writes: a check ("this code is unused", "this is still version 42") and the write it guards
cannot be split by another process. A unit that only reads says so (``reads_only``) and begins
a plain ``BEGIN``: the answers people wait for never queue behind an editor's save.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.orm import Session

#: The execution option that marks a unit of work that writes nothing (read by db.py).
READS_ONLY = "reads_only"


@contextmanager
def unit_of_work(engine: Engine, reads_only: bool = False) -> Iterator[Session]:
    """A session in one transaction. Rows stay readable after the commit
    (``expire_on_commit=False``): callers render them once the work is done."""
    bind = engine.execution_options(**{READS_ONLY: True}) if reads_only else engine
    with Session(bind, expire_on_commit=False) as session, session.begin():
        yield session
