"""Caseworkers' replies: the outbox that carries each one to the person's own channel.

A reply is a line of its case (``case_messages``, author ``caseworker``) and one row here,
written in the caseworker's transaction; the notifier's courier sends it through Rasa's HTTP
API exactly once, as ``alert_deliveries`` are sent (``queued → sending → sent | failed``).
Both go with their case (``ON DELETE CASCADE``): "delete my data" and retention remove them.
Self-contained like the earlier migrations.

Revision ID: 0015
Revises: 0014
Create Date: 2021-08-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STATUSES = ("queued", "sending", "sent", "failed", "cancelled", "superseded")


def _moment(name: str, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "case_replies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("conversation_id", sa.String(64), nullable=False),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                *STATUSES,
                name="case_reply_status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("attempts", sa.Integer(), nullable=False),
        _moment("next_attempt_at"),
        _moment("claimed_at", nullable=True),
        _moment("rendered_at", nullable=True),
        _moment("delivered_at", nullable=True),
        _moment("finished_at", nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
            name=op.f("fk_case_replies_case_id_cases"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["case_messages.id"],
            name=op.f("fk_case_replies_message_id_case_messages"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_case_replies")),
        sa.UniqueConstraint("message_id", name=op.f("uq_case_replies_message_id")),
    )
    op.create_index(op.f("ix_case_replies_case_id"), "case_replies", ["case_id"])
    op.create_index(op.f("ix_case_replies_conversation_id"), "case_replies", ["conversation_id"])
    op.create_index(
        op.f("ix_case_replies_status"),
        "case_replies",
        ["status", "channel", "next_attempt_at"],
    )


def downgrade() -> None:
    op.drop_table("case_replies")
