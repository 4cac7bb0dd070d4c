"""Records and revisions as the API shows them: the revision snapshot form, readable alone.

A record's ``values`` use exactly the form a change takes (texts as ``{en, prs, ps}``,
organisations by slug, airports by IATA code, times in ISO 8601 UTC), so an editor can read a
record, change a value and send it back as ``changes``.
"""

from __future__ import annotations

from typing import Any

from actions.content.records import KindSpec, snapshot
from actions.content.review import MissingText
from actions.content.revision import RecordKind, Revision, RevisionAction

#: What :func:`revision` writes, for /openapi.json.
REVISION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "kind": {"enum": [kind.value for kind in RecordKind]},
        "key": {"type": "string"},
        "action": {"enum": [action.value for action in RevisionAction]},
        "editor": {"type": "string", "description": "the editor whose token made the change"},
        "note": {"type": "string"},
        "created_at": {"type": "string", "format": "date-time"},
        "rolls_back": {"type": ["integer", "null"]},
        "changed_fields": {"type": "array", "items": {"type": "string"}},
        "before": {"type": ["object", "null"]},
        "after": {"type": "object"},
    },
}
MISSING_TEXT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "kind": {"type": "string"},
        "key": {"type": "string"},
        "field": {"type": "string"},
        "languages": {"type": "array", "items": {"type": "string"}},
    },
}


def record(spec: KindSpec, row: Any) -> dict[str, Any]:
    values = snapshot(spec, row)
    withdrawn_at = values.pop("withdrawn_at")
    return {
        "kind": spec.kind.value,
        "key": spec.key_of(row),
        "withdrawn_at": withdrawn_at,
        "values": values,
    }


def revision(change: Revision) -> dict[str, Any]:
    return {
        "id": change.id,
        "kind": change.kind.value,
        "key": change.record_key,
        "action": change.action.value,
        "editor": change.editor,
        "note": change.note,
        "created_at": change.created_at.isoformat(),
        "rolls_back": change.rolls_back_id,
        "changed_fields": change.changed_fields(),
        "before": change.before,
        "after": change.after,
    }


def missing_text(gap: MissingText) -> dict[str, Any]:
    return {
        "kind": gap.kind.value,
        "key": gap.key,
        "field": gap.field,
        "languages": list(gap.languages),
    }
