"""Which editor token opened a console session, so that revoking the token ends the session.

``console_sessions.token_id`` is empty for sessions opened with a one-time code (and for every
session opened before this migration: those end with ``signout NAME`` or by expiring). A token
row is never deleted by the product (revoking keeps it); if one is deleted by hand, its
sessions go with it. Self-contained like the earlier migrations.

Revision ID: 0016
Revises: 0015
Create Date: 2021-08-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("console_sessions") as batch:
        batch.add_column(sa.Column("token_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_console_sessions_token_id_editor_tokens"),
            "editor_tokens",
            ["token_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch.create_index(op.f("ix_console_sessions_token_id"), ["token_id"])


def downgrade() -> None:
    with op.batch_alter_table("console_sessions") as batch:
        batch.drop_index(op.f("ix_console_sessions_token_id"))
        batch.drop_constraint(
            op.f("fk_console_sessions_token_id_editor_tokens"), type_="foreignkey"
        )
        batch.drop_column("token_id")
