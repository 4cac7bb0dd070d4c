"""Initial content schema: organisations, airports, airport statuses, gates, flights, announcements.

Self-contained on purpose (no import of the models): a migration must keep creating the schema
of its day however the models change later. Constraint names follow the models' naming
convention, so later (batch) migrations can refer to them on SQLite and PostgreSQL alike.

Revision ID: 0001
Revises:
Create Date: 2021-08-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.schema import SchemaItem

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LANGUAGES = ("en", "prs", "ps")


def _utc() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _localised(field: str, type_: sa.types.TypeEngine[str]) -> list[sa.Column[str]]:
    return [sa.Column(f"{field}_{lang}", type_, nullable=False) for lang in LANGUAGES]


def _choice(table: str, column: str, values: tuple[str, ...]) -> list[SchemaItem]:
    allowed = ", ".join(f"'{value}'" for value in values)
    return [
        sa.Column(column, sa.String(16), nullable=False),
        sa.CheckConstraint(f"{column} IN ({allowed})", name=op.f(f"ck_{table}_{column}")),
    ]


def _provenance(table: str, *, volatile: bool) -> list[SchemaItem]:
    return [
        sa.Column("valid_until", _utc(), nullable=not volatile),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("verified_at", _utc(), nullable=False),
        sa.ForeignKeyConstraint(
            ["source_id"],
            ["organisations.id"],
            name=op.f(f"fk_{table}_source_id_organisations"),
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "organisations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        *_localised("name", sa.String(200)),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_organisations")),
        sa.UniqueConstraint("slug", name=op.f("uq_organisations_slug")),
    )
    op.create_table(
        "airports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("iata", sa.String(3), nullable=False),
        sa.Column("place", sa.String(64), nullable=False),
        *_localised("name", sa.String(200)),
        *_localised("city", sa.String(200)),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_airports")),
        sa.UniqueConstraint("iata", name=op.f("uq_airports_iata")),
    )
    op.create_index(op.f("ix_airports_place"), "airports", ["place"])
    op.create_table(
        "airport_statuses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("airport_id", sa.Integer(), nullable=False),
        *_choice("airport_statuses", "state", ("open", "restricted", "closed")),
        *_localised("advice", sa.Text()),
        *_provenance("airport_statuses", volatile=True),
        sa.ForeignKeyConstraint(
            ["airport_id"], ["airports.id"], name=op.f("fk_airport_statuses_airport_id_airports")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_airport_statuses")),
        sa.UniqueConstraint("airport_id", name=op.f("uq_airport_statuses_airport_id")),
    )
    op.create_table(
        "gates",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("airport_id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        *_localised("name", sa.String(200)),
        *_choice("gates", "state", ("open", "closed")),
        *_localised("note", sa.Text()),
        *_provenance("gates", volatile=True),
        sa.ForeignKeyConstraint(
            ["airport_id"], ["airports.id"], name=op.f("fk_gates_airport_id_airports")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gates")),
        sa.UniqueConstraint("airport_id", "slug", name=op.f("uq_gates_airport_id_slug")),
    )
    op.create_table(
        "flights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("flight_number", sa.String(16), nullable=False),
        sa.Column("operator_id", sa.Integer(), nullable=False),
        sa.Column("origin_id", sa.Integer(), nullable=False),
        sa.Column("destination_id", sa.Integer(), nullable=False),
        sa.Column("departs_at", _utc(), nullable=False),
        *_choice(
            "flights", "status", ("scheduled", "boarding", "departed", "delayed", "cancelled")
        ),
        *_localised("eligibility", sa.Text()),
        *_localised("assembly_point", sa.Text()),
        *_provenance("flights", volatile=True),
        sa.ForeignKeyConstraint(
            ["operator_id"], ["organisations.id"], name=op.f("fk_flights_operator_id_organisations")
        ),
        sa.ForeignKeyConstraint(
            ["origin_id"], ["airports.id"], name=op.f("fk_flights_origin_id_airports")
        ),
        sa.ForeignKeyConstraint(
            ["destination_id"], ["airports.id"], name=op.f("fk_flights_destination_id_airports")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_flights")),
    )
    op.create_index(op.f("ix_flights_flight_number"), "flights", ["flight_number"])
    op.create_index(op.f("ix_flights_departs_at"), "flights", ["departs_at"])
    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("issuer_id", sa.Integer(), nullable=False),
        *_choice("announcements", "kind", ("amnesty", "government", "evacuation", "safety")),
        sa.Column("published_at", _utc(), nullable=False),
        *_choice("announcements", "verification", ("verified", "unverified", "disputed")),
        *_localised("title", sa.String(200)),
        *_localised("text", sa.Text()),
        *_provenance("announcements", volatile=False),
        sa.ForeignKeyConstraint(
            ["issuer_id"],
            ["organisations.id"],
            name=op.f("fk_announcements_issuer_id_organisations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_announcements")),
        sa.UniqueConstraint("slug", name=op.f("uq_announcements_slug")),
    )
    op.create_index(op.f("ix_announcements_published_at"), "announcements", ["published_at"])


def downgrade() -> None:
    op.drop_table("announcements")
    op.drop_table("flights")
    op.drop_table("gates")
    op.drop_table("airport_statuses")
    op.drop_table("airports")
    op.drop_table("organisations")
