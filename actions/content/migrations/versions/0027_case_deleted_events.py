"""Case events that outlive their case: ``case.deleted``.

A person's "delete my data" deletes their cases and every event of them not sent yet; a
helpdesk that heard of a case is sent ``case.deleted`` so that it deletes its copy of the
person's words too. That event cannot name the case's row, which is deleted in the same
transaction: ``case_events.case_id`` may now be empty. Self-contained like the earlier
migrations.

Revision ID: 0027
Revises: 0026
Create Date: 2021-09-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("case_events") as batch:
        batch.alter_column("case_id", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    """The deletions not sent yet are dropped: the column cannot hold them."""
    op.execute("DELETE FROM case_events WHERE case_id IS NULL")
    with op.batch_alter_table("case_events") as batch:
        batch.alter_column("case_id", existing_type=sa.Integer(), nullable=False)
