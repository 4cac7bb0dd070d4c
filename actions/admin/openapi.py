"""The OpenAPI 3.1 description at ``/openapi.json``, generated from the record kinds' specs.

Each kind gets its own paths (``/records/gate/{key}``) so that its body schema is exact; the
schemas are the ones requests are checked against (schema.py), so the description cannot
drift from what the API accepts.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from actions.admin import present, schema
from actions.admin.alerts_api import ALERT_SCHEMA
from actions.admin.alerts_api import MAX_LIMIT as ALERTS_MAX_LIMIT
from actions.admin.dataset_api import SUMMARY_SCHEMA
from actions.admin.errors import ERROR_SCHEMA
from actions.admin.history_api import MAX_LIMIT
from actions.admin.tokens import PREFIX
from actions.content.records import SPECS, KindSpec
from actions.content.revision import RecordKind

VERSION = "0.1.0"
JSON = "application/json"
ERRORS = {
    "BadRequest": (400, "the body is not JSON or not UTF-8"),
    "Unauthorized": (401, "no token, a token that is not valid, or a revoked one"),
    "NotFound": (404, "no such kind, record or revision"),
    "Conflict": (409, "the record's state does not allow it (already withdrawn, still cited…)"),
    "Stale": (
        412,
        "If-Match names an older version: someone changed the record since you read it; "
        "the error's 'current' is the record now, its ETag header the version to send next",
    ),
    "TooLarge": (413, "the body is larger than the configured limit (1 MiB by default)"),
    "Invalid": (422, "a field, key, query parameter or content file line is wrong"),
    "Unavailable": (503, "the content database cannot be used right now; retry"),
}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def wrapped(name: str, items: str) -> dict[str, Any]:
    """``{name: [items…]}``, how lists are answered."""
    return {"type": "object", "properties": {name: {"type": "array", "items": ref(items)}}}


def json_body(body: dict[str, Any], description: str = "") -> dict[str, Any]:
    return {"description": description or "OK", "content": {JSON: {"schema": body}}}


def camel(kind: RecordKind) -> str:
    return "".join(part.title() for part in re.split(r"[-_]", kind.value))


def operation(summary: str, ok: dict[str, Any], errors: str = "", **extra: Any) -> dict[str, Any]:
    """``errors``: the names of ERRORS it may answer besides Unauthorized and Unavailable."""
    responses = {"200": ok}
    for name in ("Unauthorized", *errors.split(), "Unavailable"):
        responses[str(ERRORS[name][0])] = {"$ref": f"#/components/responses/{name}"}
    return {"summary": summary, **extra, "responses": responses}


def parameter(name: str, where: str, description: str, **kind: Any) -> dict[str, Any]:
    return {
        "name": name,
        "in": where,
        "required": where == "path",
        "description": description,
        "schema": kind or {"type": "string"},
    }


def note_query(required: bool = False) -> dict[str, Any]:
    return parameter("note", "query", "why" + (" (or in the body)" if required else ""))


ETAG = {
    "ETag": {
        "description": 'the record\'s version, e.g. "42" (its latest revision); send it back '
        "in If-Match to change the record only if nobody else has meanwhile",
        "schema": {"type": "string"},
    }
}
IF_MATCH = parameter(
    "If-Match",
    "header",
    'the ETag of the record as you read it ("42"; "0" for one that must not exist yet, "*" '
    "for one that must exist); without it the change applies to whatever is there",
)


def with_etag(body: dict[str, Any]) -> dict[str, Any]:
    return {**body, "headers": ETAG}


def record_paths(spec: KindSpec) -> dict[str, Any]:
    name, kind = camel(spec.kind), spec.kind.value
    key = parameter("key", "path", f"e.g. {spec.key_example}", examples=[spec.key_example])
    one = with_etag(json_body(ref(f"{name}Record")))
    changed = json_body(
        {
            "type": "object",
            "properties": {
                "revision": {"oneOf": [ref("Revision"), {"type": "null"}]},
                "record": ref(f"{name}Record"),
            },
        },
        "the revision (null if nothing changed) and the record as it is now",
    )
    changed = with_etag(changed)
    listing = {
        "type": "object",
        "properties": {
            "kind": {"const": kind},
            "records": {"type": "array", "items": ref(f"{name}Record")},
        },
    }
    return {
        f"/records/{kind}": {
            "get": operation(
                f"{kind} records, in the order answers show them",
                json_body(listing),
                "Invalid",
                parameters=[parameter("withdrawn", "query", "include withdrawn", type="boolean")],
            )
        },
        f"/records/{kind}/{{key}}": {
            "parameters": [key],
            "get": operation(f"one {kind}", one, "NotFound Invalid"),
            "put": operation(
                f"create or change {spec.a_kind} (fields left out keep their value)",
                changed,
                "BadRequest Stale TooLarge Invalid",
                parameters=[IF_MATCH],
                requestBody={
                    "required": True,
                    "content": {JSON: {"schema": ref(f"{name}Publish")}},
                },
            ),
            "delete": operation(
                f"withdraw {spec.a_kind}: answers stop showing it (undo: rollback)",
                changed,
                "BadRequest NotFound Stale Conflict TooLarge Invalid",
                parameters=[note_query(required=True), IF_MATCH],
                requestBody={"required": False, "content": {JSON: {"schema": ref("Note")}}},
            ),
        },
    }


def review_paths() -> dict[str, Any]:
    kinds = [kind.value for kind in RecordKind]
    flags = [
        parameter(
            "replace", "query", "withdraw current records the file leaves out", type="boolean"
        ),
        parameter(
            "allow_missing_translation", "query", "accept texts lacking a language", type="boolean"
        ),
        note_query(),
    ]
    return {
        "/history": {
            "get": operation(
                "revisions, newest first",
                json_body(wrapped("revisions", "Revision")),
                "Invalid",
                parameters=[
                    parameter("kind", "query", "only this kind", enum=kinds),
                    parameter("key", "query", "only this record (needs kind)"),
                    parameter(
                        "limit", "query", "how many", type="integer", minimum=1, maximum=MAX_LIMIT
                    ),
                ],
            )
        },
        "/revisions/{revision}/rollback": {
            "post": operation(
                "put the record back as it was before this revision (a new revision); undoing "
                "an airport's closure puts back the gates closed with it too (with_it), except "
                "those changed since (left: the revisions that changed them)",
                json_body(
                    {
                        "type": "object",
                        "properties": {
                            "revision": ref("Revision"),
                            "record": {"type": "object"},
                            "with_it": {"type": "array", "items": ref("Revision")},
                            "left": {"type": "array", "items": ref("Revision")},
                        },
                    }
                ),
                "BadRequest NotFound Conflict TooLarge Invalid",
                parameters=[parameter("revision", "path", "revision id", type="integer")],
                requestBody={"required": False, "content": {JSON: {"schema": ref("Note")}}},
            )
        },
        "/alerts": {
            "get": operation(
                "the latest alerts and their deliveries counted by status (queued, sent, failed…)",
                json_body(wrapped("alerts", "Alert")),
                "Invalid",
                parameters=[
                    parameter(
                        "limit",
                        "query",
                        "how many",
                        type="integer",
                        minimum=1,
                        maximum=ALERTS_MAX_LIMIT,
                    )
                ],
            )
        },
        "/translations/missing": {
            "get": operation(
                "current texts lacking a language",
                json_body(wrapped("missing", "MissingText")),
            )
        },
        "/export": {
            "get": operation(
                "the whole data set as a content file (format: actions/content/seed/demo.yml)",
                {
                    "description": "YAML",
                    "content": {"application/yaml": {"schema": {"type": "string"}}},
                },
            )
        },
        "/import": {
            "post": operation(
                "publish every record of a content file, all or nothing",
                json_body(ref("ImportSummary")),
                "BadRequest TooLarge Invalid",
                parameters=flags,
                requestBody={
                    "required": True,
                    "content": {"application/yaml": {"schema": {"type": "string"}}},
                },
            )
        },
    }


def public_paths() -> dict[str, Any]:
    health = {"type": "object", "properties": {"status": {"const": "ok"}}}
    return {
        "/health": {
            "get": {
                "summary": "the API and its database answer",
                "security": [],
                "responses": {
                    "200": json_body(health),
                    "503": {"$ref": "#/components/responses/Unavailable"},
                },
            }
        },
        "/openapi.json": {
            "get": {
                "summary": "this description",
                "security": [],
                "responses": {"200": json_body({"type": "object"})},
            }
        },
        "/metrics": {
            "get": {
                "summary": "requests by route and status, for Prometheus (docs/OPERATIONS.md)",
                "security": [{"metricsToken": []}],
                "responses": {
                    "200": {
                        "description": "Prometheus text format",
                        "content": {"text/plain": {"schema": {"type": "string"}}},
                    },
                    "401": {"description": "missing or wrong METRICS_TOKEN"},
                    "403": {"description": "METRICS_TOKEN is not set: metrics are closed"},
                },
            }
        },
    }


def component_schemas() -> dict[str, Any]:
    schemas: dict[str, Any] = {
        "Error": ERROR_SCHEMA,
        "Note": schema.NOTE_SCHEMA,
        "Revision": present.REVISION_SCHEMA,
        "MissingText": present.MISSING_TEXT_SCHEMA,
        "ImportSummary": SUMMARY_SCHEMA,
        "Alert": ALERT_SCHEMA,
    }
    for kind, spec in SPECS.items():
        name = camel(kind)
        schemas[f"{name}Values"] = schema.values_schema(spec)
        schemas[f"{name}Publish"] = {
            **schema.PUBLISH_SCHEMAS[kind],
            "properties": {
                **schema.PUBLISH_SCHEMAS[kind]["properties"],
                "changes": ref(f"{name}Values"),
            },
        }
        schemas[f"{name}Record"] = {
            "type": "object",
            "properties": {
                "kind": {"const": kind.value},
                "key": {"type": "string"},
                "withdrawn_at": {"type": ["string", "null"], "format": "date-time"},
                "values": ref(f"{name}Values"),
            },
        }
    return schemas


@functools.cache
def document() -> dict[str, Any]:
    paths = public_paths()
    for spec in SPECS.values():
        paths |= record_paths(spec)
    paths |= review_paths()
    error = {"content": {JSON: {"schema": ref("Error")}}}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Content editors' admin API",
            "version": VERSION,
            "description": (
                "Publish, withdraw and roll back the facts the evacuee assistant answers from. "
                f"Every endpoint but /health and /openapi.json needs 'Authorization: Bearer "
                f"{PREFIX}…' (python -m actions.admin token add NAME); the revision names the "
                'token\'s editor. Errors are {"error": {"code", "message", "field"}}. '
                "Two editors, one record: GET answers an ETag; PUT or DELETE with that "
                "If-Match is refused with 412 if the record changed since, never applied over "
                "the other editor's change. The editors' web console at /console/ (HTML "
                "pages, signed in with a session cookie) uses the same service but is not "
                "part of this API."
            ),
        },
        "security": [{"editorToken": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {
                "editorToken": {"type": "http", "scheme": "bearer"},
                "metricsToken": {"type": "http", "scheme": "bearer"},
            },
            "schemas": component_schemas(),
            "responses": {
                name: {"description": description, **error}
                for name, (_, description) in ERRORS.items()
            },
        },
    }
