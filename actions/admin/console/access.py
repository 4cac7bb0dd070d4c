"""Who can get into the console, and taking it back: open sessions, unused invitations.

A caseworker who leaves, or whose phone is lost at a checkpoint, must lose access at once, not
when the session expires 12 hours later. ``python -m actions.admin signout NAME`` ends every
open session and cancels every unused invitation of that name (an editor's or a caseworker's);
``token revoke`` ends the sessions the revoked tokens opened; ``sessions`` lists what is open.
Ending a session is setting ``ended_at``, as signing out in the browser does: the next request
of that browser is sent to the sign-in page. An invitation is cancelled by marking it used.
``organisation NAME SLUG`` names the organisation whose cases a caseworker answers, on her open
sessions and unused invitations: from her next page she sees that organisation's cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.orm import Session

from actions.content.editors import CASEWORKER_ROLE, ConsoleSession, EditorToken, SignInCode
from actions.content.models import Organisation


@dataclass(frozen=True)
class Ended:
    """What one sign-out ended."""

    sessions: int
    invitations: int


@dataclass(frozen=True)
class Access:
    """One open session or unused invitation, without its secret (only hashes are kept)."""

    name: str
    role: str
    opened: datetime
    expires: datetime
    #: The token a session was opened with; None for a code's session and for invitations.
    token_id: int | None = None
    #: A caseworker's organisation (its slug); None for an editor, or a caseworker whose
    #: organisation the operator has yet to name.
    organisation: str | None = None


@dataclass(frozen=True)
class Assigned:
    """What naming a caseworker's organisation changed."""

    sessions: int
    invitations: int


def _open_sessions(now: datetime) -> list[ColumnElement[bool]]:
    return [ConsoleSession.ended_at.is_(None), ConsoleSession.expires_at > now]


def _unused_codes(now: datetime) -> list[ColumnElement[bool]]:
    return [SignInCode.used_at.is_(None), SignInCode.expires_at > now]


def sign_out(session: Session, name: str, now: datetime) -> Ended:
    """End every open session and cancel every unused invitation of ``name``."""
    name = name.strip()
    sessions = session.scalars(
        update(ConsoleSession)
        .where(ConsoleSession.editor == name, *_open_sessions(now))
        .values(ended_at=now)
        .returning(ConsoleSession.id)
        .execution_options(synchronize_session=False)
    ).all()
    invitations = session.scalars(
        update(SignInCode)
        .where(SignInCode.editor == name, *_unused_codes(now))
        .values(used_at=now)
        .returning(SignInCode.id)
        .execution_options(synchronize_session=False)
    ).all()
    return Ended(len(sessions), len(invitations))


def assign_organisation(
    session: Session, name: str, organisation_id: int, now: datetime
) -> Assigned:
    """``name``'s open caseworker sessions and unused caseworker invitations answer the cases
    of ``organisation_id`` from now on (an editor's sign-ins are left alone)."""
    name = name.strip()
    sessions = session.scalars(
        update(ConsoleSession)
        .where(
            ConsoleSession.editor == name,
            ConsoleSession.role == CASEWORKER_ROLE,
            *_open_sessions(now),
        )
        .values(organisation_id=organisation_id)
        .returning(ConsoleSession.id)
        .execution_options(synchronize_session=False)
    ).all()
    invitations = session.scalars(
        update(SignInCode)
        .where(SignInCode.editor == name, SignInCode.role == CASEWORKER_ROLE, *_unused_codes(now))
        .values(organisation_id=organisation_id)
        .returning(SignInCode.id)
        .execution_options(synchronize_session=False)
    ).all()
    return Assigned(len(sessions), len(invitations))


def end_token_sessions(session: Session, token_ids: Sequence[int], now: datetime) -> int:
    """End the open sessions these (revoked) tokens opened; how many."""
    if not token_ids:
        return 0
    ended = session.scalars(
        update(ConsoleSession)
        .where(ConsoleSession.token_id.in_(token_ids), *_open_sessions(now))
        .values(ended_at=now)
        .returning(ConsoleSession.id)
        .execution_options(synchronize_session=False)
    ).all()
    return len(ended)


def open_sessions(session: Session, now: datetime) -> list[Access]:
    """Every session still open, by name then age."""
    rows = session.execute(
        select(
            ConsoleSession.editor,
            ConsoleSession.role,
            ConsoleSession.created_at,
            ConsoleSession.expires_at,
            ConsoleSession.token_id,
            Organisation.slug,
        )
        .outerjoin(Organisation, Organisation.id == ConsoleSession.organisation_id)
        .where(*_open_sessions(now))
        .order_by(ConsoleSession.editor, ConsoleSession.created_at, ConsoleSession.id)
    )
    return [Access(*row) for row in rows]


def unused_invitations(session: Session, now: datetime) -> list[Access]:
    """Every invitation that would still sign someone in, by name then age."""
    rows = session.execute(
        select(
            SignInCode.editor,
            SignInCode.role,
            SignInCode.created_at,
            SignInCode.expires_at,
            Organisation.slug,
        )
        .outerjoin(Organisation, Organisation.id == SignInCode.organisation_id)
        .where(*_unused_codes(now))
        .order_by(SignInCode.editor, SignInCode.created_at, SignInCode.id)
    )
    return [
        Access(name, role, opened, expires, organisation=slug)
        for name, role, opened, expires, slug in rows
    ]


def active_tokens(session: Session, name: str) -> list[int]:
    """The ids of ``name``'s tokens that still work: with one, they can sign in again."""
    statement = select(EditorToken.id).where(
        EditorToken.editor == name.strip(), EditorToken.revoked_at.is_(None)
    )
    return list(session.scalars(statement.order_by(EditorToken.id)))
