"""Signing in to the console: one-time codes, editor tokens, and the sessions they open.

A code is what ``python -m actions.admin invite NAME`` prints (also as a link): 12 letters
and digits from an alphabet without look-alikes (no 0/O, 1/I), 60 bits, typed on a phone in
three groups. It works once and for a day. An editor token (``eia_…``) opens a session too.
A session's secret lives only in the browser's cookie; the database keeps SHA-256 hashes of
codes and secrets, as it does of tokens (tokens.py says why a plain hash is enough for
random secrets). Failed attempts are counted by the caller (throttle.py).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from actions.admin import tokens
from actions.content import validation as check
from actions.content.editors import (
    CASEWORKER_ROLE,
    EDITOR_ROLE,
    ROLES,
    ConsoleSession,
    SignInCode,
)
from actions.content.models import Organisation

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 12
CODE_LIFETIME = timedelta(hours=24)
SECRET_BYTES = 32


class SignInRefused(Exception):
    """A code or token that opens nothing; deliberately without saying which part was wrong."""


@dataclass(frozen=True)
class Invitation:
    editor: str
    code: str  # grouped for reading aloud or typing: ABCD-EFGH-JKLM
    expires_at: datetime


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def plain_code(raw: str) -> str | None:
    """The code as issued, however it was typed (spaces, dashes, lower case); None if no code."""
    code = "".join(ch for ch in raw.upper() if ch not in " -\t")
    if len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code):
        return code
    return None


@dataclass(frozen=True)
class Identity:
    """Who signed in, and as what: an editor or a caseworker (``editors.ROLES``)."""

    name: str
    role: str = EDITOR_ROLE
    #: The editor token signed in with, if one was (revoking it ends the session).
    token_id: int | None = None
    #: A caseworker's organisation, whose cases alone she sees (``editors.organisation_column``).
    organisation_id: int | None = None


def invite(
    session: Session,
    editor: str,
    now: datetime,
    role: str = EDITOR_ROLE,
    organisation: Organisation | None = None,
) -> Invitation:
    """A one-time code for ``editor``; a caseworker's names the organisation whose cases she
    answers (an editor's none: editors see no cases)."""
    name = check.editor(editor)
    if role not in ROLES:
        raise check.ContentError("role", f"is {role!r}; one of {', '.join(ROLES)}")
    if organisation is not None and role != CASEWORKER_ROLE:
        # Most likely a caseworker whose role was forgotten: she would be made an editor.
        raise check.ContentError(
            "organisation", "is for caseworkers (--role caseworker): editors see no cases"
        )
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    expires = now + CODE_LIFETIME
    session.add(
        SignInCode(
            editor=name,
            code_hash=_hash(code),
            role=role,
            organisation_id=None if organisation is None else organisation.id,
            created_at=now,
            expires_at=expires,
        )
    )
    session.flush()
    grouped = "-".join(code[i : i + 4] for i in range(0, CODE_LENGTH, 4))
    return Invitation(name, grouped, expires)


def redeem(session: Session, presented: str, now: datetime) -> Identity:
    """Who a sign-in code (used up by this) or an editor token belongs to (a token: an editor)."""
    presented = presented.strip()
    if presented.startswith(tokens.PREFIX):
        try:
            token = tokens.token_of(session, presented, now)
        except tokens.TokenRejected:
            raise SignInRefused from None
        return Identity(token.editor, token_id=token.id)
    code = plain_code(presented)
    if code is None:
        raise SignInRefused
    # One conditional statement, so that two browsers presenting the same code at the same
    # moment cannot both see it unused (SQLite takes no row lock for SELECT … FOR UPDATE).
    claimed = session.execute(
        update(SignInCode)
        .where(
            SignInCode.code_hash == _hash(code),
            SignInCode.used_at.is_(None),
            SignInCode.expires_at > now,
        )
        .values(used_at=now)
        .returning(SignInCode.editor, SignInCode.role, SignInCode.organisation_id)
        .execution_options(synchronize_session=False)
    ).first()
    if claimed is None:
        raise SignInRefused
    return Identity(claimed.editor, claimed.role, organisation_id=claimed.organisation_id)


def open_session(session: Session, who: Identity, now: datetime, lifetime: timedelta) -> str:
    """A new session for ``who``; the secret to put in the cookie (nowhere else)."""
    secret = secrets.token_urlsafe(SECRET_BYTES)
    session.add(
        ConsoleSession(
            editor=who.name,
            role=who.role,
            organisation_id=who.organisation_id,
            secret_hash=_hash(secret),
            created_at=now,
            expires_at=now + lifetime,
            token_id=who.token_id,
        )
    )
    session.flush()
    return secret


def identity_of(session: Session, secret: str, now: datetime) -> Identity | None:
    """Who the session belongs to, if it is still open."""
    if not secret or len(secret) > 100:
        return None
    row = session.scalars(
        select(ConsoleSession).where(ConsoleSession.secret_hash == _hash(secret))
    ).first()
    if row is None or row.ended_at is not None or row.expires_at <= now:
        return None
    return Identity(row.editor, row.role, organisation_id=row.organisation_id)


def end_session(session: Session, secret: str, now: datetime) -> None:
    row = session.scalars(
        select(ConsoleSession).where(ConsoleSession.secret_hash == _hash(secret))
    ).first()
    if row is not None and row.ended_at is None:
        row.ended_at = now
