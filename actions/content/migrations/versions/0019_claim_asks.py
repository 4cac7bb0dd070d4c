"""What people asked about rumours: ``claim_asks`` (``actions/content/claim_asks.py``).

Each ask is stored masked, grouped by ``group_key``; ``claim_id`` names the claim it matched or
the one editors later wrote for its group; ``wants_answer`` / ``answer_by`` (at most 72 hours)
/ ``told_at`` carry the offer to be told once. Self-contained like the earlier migrations.

Revision ID: 0019
Revises: 0018
Create Date: 2021-08-31
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "claim_asks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("conversation_id", sa.String(64), nullable=False),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("masked_text", sa.Text(), nullable=False),
        sa.Column("group_key", sa.String(64), nullable=False),
        sa.Column("claim_id", sa.Integer(), nullable=True),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wants_answer", sa.Boolean(), nullable=False),
        sa.Column("answer_by", sa.DateTime(timezone=True), nullable=True),
        sa.Column("told_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["claim_id"],
            ["claims.id"],
            name=op.f("fk_claim_asks_claim_id_claims"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_claim_asks")),
    )
    op.create_index(op.f("ix_claim_asks_conversation_id"), "claim_asks", ["conversation_id"])
    op.create_index(op.f("ix_claim_asks_claim_id"), "claim_asks", ["claim_id"])
    op.create_index(
        op.f("ix_claim_asks_group_key_asked_at"), "claim_asks", ["group_key", "asked_at"]
    )


def downgrade() -> None:
    op.drop_table("claim_asks")
