"""Flights by destination and departure: answers stay fast with thousands of flights.

Measured with scripts/bench_content.py (10 000 flights, SQLite without statistics): "which
destinations have flights" and "flights to <a place with no or few flights>" walked every
upcoming flight in departure order (10–15 ms); with this index each destination is one probe
that stops at its first upcoming flight (about 1 ms). Self-contained like the earlier migrations.

Revision ID: 0005
Revises: 0004
Create Date: 2021-08-26
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "ix_flights_destination_id_departs_at"


def upgrade() -> None:
    op.create_index(op.f(INDEX), "flights", ["destination_id", "departs_at"])


def downgrade() -> None:
    op.drop_index(op.f(INDEX), table_name="flights")
