"""Fair asks: whom each ask counts as, and the groups editors hid as spam.

``claim_asks.asker`` says whom an ask counts as: 64 bits of a hash of the person tag Rasa put
on the message (``actions/content/asks.py`` ``asker_of``: one phone number, Telegram chat or web
chat client address), so the editors' pages count different people, not conversations one person
can open at will. Empty for asks kept before, and where the channel knows no address: such an
ask counts as its conversation.

``hidden_ask_groups``: a group of asks an editor hid as spam, by its ``group_key``, with who hid
it and when; it holds no person data, so "delete my data" and retention leave it alone, and
later asks in the same group stay hidden. Self-contained like the earlier migrations.

Revision ID: 0025
Revises: 0024
Create Date: 2021-09-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "hidden_ask_groups"
ABOUT = ("claim", "answer")


def upgrade() -> None:
    with op.batch_alter_table("claim_asks") as batch:
        batch.add_column(sa.Column("asker", sa.BigInteger(), nullable=True))
    op.create_table(
        TABLE,
        sa.Column("about", sa.String(16), nullable=False),
        sa.Column("group_key", sa.String(64), nullable=False),
        sa.Column("hidden_by", sa.String(64), nullable=False),
        sa.Column("hidden_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            f"about IN ({', '.join(repr(value) for value in ABOUT)})",
            name=op.f(f"ck_{TABLE}_about"),
        ),
        sa.PrimaryKeyConstraint("about", "group_key", name=op.f(f"pk_{TABLE}")),
    )


def downgrade() -> None:
    """Drops the hidden groups (they show again) and whom the asks counted as."""
    op.drop_table(TABLE)
    with op.batch_alter_table("claim_asks") as batch:
        batch.drop_column("asker")
