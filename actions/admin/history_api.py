"""``/history``, ``/revisions/{id}/rollback`` and ``/translations/missing``: what editors review.

Who changed what and when, undoing a change, and the texts still waiting for a translation;
the editing and review services answer, this module only speaks HTTP.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from sqlalchemy.orm import Session

from actions import publishing
from actions.admin import present
from actions.admin.errors import ApiError, from_content_error
from actions.admin.inputs import query_int, read_json
from actions.admin.records_api import key_of, note_of
from actions.admin.schema import NOTE_SCHEMA
from actions.admin.state import editor, in_transaction, now
from actions.content import editing
from actions.content.records import spec_for
from actions.content.review import missing_translations
from actions.content.revision import Revision
from actions.content.validation import ContentError

routes = web.RouteTableDef()
DEFAULT_LIMIT, MAX_LIMIT = 50, 1000


@routes.get("/history")
async def history(request: web.Request) -> web.Response:
    """Revisions newest first: all, ``?kind=`` of one kind, ``&key=`` of one record."""
    kind = request.query.get("kind") or None
    key = request.query.get("key") or None
    limit = query_int(request, "limit", DEFAULT_LIMIT, MAX_LIMIT)
    if key is not None and kind is None:
        raise ApiError(
            422, "invalid_query", "'key' needs 'kind' too: ?kind=gate&key=KBL/abbey-gate", "kind"
        )
    if kind is not None:
        try:
            spec = spec_for(kind)
        except ContentError as error:
            raise ApiError(422, "invalid_query", str(error), "kind") from None
        if key is not None:
            key = key_of(spec, key)

    def read(session: Session) -> list[dict[str, Any]]:
        return [present.revision(r) for r in editing.history(session, kind, key, limit)]

    return web.json_response({"revisions": await in_transaction(request, read)})


@routes.post(r"/revisions/{revision:\d{1,9}}/rollback")
async def rollback(request: web.Request) -> web.Response:
    """Put a record back as it was before the revision, as a new revision (itself undoable);
    an airport's closure puts back the gates closed with it (``with_it``), except those changed
    since (``left``: the revisions that changed them)."""
    revision_id = int(request.match_info["revision"])
    body = await read_json(request, NOTE_SCHEMA, optional=True)
    note = note_of(body.get("note", ""))
    who, when = editor(request), now(request)

    def undo(session: Session) -> dict[str, Any] | None:
        if session.get(Revision, revision_id) is None:
            return None
        undone = publishing.rollback(session, who, revision_id, note, now=when)
        revision = undone.revision
        spec = spec_for(revision.kind)
        row = session.get(spec.model, revision.record_id)
        return {
            "revision": present.revision(revision),
            "record": present.record(spec, row),
            "with_it": [present.revision(gate) for gate in undone.with_it],
            "left": [present.revision(gate) for gate in undone.left],
        }

    try:
        undone = await in_transaction(request, undo)
    except ContentError as error:  # already in that state, or it would break a rule now
        raise from_content_error(error, 409, "conflict") from None
    if undone is None:
        raise ApiError(
            404, "not_found", f"there is no revision {revision_id}; see GET /history", "revision"
        )
    return web.json_response(undone)


@routes.get("/translations/missing")
async def translations(request: web.Request) -> web.Response:
    """Current texts lacking a language; readers get them in another language meanwhile."""

    def read(session: Session) -> list[dict[str, Any]]:
        return [present.missing_text(gap) for gap in missing_translations(session)]

    return web.json_response({"missing": await in_transaction(request, read)})
