"""Telling those who asked about a rumour: the alerts' ``topic`` gains ``claims``.

When editors publish the verdict on a rumour people asked about, each asker who wanted to be
told gets it once through the alerts' outbox (``actions/claims/askers.py``): a broadcast of
topic ``claims`` and one delivery per asker. Nobody subscribes to it; the subscriptions' CHECK
gains the value too, so both tables keep the one list of topics the models have.
Self-contained like the earlier migrations.

Revision ID: 0021
Revises: 0020
Create Date: 2021-08-31
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BEFORE = ("airport", "flights", "announcements")
AFTER = (*BEFORE, "claims")
TABLES = ("alert_subscriptions", "alert_broadcasts")


def _topics(values: tuple[str, ...]) -> None:
    allowed = f"topic IN ({', '.join(repr(value) for value in values)})"
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(op.f(f"ck_{table}_topic"), type_="check")
            batch.create_check_constraint(op.f(f"ck_{table}_topic"), allowed)


def upgrade() -> None:
    _topics(AFTER)


def downgrade() -> None:
    op.execute(
        "DELETE FROM alert_deliveries WHERE broadcast_id IN "
        "(SELECT id FROM alert_broadcasts WHERE topic = 'claims')"
    )
    op.execute("DELETE FROM alert_broadcasts WHERE topic = 'claims'")
    _topics(BEFORE)
