"""Revisions: every change to content is recorded; records are withdrawn, never deleted.

Adds ``withdrawn_at`` to every content table and the append-only ``revisions`` table.
Self-contained like 0001 (no import of the models). Existing rows get no revisions: their
history starts with the next change (a revision's ``before`` is then their state).

Revision ID: 0003
Revises: 0002
Create Date: 2021-08-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CONTENT_TABLES = (
    "organisations",
    "airports",
    "airport_statuses",
    "gates",
    "flights",
    "announcements",
    "guidance_topics",
)
KINDS = ("organisation", "airport-name", "airport", "gate", "flight", "announcement", "guidance")
ACTIONS = ("create", "update", "withdraw", "rollback")


def _allowed(column: str, values: tuple[str, ...]) -> sa.CheckConstraint:
    listed = ", ".join(f"'{value}'" for value in values)
    return sa.CheckConstraint(f"{column} IN ({listed})", name=op.f(f"ck_revisions_{column}"))


def upgrade() -> None:
    for table in CONTENT_TABLES:
        op.add_column(table, sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "revisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("record_id", sa.Integer(), nullable=False),
        sa.Column("record_key", sa.String(128), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("editor", sa.String(64), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("before", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("after", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("rolls_back_id", sa.Integer(), nullable=True),
        _allowed("kind", KINDS),
        _allowed("action", ACTIONS),
        sa.ForeignKeyConstraint(
            ["rolls_back_id"], ["revisions.id"], name=op.f("fk_revisions_rolls_back_id_revisions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_revisions")),
    )
    op.create_index(op.f("ix_revisions_kind"), "revisions", ["kind", "record_id"])
    op.create_index(op.f("ix_revisions_created_at"), "revisions", ["created_at"])


def downgrade() -> None:
    """Drops the history; withdrawn rows are deleted, as 0002 would show them as current."""
    op.drop_index(op.f("ix_revisions_created_at"), table_name="revisions")
    op.drop_index(op.f("ix_revisions_kind"), table_name="revisions")
    op.drop_table("revisions")
    for table in reversed(CONTENT_TABLES):
        op.execute(sa.text(f"DELETE FROM {table} WHERE withdrawn_at IS NOT NULL"))
        op.drop_column(table, "withdrawn_at")
