"""JSON Schemas of request bodies, derived from the record kinds' field specs (records.py).

One schema per kind, written from :class:`~actions.content.fields.Field`, serves twice: as
documentation in ``/openapi.json`` and as the check each body passes before the editing
service sees it. The check here is about shape only (``type``, ``properties``,
``additionalProperties``, ``required``, ``maximum``, and no NUL in texts), which the service
cannot report well: a number where an organisation's slug belongs would otherwise reach the
database. What a value means (a known slug, a choice,
a phone number's form, a date-time's offset, a length) is the service's to judge, in its own
words (:class:`ContentError`); the schema documents those rules with ``enum``, ``pattern``,
``format`` and ``maxLength`` but they are not checked twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from actions.consistency import STATE_TEXTS
from actions.content import validation as check
from actions.content.fields import Field, FieldType
from actions.content.records import SPECS, KindSpec
from actions.content.revision import RecordKind
from actions.content.validation import ContentError
from kernel.lang.codes import LANGUAGES

#: Integer columns are 32-bit on PostgreSQL.
INT_MAX = 2**31 - 1
#: JSON may carry U+0000, PostgreSQL text cannot: refused here, named, instead of a 500.
NUL = "\x00"
NUL_PROBLEM = "contains the character U+0000 (NUL), which cannot be stored; remove it"
#: How a JSON type is named in a message an editor reads.
TYPE_WORDS = {
    "object": "an object",
    "array": "a list",
    "string": "a text",
    "boolean": "true or false",
    "integer": "a whole number",
    "number": "a number",
    "null": "null",
}
_PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "null": (type(None),),
}


def _anchored(pattern: str) -> str:
    return f"^(?:{pattern})$"


def field_schema(field: Field) -> dict[str, Any]:
    """How one field is written in JSON; optional fields also take null (which clears them)."""
    schema: dict[str, Any]
    match field.form:
        case FieldType.TEXT:
            language: dict[str, Any] = {"type": "string"}
            if field.max_length is not None:
                language["maxLength"] = field.max_length
            schema = {
                "type": "object",
                "properties": {lang: dict(language) for lang in LANGUAGES},
                "additionalProperties": False,
            }
        case FieldType.CHOICE:
            assert field.choices is not None
            schema = {"type": "string", "enum": [member.value for member in field.choices]}
        case FieldType.ORGANISATION:
            schema = {"type": "string", "pattern": _anchored(check.SLUG.pattern)}
        case FieldType.AIRPORT:
            schema = {"type": "string", "examples": ["KBL"]}
        case FieldType.TIME:
            schema = {
                "type": "string",
                "format": "date-time",
                "examples": ["2021-08-24T15:00+04:30"],
            }
        case FieldType.NUMBER:
            schema = {"type": "integer", "minimum": 0, "maximum": INT_MAX}
        case FieldType.LINES:
            item: dict[str, Any] = {"type": "string"}
            if field.max_length is not None:
                item["maxLength"] = field.max_length
            schema = {"type": "array", "items": item, "maxItems": check.LINES_MAX}
        case FieldType.DEGREES:
            schema = {"type": "number", "minimum": -field.limit, "maximum": field.limit}
            schema["examples"] = [float(field.example)]
        case FieldType.STRING:
            schema = {"type": "string"}
            if field.max_length is not None:
                schema["maxLength"] = field.max_length
            if field.pattern is not None:
                schema["pattern"] = _anchored(field.pattern.pattern)
            if field.example:
                schema["examples"] = [field.example]
    if not field.required:
        schema["type"] = [schema["type"], "null"]
    return {"description": field.help, **schema}


def values_schema(spec: KindSpec) -> dict[str, Any]:
    """A record's fields; in a change, any subset (fields left out keep their value)."""
    return {
        "type": "object",
        "title": f"{spec.kind.value} fields",
        "properties": {field.name: field_schema(field) for field in spec.fields},
        "additionalProperties": False,
    }


def publish_schema(spec: KindSpec) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "changes": values_schema(spec),
        "note": {"type": "string", "maxLength": check.NOTE_MAX, "description": "why"},
        "allow_missing_translation": {
            "type": "boolean",
            "description": "publish a text without every language now, translate later",
        },
    }
    if spec.kind is RecordKind.AIRPORT:
        properties["close_gates"] = {
            "type": "boolean",
            "description": "closing the airport closes its open gates too (else it is refused "
            "while a gate says open)",
        }
    if spec.kind in STATE_TEXTS:
        properties["confirm_unchanged"] = {
            "type": "boolean",
            "description": f"after a change of {STATE_TEXTS[spec.kind][0]}, the "
            f"{STATE_TEXTS[spec.kind][1]} left unchanged in some language still holds",
        }
    return {
        "type": "object",
        "properties": properties,
        "required": ["changes"],
        "additionalProperties": False,
    }


#: ``DELETE /records/…`` (the note may also be a query parameter) and ``POST …/rollback``.
NOTE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"note": {"type": "string", "maxLength": check.NOTE_MAX, "description": "why"}},
    "additionalProperties": False,
}
PUBLISH_SCHEMAS: dict[RecordKind, dict[str, Any]] = {
    kind: publish_schema(spec) for kind, spec in SPECS.items()
}


def check_shape(schema: Mapping[str, Any], value: Any, path: str = "") -> None:
    """Raise :class:`ContentError` naming the first place (``changes.advice.prs``) where
    ``value`` does not have the shape ``schema`` describes.
    """
    types = schema.get("type")
    if types is not None:
        allowed = [types] if isinstance(types, str) else list(types)
        if not any(_is(value, name) for name in allowed):
            hint = f" ({schema['description']})" if "description" in schema else ""
            expected = " or ".join(TYPE_WORDS[name] for name in allowed)
            raise ContentError(path or None, f"must be {expected}{hint}, not {_json_type(value)}")
    if isinstance(value, str) and NUL in value:
        raise ContentError(path or None, NUL_PROBLEM)
    if isinstance(value, dict):
        _check_members(schema, value, path)
    maximum = schema.get("maximum")
    if maximum is not None and _is(value, "integer") and value > maximum:
        raise ContentError(path or None, f"is {value}; at most {maximum}")


def _check_members(schema: Mapping[str, Any], value: dict[str, Any], path: str) -> None:
    properties: Mapping[str, Any] = schema.get("properties", {})
    prefix = f"{path}." if path else ""
    for name in schema.get("required", ()):
        if name not in value:
            raise ContentError(f"{prefix}{name}", "is missing")
    for name, member in value.items():
        if name in properties:
            check_shape(properties[name], member, f"{prefix}{name}")
        elif schema.get("additionalProperties") is False:
            raise ContentError(
                f"{prefix}{name}", f"is not expected here; expected: {', '.join(properties)}"
            )


def _is(value: Any, type_name: str) -> bool:
    if isinstance(value, bool) and type_name in ("integer", "number"):
        return False
    return isinstance(value, _PYTHON_TYPES[type_name])


def _json_type(value: Any) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _is(value, name):
            return TYPE_WORDS[name]
    return type(value).__name__
