"""Editor tokens for the admin HTTP API: who may change content over the network.

Only a SHA-256 hash of each token is stored (see ``actions/admin/tokens.py``); the token itself
is shown once, when it is created. Self-contained like the earlier migrations.

Revision ID: 0004
Revises: 0003
Create Date: 2021-08-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "editor_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("editor", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_editor_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_editor_tokens_token_hash")),
    )
    op.create_index(op.f("ix_editor_tokens_editor"), "editor_tokens", ["editor"])


def downgrade() -> None:
    """Drops every token: editors need new ones after upgrading again."""
    op.drop_index(op.f("ix_editor_tokens_editor"), table_name="editor_tokens")
    op.drop_table("editor_tokens")
