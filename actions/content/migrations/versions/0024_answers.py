"""Answers: editors' answers to the questions people ask that no fixed topic answers.

A table of its own with the provenance every fact has and the ways people ask it as a JSON list
on its row, like a claim's. The revisions' ``kind`` gains ``answer``. The asks (``claim_asks``)
now hold both what people asked about rumours and the questions nobody had answered: ``about``
says which, ``answer_id`` names the answer editors wrote for a question's group. The alerts'
``topic`` gains ``answers`` (those who asked are told once, as for a rumour's verdict).
Self-contained like the earlier migrations.

Revision ID: 0024
Revises: 0023
Create Date: 2021-09-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LANGUAGES = ("en", "prs", "ps")
TABLE = "answers"
KINDS = (
    "organisation",
    "airport-name",
    "airport",
    "gate",
    "flight",
    "announcement",
    "guidance",
    "claim",
)
TOPICS = ("airport", "flights", "announcements", "claims")
TOPIC_TABLES = ("alert_subscriptions", "alert_broadcasts")
ABOUT = ("claim", "answer")
CURRENT = "withdrawn_at IS NULL"


def _utc() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _localised(field: str, type_: sa.types.TypeEngine[str]) -> list[sa.Column[str]]:
    return [sa.Column(f"{field}_{lang}", type_, nullable=False) for lang in LANGUAGES]


def _allowed(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(value) for value in values)})"


def _checked(table: str, column: str, values: tuple[str, ...]) -> None:
    with op.batch_alter_table(table) as batch:
        batch.drop_constraint(op.f(f"ck_{table}_{column}"), type_="check")
        batch.create_check_constraint(op.f(f"ck_{table}_{column}"), _allowed(column, values))


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        *_localised("question", sa.String(200)),
        *_localised("answer", sa.Text()),
        sa.Column("phrasings", sa.JSON(), nullable=False),
        sa.Column("valid_until", _utc(), nullable=True),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("verified_at", _utc(), nullable=False),
        sa.Column("withdrawn_at", _utc(), nullable=True),
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
    _checked("revisions", "kind", (*KINDS, "answer"))
    for table in TOPIC_TABLES:
        _checked(table, "topic", (*TOPICS, "answers"))
    with op.batch_alter_table("claim_asks") as batch:
        batch.add_column(sa.Column("about", sa.String(16), nullable=False, server_default="claim"))
        batch.add_column(sa.Column("answer_id", sa.Integer(), nullable=True))
        batch.create_check_constraint(op.f("ck_claim_asks_about"), _allowed("about", ABOUT))
        batch.create_foreign_key(
            op.f("fk_claim_asks_answer_id_answers"),
            TABLE,
            ["answer_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch.create_index(op.f("ix_claim_asks_answer_id"), ["answer_id"])


def downgrade() -> None:
    """Drops the answers, their history and the asks for them."""
    op.execute(sa.text("DELETE FROM claim_asks WHERE about = 'answer'"))
    with op.batch_alter_table("claim_asks") as batch:
        batch.drop_index(op.f("ix_claim_asks_answer_id"))
        batch.drop_constraint(op.f("fk_claim_asks_answer_id_answers"), type_="foreignkey")
        batch.drop_constraint(op.f("ck_claim_asks_about"), type_="check")
        batch.drop_column("answer_id")
        batch.drop_column("about")
    answers = "SELECT id FROM alert_broadcasts WHERE topic = 'answers'"
    op.execute(sa.text(f"DELETE FROM alert_deliveries WHERE broadcast_id IN ({answers})"))
    op.execute(sa.text("DELETE FROM alert_broadcasts WHERE topic = 'answers'"))
    for table in TOPIC_TABLES:
        _checked(table, "topic", TOPICS)
    op.execute(sa.text("DELETE FROM revisions WHERE kind = 'answer'"))
    _checked("revisions", "kind", KINDS)
    op.drop_index(op.f(f"ix_{TABLE}_current_checks"), table_name=TABLE)
    op.drop_table(TABLE)
