"""Places: where airports, gates and help points are, for "what is near me".

``latitude`` and ``longitude`` (WGS 84 decimal degrees, both or neither) on ``airports``,
``gates`` and ``guidance_topics`` (contacts only: a help point people can walk to). Nullable:
most records are not places, and a position nobody checked is left out rather than guessed.
Ranges and pairs are checked by the editing service (validation.degrees, rules.py), as the
other optional fields are. Self-contained like the earlier migrations.

Revision ID: 0020
Revises: 0019
Create Date: 2021-08-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PLACES = ("airports", "gates", "guidance_topics")


def upgrade() -> None:
    # Plain ALTER TABLE on both databases: a batch copy of ``airports`` on SQLite would drop a
    # table the flights and gates refer to.
    for table in PLACES:
        op.add_column(table, sa.Column("latitude", sa.Float(), nullable=True))
        op.add_column(table, sa.Column("longitude", sa.Float(), nullable=True))


def downgrade() -> None:
    for table in PLACES:
        op.drop_column(table, "longitude")
        op.drop_column(table, "latitude")
