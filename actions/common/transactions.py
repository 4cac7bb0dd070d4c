"""One unit of work: one session, one transaction, committed if the work returns and rolled
back if it raises. The action server, the notifier, the editors' API and the CLI all open their
sessions this way, so nothing half-written is left behind by any of them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.orm import Session


@contextmanager
def unit_of_work(engine: Engine) -> Iterator[Session]:
    """A session in one transaction. Rows stay readable after the commit
    (``expire_on_commit=False``): callers render them once the work is done."""
    with Session(engine, expire_on_commit=False) as session, session.begin():
        yield session
