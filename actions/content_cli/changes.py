"""``publish``, ``withdraw`` and ``rollback``: one change, fast, with a one-line receipt.

``publish`` has a subcommand per kind whose options are the kind's fields (see records.py):
a user-facing text ``advice`` is ``--advice-en``, ``--advice-prs``, ``--advice-ps``.
"""

from __future__ import annotations

import argparse
from typing import Any

from sqlalchemy import Engine, select

from actions import consistency, publishing
from actions.alerts import outbox
from actions.common.clock import utc_now_to_second
from actions.common.kabul_time import kabul
from actions.content import validation as check
from actions.content.editing import MissingTranslation
from actions.content.fields import Field, FieldType
from actions.content.models import RecordKind, Revision
from actions.content.records import SPECS, KindSpec
from actions.content_cli.common import (
    add_editor,
    changed,
    command_transaction,
    parser_for,
)
from kernel.lang.codes import LANGUAGES
from kernel.settings_values import duration

#: How a key is typed: ``gate KBL abbey-gate`` is ``KBL/abbey-gate``.
KEY_SEPARATOR = {RecordKind.GATE: "/", RecordKind.FLIGHT: "@"}
METAVARS = {
    FieldType.ORGANISATION: "SLUG",
    FieldType.AIRPORT: "IATA",
    FieldType.TIME: "TIME",
    FieldType.NUMBER: "N",
    FieldType.DEGREES: "DEGREES",
}


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    publishing = commands.add_parser(
        "publish",
        help="create or change one record",
        description="Create or change one record; run `publish KIND --help` for its fields.",
        allow_abbrev=False,
    )
    kinds = publishing.add_subparsers(dest="kind", required=True, metavar="KIND")
    for spec in SPECS.values():
        _publish_parser(kinds, spec)

    withdrawing = parser_for(
        commands, "withdraw", "take a record back: answers stop showing it", withdraw
    )
    withdrawing.add_argument("kind", choices=[kind.value for kind in RecordKind], metavar="KIND")
    withdrawing.add_argument(
        "key", nargs="+", metavar="KEY", help="e.g. KBL, KBL abbey-gate, QR8010@2021-08-24"
    )
    add_editor(withdrawing, note_required=True)

    rolling = parser_for(
        commands,
        "rollback",
        "put a record back as it was before a revision (itself a new revision)",
        rollback,
    )
    rolling.add_argument("revision", type=int, metavar="REVISION_ID", help="see `history`")
    add_editor(rolling)


def _publish_parser(kinds: argparse._SubParsersAction, spec: KindSpec) -> None:  # type: ignore[type-arg]
    parser: argparse.ArgumentParser = kinds.add_parser(
        spec.kind.value,
        help=f"key: {spec.key_example}",
        description=(
            f"Create or change {spec.a_kind} (key like {spec.key_example}). Options left "
            "out keep their value; a text you change needs all of its -en, -prs and -ps "
            "options. An empty value ('') clears an optional field. Publishing vouches for the "
            "fact now: verified_at defaults to now. --note says why you make the change."
        ),
        allow_abbrev=False,
    )
    parser.set_defaults(command=publish, spec=spec)
    parser.add_argument("key", nargs="+", metavar="KEY", help=f"e.g. {_typed(spec)}")
    for field in spec.fields:
        flag = f"--{field.flag}"
        if field.form is FieldType.TEXT:
            for lang in LANGUAGES:
                parser.add_argument(
                    f"{flag}-{lang}",
                    dest=f"{field.name}__{lang}",
                    metavar="TEXT",
                    help=f"{field.help} ({lang})",
                )
            continue
        aliases = [f"--{alias}" for alias in field.aliases]
        if field.form is FieldType.LINES:
            parser.add_argument(
                flag,
                *aliases,
                dest=field.name,
                action="append",
                metavar="TEXT",
                help=f"{field.help}; repeat it for each, all of them every time ('' for none)",
            )
            continue
        parser.add_argument(
            flag, *aliases, dest=field.name, metavar=METAVARS.get(field.form), help=_help(field)
        )
    if spec.has("valid_until"):
        parser.add_argument(
            "--valid-for", metavar="DURATION", help="valid this long after verified_at: 3h, 1d"
        )
    add_editor(parser)
    if spec.kind is RecordKind.AIRPORT:
        parser.add_argument(
            consistency.CLOSE_GATES_FLAG,
            action="store_true",
            help="closing the airport closes its open gates too (each gets the note 'The "
            "airport is closed.'); without it, closing is refused while a gate says open",
        )
    if spec.kind in consistency.STATE_TEXTS:
        state, text = consistency.STATE_TEXTS[spec.kind]
        parser.add_argument(
            consistency.CONFIRM_UNCHANGED_FLAG,
            action="store_true",
            help=f"the {text} you leave unchanged in some language still holds after the "
            f"{state} changes (else that is refused: it may say the opposite)",
        )
    parser.add_argument(
        "--allow-missing-translation",
        action="store_true",
        help="publish a text without every language now (shown in another language meanwhile)",
    )


def _typed(spec: KindSpec) -> str:
    """The example key as typed: "KBL abbey-gate" or "KBL/abbey-gate"."""
    separator = KEY_SEPARATOR.get(spec.kind)
    example = spec.key_example
    return f"{example.replace(separator, ' ')} or {example}" if separator else example


def _help(field: Field) -> str:
    if field.choices is not None:
        return f"{field.help}: {' | '.join(str(c.value) for c in field.choices)}"
    if field.form is FieldType.TIME:
        return f"{field.help}; with its offset, e.g. 2021-08-24T15:00+04:30"
    return field.help


def key_of(kind: RecordKind, parts: list[str]) -> str:
    return KEY_SEPARATOR.get(kind, "/").join(parts)


def changes_from(args: argparse.Namespace, spec: KindSpec) -> dict[str, Any]:
    """The fields given on the command line, in the form :func:`editing.publish` takes."""
    changes: dict[str, Any] = {}
    for field in spec.fields:
        if field.form is FieldType.TEXT:
            texts = {lang: getattr(args, f"{field.name}__{lang}") for lang in LANGUAGES}
            if any(text is not None for text in texts.values()):
                changes[field.name] = {lang: text for lang, text in texts.items() if text}
        elif getattr(args, field.name) is not None:
            changes[field.name] = getattr(args, field.name)
    if getattr(args, "valid_for", None) is not None:
        if "valid_until" in changes:
            raise check.ContentError("valid_for", "and --valid-until both given; keep one")
        try:
            window = duration(args.valid_for)
        except ValueError as error:
            raise check.ContentError("valid_for", str(error)) from None
        verified = changes.get("verified_at")
        start = utc_now_to_second() if verified is None else check.moment("verified_at", verified)
        changes["valid_until"] = start + window
    return changes


def publish(args: argparse.Namespace, engine: Engine) -> str:
    spec: KindSpec = args.spec
    key = key_of(spec.kind, args.key)
    try:
        with command_transaction(engine) as session:
            revision = publishing.publish(
                session,
                args.editor,
                spec.kind,
                key,
                changes_from(args, spec),
                args.note,
                allow_missing_translation=args.allow_missing_translation,
                close_gates=getattr(args, "close_gates", False),
                confirm_unchanged=getattr(args, "confirm_unchanged", False),
            )
            alerts = outbox.queued_for(session, revision.id) if revision is not None else 0
            gates = [] if revision is None else publishing.closed_with(session, revision)
    except MissingTranslation as error:
        options = [
            f"--{spec.field(name).flag}-{lang}"
            for name, langs in error.missing.items()
            for lang in langs
        ]
        raise check.ContentError(
            None,
            f"missing text: give {', '.join(options)} (every language of a text you "
            "change, so none keeps an old text), or --allow-missing-translation to publish now "
            "and translate later",
        ) from error
    if revision is None:
        return f"Nothing changed: {spec.kind.value} {key} already says that."
    receipt = _receipt(revision, "created" if revision.before is None else "updated")
    lacking = [
        f"{name} in {', '.join(lang for lang in LANGUAGES if not value[lang])}"
        for name, value in revision.after.items()
        if isinstance(value, dict) and not all(value.values())
    ]
    if lacking:
        receipt += f" Missing translation: {'; '.join(lacking)} (see `translations`)."
    for said, done in (("Closed with it", True), ("Re-checked with it", False)):
        listed = [g for g in gates if ("state" in g.changed_fields()) is done]
        if listed:
            named = ", ".join(f"{gate.record_key} (revision {gate.id})" for gate in listed)
            receipt += f" {said}: gate {named}."
    if alerts:
        receipt += (
            f" {alerts} subscriber(s) will be alerted (progress: python -m actions.alerts status)."
        )
    return receipt


def withdraw(args: argparse.Namespace, engine: Engine) -> str:
    kind = RecordKind(args.kind)
    with command_transaction(engine) as session:
        revision = publishing.withdraw(
            session, args.editor, kind, key_of(kind, args.key), args.note, now=utc_now_to_second()
        )
    return (
        f"Revision {revision.id}: {revision.editor} withdrew {kind.value} {revision.record_key}; "
        f"answers no longer show it (undo: rollback {revision.id})."
    )


def rollback(args: argparse.Namespace, engine: Engine) -> str:
    with command_transaction(engine) as session:
        undone = publishing.rollback(session, args.editor, args.revision, args.note)
        revision = undone.revision
        later = session.scalars(
            select(Revision.id).where(
                Revision.kind == revision.kind,
                Revision.record_id == revision.record_id,
                Revision.id > args.revision,
                Revision.id < revision.id,
            )
        ).all()
    also = f"; this also undoes revisions {', '.join(map(str, later))}" if later else ""
    return (
        f"Revision {revision.id}: {revision.editor} rolled back revision {args.revision}: "
        f"{revision.kind.value} {revision.record_key} is as it was before it "
        f"({changed(revision)} restored{also}; undo: rollback {revision.id})."
        + _undone_with_it(undone)
    )


def _undone_with_it(undone: publishing.Undone) -> str:
    """The gates a joint change touched: put back with it, or left and why."""
    said = ""
    rechecked = [gate for gate in undone.with_it if gate not in undone.changed_state]
    for heading, gates in (
        ("Put back with it", undone.changed_state),
        ("Re-check undone with it", rechecked),
    ):
        if gates:
            named = ", ".join(f"{gate.record_key} (revision {gate.id})" for gate in gates)
            said += f" {heading}: gate {named}."
    if undone.left:
        named = ", ".join(
            f"{gate.record_key} (revision {gate.id} by {gate.editor})" for gate in undone.left
        )
        them = "it" if len(undone.left) == 1 else "them"
        said += f" Not put back, changed since: gate {named}; check {them}."
    return said


def _receipt(revision: Revision, verb: str) -> str:
    after = revision.after
    when = ""
    if "verified_at" in after:
        when = f" Verified {kabul(after['verified_at'])}"
        if after.get("valid_until"):
            when += f", valid until {kabul(after['valid_until'])}"
        when += "."
    return (
        f"Revision {revision.id}: {revision.editor} {verb} {revision.kind.value} "
        f"{revision.record_key} ({changed(revision)}).{when}"
    )
