"""What every command shares: opening the database and showing revisions."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from actions.common.transactions import unit_of_work
from actions.content.db import describe
from actions.content.migrate import current_revision, head_revision
from actions.content.models import Revision

#: A command: parsed arguments and the database in, the text to print out.
Command = Callable[[argparse.Namespace, Engine], str]


class CommandError(Exception):
    """A failure the user can act on; its message is printed as is."""


def require_migrated(engine: Engine) -> None:
    current, head = current_revision(engine), head_revision()
    if current != head:
        raise CommandError(
            f"the content database {describe(engine)} is at migration {current or 'none'}, "
            f"the code needs {head}: run `python -m actions.content migrate` first"
        )


@contextmanager
def command_transaction(engine: Engine) -> Iterator[Session]:
    """One transaction for the whole command: it all happens, or (on any error) none of it."""
    require_migrated(engine)
    with unit_of_work(engine) as session:
        yield session


def parser_for(
    commands: argparse._SubParsersAction,  # type: ignore[type-arg]
    name: str,
    help: str,
    command: Command,
    description: str | None = None,
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=help, description=description or help, allow_abbrev=False
    )
    parser.set_defaults(command=command)
    return parser


def add_editor(parser: argparse.ArgumentParser, note_required: bool = False) -> None:
    parser.add_argument("--editor", required=True, help="who makes the change, e.g. amina")
    parser.add_argument(
        "--note",
        required=note_required,
        default="",
        help="why, in a few words" + (" (required)" if note_required else ""),
    )


def changed(revision: Revision) -> str:
    """The fields a revision changed: "state, advice, verified_at"."""
    return ", ".join(revision.changed_fields()) or "nothing"
