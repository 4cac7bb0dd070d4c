"""``/records/{kind}[/{key}]``: read, publish and withdraw one kind of record.

Thin on purpose: the editing service (``actions/content/editing.py``, through
``actions/publishing.py``, which queues the alerts) does every check and writes every revision;
this module translates HTTP to its calls and its refusals to HTTP.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from sqlalchemy.orm import Session

from actions import publishing
from actions.admin import present
from actions.admin.errors import ApiError, from_content_error
from actions.admin.inputs import query_flag, read_json
from actions.admin.schema import NOTE_SCHEMA, NUL, NUL_PROBLEM, PUBLISH_SCHEMAS
from actions.admin.state import editor, in_transaction, now
from actions.admin.versions import etag, exists_or_stale, expected_version, stale
from actions.consistency import GatesStillOpen, Inconsistent, UnchangedText
from actions.content import review
from actions.content import validation as check
from actions.content.editing import MissingTranslation, StaleVersion, version_of
from actions.content.records import KindSpec, spec_for
from actions.content.validation import ContentError
from kernel.lang.codes import ENGLISH

routes = web.RouteTableDef()
#: Gate keys hold a slash (``KBL/abbey-gate``): the key is the rest of the path.
RECORD = "/records/{kind}/{key:.+}"


def kind_of(request: web.Request) -> KindSpec:
    try:
        return spec_for(request.match_info["kind"])
    except ContentError as error:
        raise ApiError(404, "unknown_kind", str(error), "kind") from None


def key_of(spec: KindSpec, raw: str) -> str:
    """The key as the service files it (``kbl`` → ``KBL``), or 422 saying how to write it."""
    try:
        return spec.normalise(raw)
    except ContentError as error:
        raise ApiError(422, "invalid_key", str(error), "key") from None


def not_found(spec: KindSpec, key: str) -> ApiError:
    kind = spec.kind.value
    return ApiError(
        404, "not_found", f"there is no {kind} {key}; GET /records/{kind} lists them", "key"
    )


def note_of(value: object, required: bool = False) -> str:
    """Why, checked by the service; the required case worded for HTTP, not the CLI."""
    if required and not (isinstance(value, str) and value.strip()):
        raise ApiError(
            422,
            "invalid_content",
            """'note' must say why, e.g. {"note": "flight cancelled by operator"} or ?note=…""",
            "note",
        )
    if isinstance(value, str) and NUL in value:
        raise ApiError(422, "invalid_field", f"'note' {NUL_PROBLEM}", "note")
    try:
        return check.note(value, required=required)
    except ContentError as error:
        raise from_content_error(error) from None


@routes.get("/records/{kind}")
async def list_records(request: web.Request) -> web.Response:
    """Current records in the order answers show them; ``?withdrawn=true`` adds the rest."""
    spec = kind_of(request)
    withdrawn = query_flag(request, "withdrawn")

    def read(session: Session) -> list[dict[str, Any]]:
        found = review.records(session, spec.kind, include_withdrawn=withdrawn)
        return [present.record(spec, row) for _, row in found]

    return web.json_response(
        {"kind": spec.kind.value, "records": await in_transaction(request, read)}
    )


@routes.get(RECORD)
async def get_record(request: web.Request) -> web.Response:
    spec = kind_of(request)
    key = key_of(spec, request.match_info["key"])

    def read(session: Session) -> tuple[dict[str, Any], int] | None:
        row = spec.find(session, key)
        if row is None:
            return None
        return present.record(spec, row), version_of(session, spec.kind, row)

    found = await in_transaction(request, read)
    if found is None:
        raise not_found(spec, key)
    record, version = found
    return web.json_response(record, headers={"ETag": etag(version)})


def answer(body: dict[str, Any]) -> web.Response:
    """A change's answer, with the record's new version as its ETag."""
    version = body.pop("version")
    return web.json_response(body, headers={"ETag": etag(version)})


@routes.put(RECORD)
async def publish_record(request: web.Request) -> web.Response:
    """Create or change a record: 200 with the revision, or ``"revision": null`` if unchanged."""
    spec = kind_of(request)
    key = key_of(spec, request.match_info["key"])
    body = await read_json(request, PUBLISH_SCHEMAS[spec.kind])
    note = note_of(body.get("note", ""))
    who, when = editor(request), now(request)
    expected = expected_version(request)

    def publish(session: Session) -> dict[str, Any]:
        expecting = exists_or_stale(spec, key, spec.find(session, key), expected)
        revision = publishing.publish(
            session,
            who,
            spec.kind,
            key,
            body["changes"],
            note,
            now=when,
            allow_missing_translation=body.get("allow_missing_translation", False),
            expected_version=expecting,
            close_gates=body.get("close_gates", False),
            confirm_unchanged=body.get("confirm_unchanged", False),
        )
        row = (
            spec.find(session, key)
            if revision is None
            else session.get(spec.model, revision.record_id)
        )
        return {
            "revision": None if revision is None else present.revision(revision),
            "record": present.record(spec, row),
            "version": version_of(session, spec.kind, row),
        }

    try:
        return answer(await in_transaction(request, publish))
    except StaleVersion as error:
        raise await stale(request, spec, key, error) from None
    except MissingTranslation as error:
        raise missing_translation(error) from None
    except Inconsistent as error:
        raise inconsistent(error) from None
    except ContentError as error:
        root = (error.field or "").split(".")[0]
        # A field that is not the kind's comes from the key: a gate's airport, KBL/…
        prefix = "changes." if spec.has(root) else ""
        refused = from_content_error(error, prefix=prefix)
        if error.field is not None and not spec.has(root):
            refused.field = "key"
        raise refused from None


def inconsistent(error: Inconsistent) -> ApiError:
    """A change that contradicts other facts, with the body member that says "do it anyway"."""
    extra: dict[str, Any] = {}
    if isinstance(error, GatesStillOpen):
        how, extra = '"close_gates": true', {"gates": error.gates}
    elif isinstance(error, UnchangedText):
        how, extra = '"confirm_unchanged": true', {"unchanged": error.languages}
    else:
        how = ""
    return ApiError(422, "inconsistent", error.say(ENGLISH, how), f"changes.{error.field}", **extra)


def missing_translation(error: MissingTranslation) -> ApiError:
    """The languages to add, as places in the body: ``changes.advice.prs``."""
    places = [f"changes.{name}.{lang}" for name, langs in error.missing.items() for lang in langs]
    return ApiError(
        422,
        "missing_translation",
        f"missing text: give {', '.join(places)} (every language of a text you change, so "
        'that none keeps an old text), or send "allow_missing_translation": true to publish '
        "now and translate later",
        places[0],
        missing=error.missing,
    )


@routes.delete(RECORD)
async def withdraw_record(request: web.Request) -> web.Response:
    """Hide a record from every answer; why is required (``{"note": …}`` or ``?note=…``)."""
    spec = kind_of(request)
    key = key_of(spec, request.match_info["key"])
    body = await read_json(request, NOTE_SCHEMA, optional=True)
    if "note" in body and "note" in request.query:
        raise ApiError(
            422, "invalid_body", "'note' given in the body and the query; keep one", "note"
        )
    note = note_of(body.get("note", request.query.get("note", "")), required=True)
    who, when = editor(request), now(request)
    expected = expected_version(request)

    def withdraw(session: Session) -> dict[str, Any] | None:
        row = spec.find(session, key)
        expecting = exists_or_stale(spec, key, row, expected)
        if row is None:
            return None
        revision = publishing.withdraw(
            session, who, spec.kind, key, note, now=when, expected_version=expecting
        )
        return {
            "revision": present.revision(revision),
            "record": present.record(spec, row),
            "version": revision.id,
        }

    try:
        withdrawn = await in_transaction(request, withdraw)
    except StaleVersion as error:
        raise await stale(request, spec, key, error) from None
    except ContentError as error:  # already withdrawn, or still cited by current records
        raise from_content_error(error, 409, "conflict") from None
    if withdrawn is None:
        raise not_found(spec, key)
    return answer(withdrawn)
