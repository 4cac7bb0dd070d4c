"""Alerts: subscriptions, sealed addresses, and the outbox (broadcasts and their deliveries).

Addresses are sealed by the bot runtime with a key that is never in this database
(actions/alerts/models.py, docs/DATA_PROTECTION.md). Self-contained like the earlier migrations.

Revision ID: 0006
Revises: 0005
Create Date: 2021-08-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TOPICS = ("airport", "flights", "announcements")
STATUSES = ("queued", "sending", "sent", "failed", "cancelled", "superseded")


def _choice(name: str, values: tuple[str, ...]) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=16)


def _when(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "alert_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("conversation_id", sa.String(64), nullable=False),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("topic", _choice("topic", TOPICS), nullable=False),
        sa.Column("topic_key", sa.String(16), nullable=False),
        sa.Column("language", sa.String(3), nullable=False),
        _when("created_at"),
        _when("expires_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alert_subscriptions")),
        sa.UniqueConstraint(
            "conversation_id",
            "topic",
            "topic_key",
            name=op.f("uq_alert_subscriptions_conversation_id_topic_topic_key"),
        ),
    )
    op.create_index(
        op.f("ix_alert_subscriptions_conversation_id"), "alert_subscriptions", ["conversation_id"]
    )
    op.create_index(
        op.f("ix_alert_subscriptions_expires_at"), "alert_subscriptions", ["expires_at"]
    )
    op.create_index(
        op.f("ix_alert_subscriptions_topic"), "alert_subscriptions", ["topic", "topic_key"]
    )

    op.create_table(
        "alert_addresses",
        sa.Column("conversation_id", sa.String(64), nullable=False),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("key_id", sa.String(16), nullable=False),
        sa.Column("sealed", sa.Text(), nullable=False),
        _when("created_at"),
        _when("expires_at"),
        sa.PrimaryKeyConstraint("conversation_id", name=op.f("pk_alert_addresses")),
    )
    op.create_index(op.f("ix_alert_addresses_expires_at"), "alert_addresses", ["expires_at"])

    op.create_table(
        "alert_broadcasts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("revision_id", sa.Integer(), nullable=False),
        sa.Column("topic", _choice("topic", TOPICS), nullable=False),
        sa.Column("topic_key", sa.String(16), nullable=False),
        sa.Column("editor", sa.String(64), nullable=False),
        _when("created_at"),
        sa.ForeignKeyConstraint(
            ["revision_id"],
            ["revisions.id"],
            name=op.f("fk_alert_broadcasts_revision_id_revisions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alert_broadcasts")),
    )
    op.create_index(op.f("ix_alert_broadcasts_created_at"), "alert_broadcasts", ["created_at"])
    op.create_index(op.f("ix_alert_broadcasts_revision_id"), "alert_broadcasts", ["revision_id"])
    op.create_index(op.f("ix_alert_broadcasts_topic"), "alert_broadcasts", ["topic", "topic_key"])

    op.create_table(
        "alert_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("broadcast_id", sa.Integer(), nullable=False),
        sa.Column("conversation_id", sa.String(64), nullable=False),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("status", _choice("status", STATUSES), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        _when("next_attempt_at"),
        _when("claimed_at", nullable=True),
        _when("rendered_at", nullable=True),
        _when("delivered_at", nullable=True),
        _when("finished_at", nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
        sa.ForeignKeyConstraint(
            ["broadcast_id"],
            ["alert_broadcasts.id"],
            name=op.f("fk_alert_deliveries_broadcast_id_alert_broadcasts"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alert_deliveries")),
        sa.UniqueConstraint(
            "broadcast_id",
            "conversation_id",
            name=op.f("uq_alert_deliveries_broadcast_id_conversation_id"),
        ),
    )
    op.create_index(
        op.f("ix_alert_deliveries_conversation_id"), "alert_deliveries", ["conversation_id"]
    )
    op.create_index(
        op.f("ix_alert_deliveries_status"),
        "alert_deliveries",
        ["status", "channel", "next_attempt_at"],
    )


def downgrade() -> None:
    """Drops every subscription and queued alert: subscribers must subscribe again."""
    for table in ("alert_deliveries", "alert_broadcasts", "alert_addresses", "alert_subscriptions"):
        op.drop_table(table)
