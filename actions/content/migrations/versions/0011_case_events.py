"""Case events for a helpdesk: the outbox of ``case.opened`` / ``message`` / ``taken`` / ``closed``.

One row per event, written in the transaction of the case change it describes and posted by the
notifier to ``CASE_WEBHOOK_URL`` (docs/HANDOFF.md, "Helpdesk webhooks"). Rows go with their case
(``ON DELETE CASCADE``): retention and "delete my data" remove them. Self-contained like the
earlier migrations.

Revision ID: 0011
Revises: 0009
Create Date: 2021-08-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STATUSES = ("queued", "sending", "sent", "failed")


def _moment(name: str, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "case_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(36), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("event_type", sa.String(16), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                *STATUSES,
                name="case_event_status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("attempts", sa.Integer(), nullable=False),
        _moment("created_at"),
        _moment("next_attempt_at"),
        _moment("claimed_at", nullable=True),
        _moment("sent_at", nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
            name=op.f("fk_case_events_case_id_cases"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_case_events")),
        sa.UniqueConstraint("event_id", name=op.f("uq_case_events_event_id")),
    )
    op.create_index(op.f("ix_case_events_case_id"), "case_events", ["case_id"])
    op.create_index(op.f("ix_case_events_status"), "case_events", ["status", "next_attempt_at"])


def downgrade() -> None:
    """Drops the events not sent yet with the rest: the cases themselves stay."""
    op.drop_index(op.f("ix_case_events_status"), table_name="case_events")
    op.drop_index(op.f("ix_case_events_case_id"), table_name="case_events")
    op.drop_table("case_events")
