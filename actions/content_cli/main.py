"""Entry point: parse the command line, run one command, print one message, exit 0 or 1."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from sqlalchemy.exc import SQLAlchemyError

from actions.content.db import URL_ENV, get_engine
from actions.content.seed.entries import SeedError
from actions.content.validation import ContentError
from actions.content_cli import changes, database, reports, transfer
from actions.content_cli.common import CommandError

EXAMPLES = """\
examples:
  python -m actions.content publish airport KBL --status closed --advice-en "…" \\
      --advice-prs "…" --advice-ps "…" --source us-embassy-kabul --editor amina \\
      --note "gates shut after blast"
  python -m actions.content publish gate KBL abbey-gate --state closed --note-en "…" \\
      --note-prs "…" --note-ps "…" --editor amina
  python -m actions.content publish flight QR8010@2021-08-24 --status delayed \\
      --departs-at 2021-08-24T17:00+04:30 --editor amina
  python -m actions.content history gate KBL abbey-gate
  python -m actions.content rollback 42 --editor amina --note "wrong gate"
"""


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="python -m actions.content",
        description=(
            f"Manage the content database ({URL_ENV}, default var/content.db). Every change is "
            "a revision: see `history`, undo with `rollback`."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    commands = root.add_subparsers(dest="command_name", required=True, metavar="COMMAND")
    for module in (database, transfer, changes, reports):
        module.register(commands)
    return root


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        message: str = args.command(args, get_engine())
    except (CommandError, ContentError, SeedError) as error:
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
    if message:
        try:
            print(message)
        except BrokenPipeError:  # `… | head` has all it wanted; stop writing, quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
