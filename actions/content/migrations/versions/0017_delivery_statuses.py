"""Delivery statuses: what the provider said became of each alert and caseworker's reply.

``provider_message_id`` is the id the provider gave the message when it took it (a WhatsApp
``wamid.``, a Twilio ``SM…``), written by Rasa's channel; WhatsApp's webhook ``statuses`` and
Twilio's status callbacks name it, and their status (sent, delivered, read, failed), error
code and time are written beside it (``bot/channels/statuses.py``). No number is stored.
``cases.unreachable_at``: when the person's channel said they can no longer be reached (they
blocked the assistant, are not on WhatsApp, texted STOP), shown to their caseworker.
Self-contained like the earlier migrations.

Revision ID: 0017
Revises: 0016
Create Date: 2021-08-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OUTBOXES = ("alert_deliveries", "case_replies")


def upgrade() -> None:
    for table in OUTBOXES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("provider_message_id", sa.String(128), nullable=True))
            batch.add_column(sa.Column("provider_status", sa.String(16), nullable=True))
            batch.add_column(sa.Column("provider_error", sa.String(16), nullable=True))
            batch.add_column(sa.Column("status_at", sa.DateTime(timezone=True), nullable=True))
            batch.create_index(op.f(f"ix_{table}_provider_message_id"), ["provider_message_id"])
    with op.batch_alter_table("cases") as batch:
        batch.add_column(sa.Column("unreachable_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("cases") as batch:
        batch.drop_column("unreachable_at")
    for table in OUTBOXES:
        with op.batch_alter_table(table) as batch:
            batch.drop_index(op.f(f"ix_{table}_provider_message_id"))
            for column in ("status_at", "provider_error", "provider_status", "provider_message_id"):
                batch.drop_column(column)
