"""Content CLI: ``python -m actions.content migrate`` | ``seed [--reset]``.

Prints one line on success; on failure prints what went wrong and what to do, and exits 1.
"""

from __future__ import annotations

import argparse
import logging
import sys
from datetime import datetime, timezone

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from actions.content.db import URL_ENV, describe, get_engine
from actions.content.migrate import current_revision, head_revision, upgrade_to_head
from actions.content.seed.loader import DEMO_FILE, SeedError, clear, has_content, load, read_file


class CommandError(Exception):
    """A failure the user can act on; its message is printed as is."""


def migrate(engine: Engine) -> str:
    revision = upgrade_to_head(engine)
    return f"Content database {describe(engine)} is at migration {revision} (latest)."


def seed(engine: Engine, reset: bool) -> str:
    document = read_file(DEMO_FILE)  # a bad file fails before the database is touched
    current, head = current_revision(engine), head_revision()
    if current != head:
        raise CommandError(
            f"the content database {describe(engine)} is at migration {current or 'none'}, "
            f"the code needs {head}: run `python -m actions.content migrate` first"
        )
    with Session(engine) as session, session.begin():
        if has_content(session) and not reset:
            return (
                f"Content database {describe(engine)} already has content; nothing seeded "
                "(use `seed --reset` to replace it with the demo data)."
            )
        if reset:
            clear(session)
        summary = load(session, document, datetime.now(timezone.utc))
    replaced = "replaced all content with" if reset else "loaded"
    return f"Seeded {describe(engine)}: {replaced} {summary} from {DEMO_FILE.name}."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m actions.content",
        description=f"Manage the content database ({URL_ENV}, default var/content.db).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("migrate", help="create or upgrade the schema to the latest migration")
    seed_parser = commands.add_parser("seed", help="load the demo content into an empty database")
    seed_parser.add_argument(
        "--reset", action="store_true", help="delete all existing content first"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    try:
        engine = get_engine()
        message = migrate(engine) if args.command == "migrate" else seed(engine, args.reset)
    except (CommandError, SeedError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except SQLAlchemyError as error:
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        print(
            f"error: cannot use the content database ({reason}). "
            f"Check {URL_ENV} and that the database is running.",
            file=sys.stderr,
        )
        return 1
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(message)
    return 0


if __name__ == "__main__":
    sys.exit(main())
