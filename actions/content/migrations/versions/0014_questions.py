"""What people ask: turns counted by UTC hour and by intent, by language and script, by
channel, and the masked messages the assistant could not answer (docs/DATA_PROTECTION.md,
docs/CONSOLE.md).

Written by the bot runtime's tracker store (``bot/question_log.py``), read by the console's
questions page, purged with the conversations. Self-contained like the earlier migrations.

Revision ID: 0014
Revises: 0013
Create Date: 2021-08-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "question_counts",
        sa.Column("hour", sa.DateTime(timezone=True), nullable=False),
        sa.Column("facet", sa.String(16), nullable=False),
        sa.Column("value", sa.String(64), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("hour", "facet", "value", name=op.f("pk_question_counts")),
    )
    op.create_table(
        "unanswered_questions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("conversation_tag", sa.BigInteger(), nullable=False),
        sa.Column("wording", sa.BigInteger(), nullable=False),
        sa.Column("intent", sa.String(64), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("script", sa.String(4), nullable=False),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("text", sa.String(240), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_unanswered_questions")),
    )
    op.create_index(op.f("ix_unanswered_questions_asked_at"), "unanswered_questions", ["asked_at"])
    op.create_index(
        op.f("ix_unanswered_questions_conversation_tag"),
        "unanswered_questions",
        ["conversation_tag"],
    )
    op.create_index(
        "ix_unanswered_questions_wording_conversation_tag_asked_at",
        "unanswered_questions",
        ["wording", "conversation_tag", "asked_at"],
    )


def downgrade() -> None:
    op.drop_index(
        "ix_unanswered_questions_wording_conversation_tag_asked_at",
        table_name="unanswered_questions",
    )
    op.drop_index(
        op.f("ix_unanswered_questions_conversation_tag"), table_name="unanswered_questions"
    )
    op.drop_index(op.f("ix_unanswered_questions_asked_at"), table_name="unanswered_questions")
    op.drop_table("unanswered_questions")
    op.drop_table("question_counts")
