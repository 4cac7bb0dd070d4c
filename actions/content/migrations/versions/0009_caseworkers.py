"""Caseworkers in the console: a role on sign-in codes and sessions, and the cases' audit log.

Every existing code and session is an editor's (the server default), so nobody's permissions
change on upgrading. ``case_audit`` records who opened, took or closed which case
(docs/HANDOFF.md). Self-contained like the earlier migrations.

Revision ID: 0009
Revises: 0008
Create Date: 2021-08-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("console_sign_in_codes", "console_sessions"):
        op.add_column(
            table, sa.Column("role", sa.String(16), server_default="editor", nullable=False)
        )
    op.create_table(
        "case_audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("caseworker", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_case_audit")),
    )
    op.create_index(op.f("ix_case_audit_case_id"), "case_audit", ["case_id"])


def downgrade() -> None:
    """Drops the audit log; caseworkers' sessions and codes become editors' ones, so they are
    ended and used up first."""
    op.drop_index(op.f("ix_case_audit_case_id"), table_name="case_audit")
    op.drop_table("case_audit")
    op.execute("DELETE FROM console_sessions WHERE role <> 'editor'")
    op.execute("DELETE FROM console_sign_in_codes WHERE role <> 'editor'")
    for table in ("console_sessions", "console_sign_in_codes"):
        op.drop_column(table, "role")
