"""Indexes that let the console's "what needs me now" count and list only the rows that need it.

Measured with ``make bench-console`` (10 000 flights, 1 000 announcements): counting the flights
past or near their freshness limit read every current flight row (12 ms on SQLite), and finding
texts that lack a translation read every flight and announcement (8 ms). Partial indexes on
current records only (``withdrawn_at IS NULL``):

* ``…_current_checks`` (``verified_at``, ``valid_until``, …): the stale and soon-stale counts and
  the oldest checks are ranges of this index (only the flights in the range are read);
* ``ix_flights_current_expiry`` (``valid_until``, …): the same for flights that expired lately;
* ``ix_flights_departs_at_flight_number``, all flights in the records list's order: a search
  by number (``LIKE '%871%'``) reads the numbers from the index, not every row (21 → 1 ms);
* ``…_untranslated``: only the rows with an empty language column, so finding none costs
  nothing. Its condition is written exactly as ``actions/content/review.py`` queries it (the
  columns in the same order, compared with a literal ``''``): a database uses a partial index
  only for a query whose condition implies the index's.

Self-contained like the earlier migrations.

Revision ID: 0013
Revises: 0011
Create Date: 2021-08-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CURRENT = "withdrawn_at IS NULL"
LANGUAGES = ("en", "prs", "ps")
#: The user-facing texts of each table, in the order the records' fields list them.
TEXTS = {
    "flights": ("eligibility", "assembly_point"),
    "announcements": ("title", "text"),
}


def untranslated(table: str) -> str:
    """``withdrawn_at IS NULL AND (title_en = '' OR title_prs = '' OR …)``."""
    empty = " OR ".join(f"{text}_{lang} = ''" for text in TEXTS[table] for lang in LANGUAGES)
    return f"{CURRENT} AND ({empty})"


#: (index, table, columns, which rows: None for all)
INDEXES = (
    ("ix_flights_current_checks", "flights", ("verified_at", "valid_until", "departs_at"), CURRENT),
    ("ix_flights_current_expiry", "flights", ("valid_until", "departs_at", "verified_at"), CURRENT),
    (
        "ix_flights_untranslated",
        "flights",
        ("departs_at", "flight_number"),
        untranslated("flights"),
    ),
    ("ix_flights_departs_at_flight_number", "flights", ("departs_at", "flight_number"), None),
    ("ix_announcements_current_checks", "announcements", ("verified_at", "valid_until"), CURRENT),
    (
        "ix_announcements_untranslated",
        "announcements",
        ("published_at", "id"),
        untranslated("announcements"),
    ),
)


def upgrade() -> None:
    for name, table, columns, rows in INDEXES:
        where = None if rows is None else sa.text(rows)
        op.create_index(name, table, list(columns), sqlite_where=where, postgresql_where=where)


def downgrade() -> None:
    for name, table, _, _ in reversed(INDEXES):
        op.drop_index(name, table_name=table)
