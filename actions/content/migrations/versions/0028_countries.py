"""Countries: where an airport is, and whom a flight evacuates people for.

``airports.country`` and ``flights.evacuates_for``, ISO 3166-1 codes ("DE"), so that "flights
to Germany" finds the flights to Germany's airports and the flights Germany evacuates people
on (a German Air Force flight to Tashkent). Nullable: existing records have none until an
editor gives it, and no country is guessed from a name or a text. The editing service checks
the codes, as it does the other optional fields: naming one more country needs its names in
every language, not a migration. Self-contained like the earlier migrations.

Revision ID: 0028
Revises: 0027
Create Date: 2021-09-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = (("airports", "country"), ("flights", "evacuates_for"))


def upgrade() -> None:
    # Plain ALTER TABLE on both databases: a batch copy of ``airports`` on SQLite would drop a
    # table the flights and gates refer to.
    for table, column in COLUMNS:
        op.add_column(table, sa.Column(column, sa.String(2), nullable=True))


def downgrade() -> None:
    """The countries editors gave are dropped with their columns."""
    for table, column in reversed(COLUMNS):
        op.drop_column(table, column)
