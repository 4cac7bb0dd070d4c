"""The web console's sign-in codes and sessions: hashes only, each with its expiry.

A code (``python -m actions.admin invite NAME``) works once; a session is a browser that signed
in with one, or with an editor token. Also indexes on flights' ``verified_at`` and
``valid_until``: the console's home page lists the flights checked longest ago and those that
expired last (``make bench-console``). Self-contained like the earlier migrations.

Revision ID: 0007
Revises: 0006
Create Date: 2021-08-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "console_sign_in_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("editor", sa.String(64), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_console_sign_in_codes")),
        sa.UniqueConstraint("code_hash", name=op.f("uq_console_sign_in_codes_code_hash")),
    )
    op.create_index(op.f("ix_console_sign_in_codes_editor"), "console_sign_in_codes", ["editor"])
    op.create_table(
        "console_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("editor", sa.String(64), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_console_sessions")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_console_sessions_secret_hash")),
    )
    op.create_index(op.f("ix_console_sessions_editor"), "console_sessions", ["editor"])
    op.create_index(op.f("ix_console_sessions_expires_at"), "console_sessions", ["expires_at"])
    op.create_index(op.f("ix_flights_verified_at"), "flights", ["verified_at"])
    op.create_index(op.f("ix_flights_valid_until"), "flights", ["valid_until"])


def downgrade() -> None:
    """Ends every console session and unused code: editors sign in again after upgrading."""
    op.drop_index(op.f("ix_flights_valid_until"), table_name="flights")
    op.drop_index(op.f("ix_flights_verified_at"), table_name="flights")
    op.drop_index(op.f("ix_console_sessions_expires_at"), table_name="console_sessions")
    op.drop_index(op.f("ix_console_sessions_editor"), table_name="console_sessions")
    op.drop_table("console_sessions")
    op.drop_index(op.f("ix_console_sign_in_codes_editor"), table_name="console_sign_in_codes")
    op.drop_table("console_sign_in_codes")
