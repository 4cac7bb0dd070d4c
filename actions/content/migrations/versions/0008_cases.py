"""Cases handed to caseworkers, their messages, and the organisations' hours for answering them.

A case names a conversation by its keyed hash only (never an address); its messages go with it
(``ON DELETE CASCADE``). Organisations gain ``case_hours`` (daily, Kabul time, "08:00-20:00")
and ``case_wait_minutes``: the assistant tells a person who will answer and when
(docs/HANDOFF.md). Self-contained like the earlier migrations; plain ``ADD``/``DROP COLUMN``
(SQLite 3.35 and later drop a column in place; rebuilding ``organisations`` would break the
foreign keys that point at it).

Revision ID: 0008
Revises: 0007
Create Date: 2021-08-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _choice(name: str, values: tuple[str, ...]) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=16)


def _moment(name: str, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.add_column("organisations", sa.Column("case_hours", sa.String(11), nullable=True))
    op.add_column("organisations", sa.Column("case_wait_minutes", sa.Integer(), nullable=True))
    op.create_table(
        "cases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("conversation_id", sa.String(64), nullable=False),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("organisation_id", sa.Integer(), nullable=True),
        sa.Column("status", _choice("case_status", ("waiting", "taken", "closed")), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        _moment("opened_at"),
        _moment("active_at"),
        sa.Column("taken_by", sa.String(64), nullable=True),
        _moment("taken_at", nullable=True),
        _moment("closed_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["organisation_id"],
            ["organisations.id"],
            name=op.f("fk_cases_organisation_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cases")),
    )
    op.create_index(op.f("ix_cases_active_at"), "cases", ["active_at"])
    op.create_index(op.f("ix_cases_conversation_id"), "cases", ["conversation_id"])
    op.create_index(
        "ix_cases_status_priority_opened_at", "cases", ["status", "priority", "opened_at"]
    )
    op.create_table(
        "case_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column(
            "author", _choice("case_author", ("person", "assistant", "caseworker")), nullable=False
        ),
        sa.Column("text", sa.Text(), nullable=False),
        _moment("written_at"),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
            name=op.f("fk_case_messages_case_id_cases"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_case_messages")),
    )
    op.create_index(op.f("ix_case_messages_case_id"), "case_messages", ["case_id"])


def downgrade() -> None:
    """Drops every case and its messages, and the organisations' hours."""
    op.drop_index(op.f("ix_case_messages_case_id"), table_name="case_messages")
    op.drop_table("case_messages")
    op.drop_index("ix_cases_status_priority_opened_at", table_name="cases")
    op.drop_index(op.f("ix_cases_conversation_id"), table_name="cases")
    op.drop_index(op.f("ix_cases_active_at"), table_name="cases")
    op.drop_table("cases")
    op.drop_column("organisations", "case_wait_minutes")
    op.drop_column("organisations", "case_hours")
