"""Danger first: which dangers a contact's line answers, and when it answers.

``dangers`` ("missing,medical": a lost or missing relative, a medical emergency, a threat) and
``open_hours`` ("08:00-16:00" daily in Kabul time; "00:00-00:00" day and night) on
``guidance_topics``, contacts only (checked by the editing service, rules.py, as the other
contact details are). Nullable: a contact that answers no danger says none, and one without
hours is read from its hours text as before. Self-contained like the earlier migrations.

Revision ID: 0023
Revises: 0022
Create Date: 2021-08-31
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("guidance_topics", sa.Column("dangers", sa.String(64), nullable=True))
    op.add_column("guidance_topics", sa.Column("open_hours", sa.String(11), nullable=True))


def downgrade() -> None:
    op.drop_column("guidance_topics", "open_hours")
    op.drop_column("guidance_topics", "dangers")
