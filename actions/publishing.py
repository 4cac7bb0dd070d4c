"""Changing content and telling subscribers, in one transaction: the one way in for editors.

The editing service (``actions/content/editing.py``) records a change as a revision; the outbox
(``actions/alerts/outbox.py``) queues the alerts a revision calls for. Content knows nothing of
alerts, so this module, above both, puts the two together: every entry point that changes
content — the admin API, the console, the CLI's changes and imports, seeding — calls the
functions here, and each queues its alerts in the caller's session, before the caller commits.
An edit and its alerts are committed together or not at all, whichever door it came through.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy import delete
from sqlalchemy.orm import Session

from actions.alerts.models import Broadcast, Delivery
from actions.alerts.outbox import queue_alerts
from actions.content import editing
from actions.content.models import Revision
from actions.content.records import spec_for
from actions.content.seed import loader

__all__ = ["announce", "clear", "load", "publish", "reverify", "rollback", "withdraw"]

P = ParamSpec("P")
R = TypeVar("R", bound=Revision | None)
#: An editing function: the session first, then what it changes; its revision, if any.
Change = Callable[Concatenate[Session, P], R]


def announce(session: Session, revision: Revision) -> None:
    """Queue the alerts ``revision`` calls for (none for a re-check or a typo fix)."""
    row = session.get(spec_for(revision.kind).model, revision.record_id)
    queue_alerts(session, revision, row)


def _announced(change: Change[P, R]) -> Change[P, R]:
    """``change``, followed in the same session by the alerts its revision calls for."""

    @wraps(change)
    def announced(session: Session, /, *args: P.args, **kwargs: P.kwargs) -> R:
        revision = change(session, *args, **kwargs)
        if revision is not None:
            announce(session, revision)
        return revision

    return announced


publish = _announced(editing.publish)
reverify = _announced(editing.reverify)
withdraw = _announced(editing.withdraw)
rollback = _announced(editing.rollback)


#: A content file's records published (:func:`loader.load`), each followed by its alerts.
load = partial(loader.load, announce=announce)


def clear(session: Session) -> None:
    """Delete all content, its history and the alerts about it (subscriptions stay):
    ``seed --reset``, for demos, not for real data."""
    session.execute(delete(Delivery))
    session.execute(delete(Broadcast))
    loader.clear(session)
