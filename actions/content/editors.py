"""Editors' API tokens: only a hash of each token is stored (see actions/admin/tokens.py).

Part of the content schema, so Alembic and the schema tests see it without importing the admin
API; the admin package holds the logic that issues and checks tokens.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from actions.content import validation as check
from actions.content.columns import Base, UTCDateTime

#: What a console sign-in may do: editors change the content, caseworkers answer cases
#: (docs/HANDOFF.md). Different people, different permissions: neither sees the other's pages.
EDITOR_ROLE = "editor"
CASEWORKER_ROLE = "caseworker"
ROLES = (EDITOR_ROLE, CASEWORKER_ROLE)
ROLE = String(16)


def organisation_column() -> Mapped[int | None]:
    """The organisation whose cases a caseworker sees, takes and answers (docs/HANDOFF.md,
    "Caseworkers and organisations"): two organisations staffing the service must not read
    each other's cases. None for an editor, and for a caseworker invited before migration 0026
    until the operator names hers (``python -m actions.admin organisation NAME SLUG``)."""
    return mapped_column(ForeignKey("organisations.id"))


class EditorToken(Base):
    """One token of one editor; an editor may hold several (laptop, phone)."""

    __tablename__ = "editor_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    editor: Mapped[str] = mapped_column(String(check.EDITOR_MAX), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class SignInCode(Base):
    """A one-time sign-in code for the web console (``python -m actions.admin invite NAME``).

    Only its hash is kept; it works once (``used_at``) and only until ``expires_at``.
    """

    __tablename__ = "console_sign_in_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    editor: Mapped[str] = mapped_column(String(check.EDITOR_MAX), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(ROLE, server_default=EDITOR_ROLE)
    organisation_id: Mapped[int | None] = organisation_column()
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ConsoleSession(Base):
    """A signed-in browser: the cookie holds a secret, the database only its hash.

    ``token_id``: the editor token it was opened with (revoking the token ends it), if any.
    """

    __tablename__ = "console_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    editor: Mapped[str] = mapped_column(String(check.EDITOR_MAX), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(ROLE, server_default=EDITOR_ROLE)
    organisation_id: Mapped[int | None] = organisation_column()
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    token_id: Mapped[int | None] = mapped_column(
        ForeignKey("editor_tokens.id", ondelete="CASCADE"), index=True
    )
