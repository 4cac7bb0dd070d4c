"""Alerts and replies sent as several messages: the ids of the messages after the first.

A WhatsApp text longer than 4,096 characters, or a Twilio WhatsApp one longer than 1,600, goes
out as several messages, each with its own provider id; the row kept only the first
(``provider_message_id``), so a status of another part (its failure) found no row and was lost.
``provider_messages`` holds the others, each naming its alert delivery or case reply; deleted
with it (``ON DELETE CASCADE``: a WhatsApp message id holds the person's number).
``ix_alert_deliveries_outcome`` (broadcast, status, provider status): the console counts what
became of the latest broadcasts' alerts from it alone (``actions/admin/console/alert_outcomes.py``).
Self-contained like the earlier migrations.

Revision ID: 0022
Revises: 0021
Create Date: 2021-08-31
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "provider_messages"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("message_id", sa.String(128), nullable=False),
        sa.Column("alert_delivery_id", sa.Integer(), nullable=True),
        sa.Column("case_reply_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["alert_delivery_id"],
            ["alert_deliveries.id"],
            name=op.f(f"fk_{TABLE}_alert_delivery_id_alert_deliveries"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["case_reply_id"],
            ["case_replies.id"],
            name=op.f(f"fk_{TABLE}_case_reply_id_case_replies"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("message_id", name=op.f(f"pk_{TABLE}")),
    )
    op.create_index(op.f(f"ix_{TABLE}_alert_delivery_id"), TABLE, ["alert_delivery_id"])
    op.create_index(op.f(f"ix_{TABLE}_case_reply_id"), TABLE, ["case_reply_id"])
    op.create_index(
        "ix_alert_deliveries_outcome",
        "alert_deliveries",
        ["broadcast_id", "status", "provider_status"],
    )


def downgrade() -> None:
    op.drop_index("ix_alert_deliveries_outcome", table_name="alert_deliveries")
    op.drop_index(op.f(f"ix_{TABLE}_case_reply_id"), table_name=TABLE)
    op.drop_index(op.f(f"ix_{TABLE}_alert_delivery_id"), table_name=TABLE)
    op.drop_table(TABLE)
