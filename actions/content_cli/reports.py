"""``list``, ``history``, ``translations``: what is published, who changed it, what is missing."""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from typing import Any

from sqlalchemy import Engine

from actions.common.clock import utc_now_to_second
from actions.common.kabul_time import kabul
from actions.content import editing
from actions.content.fields import FieldType
from actions.content.models import RecordKind, Revision
from actions.content.records import snapshot, spec_for
from actions.content.review import missing_translations, records
from actions.content.validation import ContentError
from actions.content_cli.changes import key_of
from actions.content_cli.common import changed, command_transaction, parser_for

SHORT = 60


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    listing = parser_for(commands, "list", "the records of a kind, as answers show them", list_kind)
    listing.add_argument(
        "kind",
        choices=[kind.value for kind in RecordKind],
        metavar="KIND",
        help=", ".join(kind.value for kind in RecordKind),
    )
    listing.add_argument("--withdrawn", action="store_true", help="include withdrawn records")

    past = parser_for(
        commands,
        "history",
        "revisions, newest first: all, of a kind, or of one record",
        history,
    )
    kinds = [kind.value for kind in RecordKind]
    past.add_argument("kind", nargs="?", choices=kinds, metavar="KIND")
    past.add_argument("key", nargs="*", metavar="KEY", help="e.g. KBL, KBL abbey-gate")
    past.add_argument("--limit", type=int, default=20, help="how many (default 20; 0: all)")
    past.add_argument("--full", action="store_true", help="show each revision's before and after")

    parser_for(
        commands,
        "translations",
        "every current user-facing text missing a language",
        translations,
    )


def list_kind(args: argparse.Namespace, engine: Engine) -> str:
    spec = spec_for(args.kind)
    now = utc_now_to_second()
    with command_transaction(engine) as session:
        lines = [
            _summary(spec.kind, key, snapshot(spec, row), now)
            for key, row in records(session, spec.kind, include_withdrawn=args.withdrawn)
        ]
    return "\n".join(lines) if lines else f"No current {spec.kind.value} records."


def _summary(kind: RecordKind, key: str, values: dict[str, Any], now: datetime) -> str:
    """One line: key, choices, the English title, and how fresh it is."""
    spec = spec_for(kind)
    parts = [key]
    for field in spec.fields:
        value = values[field.name]
        if field.form is FieldType.CHOICE:
            parts.append(str(value))
    first_text = next(f for f in spec.fields if f.form is FieldType.TEXT)
    texts = values[first_text.name] or {}
    parts.append(_short(next((t for t in texts.values() if t), "")))
    if values.get("verified_at"):
        parts.append(f"verified {kabul(values['verified_at'])} ({values['source']})")
    if values.get("valid_until"):
        expired = datetime.fromisoformat(values["valid_until"]) <= now
        parts.append(f"{'EXPIRED' if expired else 'valid until'} {kabul(values['valid_until'])}")
    if values.get("withdrawn_at"):
        parts.append(f"WITHDRAWN {kabul(values['withdrawn_at'])}")
    return "  ".join(parts)


def history(args: argparse.Namespace, engine: Engine) -> str:
    if args.key and not args.kind:
        raise ContentError(None, "give the kind before the key: history gate KBL abbey-gate")
    kind = RecordKind(args.kind) if args.kind else None
    key = key_of(kind, args.key) if kind and args.key else None
    with command_transaction(engine) as session:
        revisions = editing.history(session, kind, key, limit=args.limit or None)
    if not revisions:
        return "No revisions yet."
    return "\n".join(_revision_lines(revision, args.full) for revision in revisions)


def _revision_lines(revision: Revision, full: bool) -> str:
    what = revision.action.value
    if revision.rolls_back_id is not None:
        what = f"rollback of {revision.rolls_back_id}"
    line = (
        f"{revision.id:>5}  {kabul(revision.created_at)}  {revision.editor}  {what}  "
        f"{revision.kind.value} {revision.record_key}: {_differences(revision)}"
    )
    if revision.note:
        line += f"  — {revision.note}"
    if full:
        for label, state in (("before", revision.before), ("after", revision.after)):
            line += f"\n       {label}: {json.dumps(state, ensure_ascii=False, sort_keys=False)}"
    return line


def _differences(revision: Revision) -> str:
    """ "state: open → closed; advice" — short values shown, long texts only named."""
    if revision.before is None:
        return "created"
    shown = []
    for name in revision.changed_fields():
        old, new = revision.before.get(name), revision.after.get(name)
        long = isinstance(old, dict | list) or isinstance(new, dict | list)
        if long or name.endswith("_at") or name == "valid_until":
            shown.append(name)
        else:
            shown.append(f"{name}: {old} → {new}")
    return "; ".join(shown) or changed(revision)


def translations(args: argparse.Namespace, engine: Engine) -> str:
    with command_transaction(engine) as session:
        gaps = missing_translations(session)
    if not gaps:
        return "Every current text is in en, prs and ps."
    lines = [str(gap) for gap in gaps]
    lines.append(f"{len(gaps)} text(s) missing a translation; readers see another language.")
    return "\n".join(lines)


def _short(text: str) -> str:
    return text if len(text) <= SHORT else text[: SHORT - 1] + "…"
