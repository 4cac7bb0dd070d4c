"""Claims: rumours as people tell them, with the editors' verdict.

A table of its own with the provenance every fact has, the ways people say a claim as a JSON
list on its row (so a revision carries them) and, optionally, the record it is about. The
revisions' ``kind`` gains ``claim``. Self-contained like the earlier migrations.

Revision ID: 0018
Revises: 0017
Create Date: 2021-08-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LANGUAGES = ("en", "prs", "ps")
TABLE = "claims"
VERDICTS = ("false", "misleading", "true", "unverified", "being_checked")
ABOUT = ("airport", "gate", "flight", "announcement", "guidance")
KINDS = ("organisation", "airport-name", "airport", "gate", "flight", "announcement", "guidance")
CURRENT = "withdrawn_at IS NULL"


def _utc() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _localised(field: str, type_: sa.types.TypeEngine[str]) -> list[sa.Column[str]]:
    return [sa.Column(f"{field}_{lang}", type_, nullable=False) for lang in LANGUAGES]


def _allowed(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(value) for value in values)})"


def _revision_kinds(kinds: tuple[str, ...]) -> None:
    with op.batch_alter_table("revisions") as batch:
        batch.drop_constraint(op.f("ck_revisions_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_revisions_kind"), _allowed("kind", kinds))


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
        *_localised("claim", sa.String(200)),
        *_localised("explanation", sa.Text()),
        sa.Column("phrasings", sa.JSON(), nullable=False),
        sa.Column("about_kind", sa.String(16), nullable=True),
        sa.Column("about_key", sa.String(128), nullable=True),
        sa.Column("valid_until", _utc(), nullable=True),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("verified_at", _utc(), nullable=False),
        sa.Column("withdrawn_at", _utc(), nullable=True),
        sa.CheckConstraint(_allowed("verdict", VERDICTS), name=op.f(f"ck_{TABLE}_verdict")),
        sa.CheckConstraint(_allowed("about_kind", ABOUT), name=op.f(f"ck_{TABLE}_about_kind")),
        sa.CheckConstraint(
            "(about_kind IS NULL) = (about_key IS NULL)", name=op.f(f"ck_{TABLE}_about_complete")
        ),
        sa.ForeignKeyConstraint(
            ["source_id"], ["organisations.id"], name=op.f(f"fk_{TABLE}_source_id_organisations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{TABLE}")),
        sa.UniqueConstraint("slug", name=op.f(f"uq_{TABLE}_slug")),
    )
    op.create_index(
        op.f(f"ix_{TABLE}_current_checks"),
        TABLE,
        ["verified_at", "valid_until"],
        sqlite_where=sa.text(CURRENT),
        postgresql_where=sa.text(CURRENT),
    )
    _revision_kinds((*KINDS, "claim"))


def downgrade() -> None:
    """Drops the claims and their history: revisions of a kind that no longer exists."""
    op.execute(sa.text("DELETE FROM revisions WHERE kind = 'claim'"))
    _revision_kinds(KINDS)
    op.drop_index(op.f(f"ix_{TABLE}_current_checks"), table_name=TABLE)
    op.drop_table(TABLE)
