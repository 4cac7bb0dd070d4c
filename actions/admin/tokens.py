"""Editor tokens: the only way to change content over the admin HTTP API.

A token is 32 random bytes (``secrets.token_urlsafe``) behind a recognisable ``eia_`` prefix,
so secret scanners and editors can tell what it is. It is shown once, when it is created; the
database keeps only its SHA-256 hash. Why a plain hash and not scrypt or a server pepper:

* Slow hashes protect guessable passwords. A 256-bit random token cannot be guessed, so a
  stolen ``editor_tokens`` table reveals nothing usable, with or without a pepper.
* A fast, deterministic hash can be looked up through a unique index: one query per request
  and no per-request key stretching an anonymous client could use to burn the server's CPU.
* No extra secret to deploy, rotate and lose at 3 a.m.

The lookup is by hash, so the time it takes depends on the hash of what the client sent, never
on a stored token's characters; the final ``hmac.compare_digest`` keeps the comparison itself
constant-time too. Revoking keeps the row (who had access, until when).
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from actions.content import validation as check
from actions.content.editors import EditorToken

PREFIX = "eia_"
TOKEN_BYTES = 32
#: The shape of a token we issue; anything else is refused without asking the database.
TOKEN_SHAPE = re.compile(r"eia_[A-Za-z0-9_-]{43}")
#: ``last_used_at`` is refreshed at most this often: a write per request would make every
#: read contend for SQLite's single writer lock, and a minute is precise enough for an audit.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class Rejection(str, enum.Enum):
    """Why a request was not authenticated; each says what the editor can do about it."""

    MISSING = "missing_token"
    INVALID = "invalid_token"
    REVOKED = "revoked_token"


class TokenRejected(Exception):
    def __init__(self, reason: Rejection) -> None:
        self.reason = reason
        super().__init__(reason.value)


@dataclass(frozen=True)
class IssuedToken:
    """A new token: ``token`` exists only here, never in the database or a log."""

    id: int
    editor: str
    token: str


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue(session: Session, editor: str, now: datetime) -> IssuedToken:
    """A new token for ``editor`` (named as revisions will show them: short, one line)."""
    name = check.editor(editor)
    token = PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
    row = EditorToken(editor=name, token_hash=token_hash(token), created_at=now)
    session.add(row)
    session.flush()
    return IssuedToken(row.id, name, token)


def authenticate(session: Session, presented: str | None, now: datetime) -> str:
    """The editor a token belongs to, or :class:`TokenRejected` saying why not."""
    return token_of(session, presented, now).editor


def token_of(session: Session, presented: str | None, now: datetime) -> EditorToken:
    """The current token ``presented`` is (its id, its editor), or :class:`TokenRejected`."""
    if not presented:
        raise TokenRejected(Rejection.MISSING)
    if not TOKEN_SHAPE.fullmatch(presented):
        raise TokenRejected(Rejection.INVALID)
    digest = token_hash(presented)
    row = session.scalars(select(EditorToken).where(EditorToken.token_hash == digest)).first()
    if row is None or not hmac.compare_digest(row.token_hash, digest):
        raise TokenRejected(Rejection.INVALID)
    if row.revoked_at is not None:
        raise TokenRejected(Rejection.REVOKED)
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
        row.last_used_at = now
    return row


def revoke(session: Session, editor: str, now: datetime, token_id: int | None = None) -> list[int]:
    """Revoke the editor's current tokens (or just ``token_id``); their ids, none if none.
    The console sessions they opened end with them (``console/access.py``)."""
    statement = select(EditorToken).where(
        EditorToken.editor == editor.strip(), EditorToken.revoked_at.is_(None)
    )
    if token_id is not None:
        statement = statement.where(EditorToken.id == token_id)
    revoked = []
    for row in session.scalars(statement.order_by(EditorToken.id)):
        row.revoked_at = now
        revoked.append(row.id)
    return revoked


def listing(session: Session) -> Sequence[EditorToken]:
    """Every token ever issued, by editor then age: the record of who had access."""
    statement = select(EditorToken).order_by(EditorToken.editor, EditorToken.id)
    return session.scalars(statement).all()
