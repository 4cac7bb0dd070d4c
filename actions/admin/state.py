"""What the application and each request carry, and how handlers reach the database.

Typed keys instead of strings, so mypy knows what ``request.app[ENGINE]`` is. Database work
runs in a worker thread, one session and one transaction per unit of work (SQLAlchemy's
sessions are synchronous; a slow query must not stall every other editor's request).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from aiohttp import web
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from actions.admin.settings import AdminSettings
from actions.common.transactions import unit_of_work

T = TypeVar("T")

ENGINE = web.AppKey("engine", Engine)
SETTINGS = web.AppKey("settings", AdminSettings)
#: Now, to the second, as revisions record it; tests pin it to the demo's clock.
CLOCK: web.AppKey[Callable[[], datetime]] = web.AppKey("clock")
#: The editor the request's token belongs to; set by the authentication middleware.
EDITOR = web.RequestKey("editor", str)


def transact(engine: Engine, work: Callable[[Session], T], reads_only: bool = False) -> T:
    """Run ``work`` in one :func:`unit_of_work`: committed if it returns, rolled back if it
    raises."""
    with unit_of_work(engine, reads_only) as session:
        return work(session)


async def in_transaction(request: web.Request, work: Callable[[Session], T]) -> T:
    """:func:`transact` in a worker thread. ``work`` returns plain data (JSON, text):
    rows must not be read after their session has closed.
    """
    return await asyncio.to_thread(transact, request.app[ENGINE], work)


def now(request: web.Request) -> datetime:
    return request.app[CLOCK]()


def editor(request: web.Request) -> str:
    return request[EDITOR]
