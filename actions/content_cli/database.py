"""``migrate`` and ``seed``: create the schema, load the demo content."""

from __future__ import annotations

import argparse

from sqlalchemy import Engine

from actions.common.clock import utc_now_to_second
from actions.content.db import describe
from actions.content.migrate import upgrade_to_head
from actions.content.seed.loader import DEMO_FILE, SEED_EDITOR, has_content, read_demo
from actions.content_cli.common import command_transaction, parser_for
from actions.publishing import clear, load


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser_for(commands, "migrate", "create or upgrade the schema to the latest migration", migrate)
    seed_parser = parser_for(
        commands,
        "seed",
        "load the demo content into an empty database",
        seed,
        description=(
            "Load the demo content (actions/content/seed/demo.yml) into an empty database, "
            f"recorded as revisions by editor {SEED_EDITOR!r}. For demos and development: "
            "real content comes in with `import`."
        ),
    )
    seed_parser.add_argument(
        "--reset",
        action="store_true",
        help="delete all existing content AND its history first (demo databases only)",
    )


def migrate(args: argparse.Namespace, engine: Engine) -> str:
    revision = upgrade_to_head(engine)
    return f"Content database {describe(engine)} is at migration {revision} (latest)."


def seed(args: argparse.Namespace, engine: Engine) -> str:
    document = read_demo(DEMO_FILE)  # a bad file fails before the database is touched
    with command_transaction(engine) as session:
        if has_content(session) and not args.reset:
            return (
                f"Content database {describe(engine)} already has content; nothing seeded "
                "(use `seed --reset` to replace it with the demo data)."
            )
        if args.reset:
            clear(session)
        summary = load(session, document, utc_now_to_second(), note="demo content")
    replaced = "replaced all content with" if args.reset else "loaded"
    return f"Seeded {describe(engine)}: {replaced} {summary} from {DEMO_FILE.name}."
