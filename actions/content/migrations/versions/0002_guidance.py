"""Guidance topics: documents to bring, who may board, who can help (contacts).

Self-contained like 0001 (no import of the models). The two CHECK constraints repeat the
models' ``CONTACT_COMPLETE`` and ``DETAILS_ONLY_ON_CONTACTS`` as they are today.

Revision ID: 0002
Revises: 0001
Create Date: 2021-08-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LANGUAGES = ("en", "prs", "ps")
TABLE = "guidance_topics"
KINDS = ("documents", "eligibility", "contacts")
CONTACT_COMPLETE = (
    "kind <> 'contacts' OR (organisation_id IS NOT NULL"
    " AND hours_en IS NOT NULL AND hours_prs IS NOT NULL AND hours_ps IS NOT NULL"
    " AND (phone IS NOT NULL OR whatsapp IS NOT NULL OR email IS NOT NULL))"
)
DETAILS_ONLY_ON_CONTACTS = (
    "kind = 'contacts' OR (organisation_id IS NULL AND phone IS NULL AND whatsapp IS NULL"
    " AND email IS NULL AND hours_en IS NULL AND hours_prs IS NULL AND hours_ps IS NULL)"
)


def _utc() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _localised(
    field: str, type_: sa.types.TypeEngine[str], nullable: bool = False
) -> list[sa.Column[str]]:
    return [sa.Column(f"{field}_{lang}", type_, nullable=nullable) for lang in LANGUAGES]


def upgrade() -> None:
    allowed = ", ".join(f"'{kind}'" for kind in KINDS)
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        *_localised("title", sa.String(200)),
        *_localised("body", sa.Text()),
        sa.Column("organisation_id", sa.Integer(), nullable=True),
        sa.Column("phone", sa.String(32), nullable=True),
        sa.Column("whatsapp", sa.String(32), nullable=True),
        sa.Column("email", sa.String(254), nullable=True),
        *_localised("hours", sa.String(200), nullable=True),
        sa.Column("valid_until", _utc(), nullable=True),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("verified_at", _utc(), nullable=False),
        sa.CheckConstraint(f"kind IN ({allowed})", name=op.f(f"ck_{TABLE}_kind")),
        sa.CheckConstraint(CONTACT_COMPLETE, name=op.f(f"ck_{TABLE}_contact_complete")),
        sa.CheckConstraint(
            DETAILS_ONLY_ON_CONTACTS, name=op.f(f"ck_{TABLE}_details_only_on_contacts")
        ),
        sa.ForeignKeyConstraint(
            ["organisation_id"],
            ["organisations.id"],
            name=op.f(f"fk_{TABLE}_organisation_id_organisations"),
        ),
        sa.ForeignKeyConstraint(
            ["source_id"], ["organisations.id"], name=op.f(f"fk_{TABLE}_source_id_organisations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{TABLE}")),
        sa.UniqueConstraint("slug", name=op.f(f"uq_{TABLE}_slug")),
    )
    op.create_index(op.f(f"ix_{TABLE}_kind"), TABLE, ["kind"])


def downgrade() -> None:
    op.drop_index(op.f(f"ix_{TABLE}_kind"), table_name=TABLE)
    op.drop_table(TABLE)
