"""``import`` and ``export``: a whole data set in the content file format (see demo.yml)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sqlalchemy import Engine

from actions.common.clock import utc_now_to_second
from actions.content.db import describe
from actions.content.seed.exporter import count, dump, export_document
from actions.content.seed.loader import read_file
from actions.content_cli.common import add_editor, command_transaction, parser_for
from actions.publishing import load


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    importing = parser_for(
        commands,
        "import",
        "publish every record of a content file, all or nothing",
        import_file,
        description=(
            "Publish every record of a content file (format: actions/content/seed/demo.yml; "
            "relative times like `departs_in: 2h` or absolute ones like `departs_at: "
            "2021-08-24T15:00+04:30`). Records that differ become revisions by --editor. All or "
            "nothing: a bad file changes nothing, and the error names its line and field."
        ),
    )
    importing.add_argument("file", type=Path, help="the YAML file")
    add_editor(importing)
    importing.add_argument(
        "--replace",
        action="store_true",
        help="the file is the whole data set: withdraw current records it leaves out",
    )
    importing.add_argument(
        "--allow-missing-translation",
        action="store_true",
        help="accept texts without every language (listed by `translations`)",
    )
    exporting = parser_for(
        commands,
        "export",
        "write the current content as a content file (absolute Kabul times)",
        export_file,
    )
    exporting.add_argument("file", help="where to write the YAML; - for standard output")


def import_file(args: argparse.Namespace, engine: Engine) -> str:
    document = read_file(args.file)  # a bad file fails before the database is touched
    with command_transaction(engine) as session:
        summary = load(
            session,
            document,
            utc_now_to_second(),
            editor=args.editor,
            note=args.note or f"import of {args.file.name}",
            allow_missing_translation=args.allow_missing_translation,
            replace=args.replace,
        )
    return f"Imported {args.file.name} into {describe(engine)}: {summary} — {summary.changes()}."


def export_file(args: argparse.Namespace, engine: Engine) -> str:
    with command_transaction(engine) as session:
        document = export_document(session)
    text = dump(document)
    if args.file == "-":
        sys.stdout.write(text)
        return ""
    path = Path(args.file)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)  # never leave half a file where the last good export was
    return f"Exported {count(document)} from {describe(engine)} to {args.file}."
