"""Caseworkers' organisations: the organisation on each sign-in code and console session.

With two organisations staffing the service, each one's caseworkers must see, take and answer
only its own cases (``cases.organisation_id``, set when a case opens). A caseworker's code
names her organisation (``invite NAME --role caseworker --organisation SLUG``) and the session
it opens keeps it. Every code and session before this migration gets none: an editor needs
none, and a caseworker signed in before it sees only the cases no organisation answers until
the operator names hers (``python -m actions.admin organisation NAME SLUG``) — never another
organisation's (docs/HANDOFF.md, "Caseworkers and organisations", says why). Self-contained
like the earlier migrations.

Revision ID: 0026
Revises: 0025
Create Date: 2021-09-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("console_sign_in_codes", "console_sessions")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("organisation_id", sa.Integer(), nullable=True))
            batch.create_foreign_key(
                op.f(f"fk_{table}_organisation_id_organisations"),
                "organisations",
                ["organisation_id"],
                ["id"],
            )


def downgrade() -> None:
    """Without the column every caseworker would see every organisation's cases again: their
    sessions are ended and their unused codes used up first, as 0009's downgrade does."""
    op.execute("DELETE FROM console_sessions WHERE role <> 'editor'")
    op.execute("DELETE FROM console_sign_in_codes WHERE role <> 'editor'")
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(
                op.f(f"fk_{table}_organisation_id_organisations"), type_="foreignkey"
            )
            batch.drop_column("organisation_id")
