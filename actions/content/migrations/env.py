"""Alembic environment: runs migrations on the connection handed over by ``migrate.py``.

Not a package module on purpose (no ``__init__.py`` here): the action server imports every
module under ``actions/``, and this file only works inside an Alembic run.
"""

from alembic import context
from sqlalchemy.engine import Connection

from actions.content.db import get_engine
from actions.schema import metadata


def run_migrations(connection: Connection) -> None:
    # render_as_batch: SQLite cannot ALTER most things; batch mode lets later migrations work.
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit(
        "offline (--sql) migrations are not supported; run `python -m actions.content migrate`"
    )

handed_over = context.config.attributes.get("connection")
if handed_over is not None:
    run_migrations(handed_over)
else:
    with get_engine().begin() as own_connection:
        run_migrations(own_connection)
