"""``/console/data``: the whole data set out (the CLI's content file) and a content file in.

The same code as ``/export`` and ``/import`` of the API (``dataset_api.py``): the export is
that handler, the import parses with its parser and loads with the seed loader, all or nothing,
as a revision per change by the signed-in editor.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from aiohttp.web_request import FileField
from sqlalchemy.orm import Session

from actions.admin import dataset_api
from actions.admin.console.guard import FormRefused, checked_form, editor_or_sign_in, field
from actions.admin.console.pages import render
from actions.admin.console.refusals import form_refused
from actions.admin.errors import ApiError
from actions.admin.state import SETTINGS, in_transaction, now
from actions.content.seed.entries import SeedError
from actions.publishing import load

routes = web.RouteTableDef()


@routes.get("/console/data")
async def data(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    return render(request, "data.html", {"result": None, "error": None}, who)


@routes.get("/console/export")
async def export(request: web.Request) -> web.StreamResponse:
    await editor_or_sign_in(request)
    return await dataset_api.export(request)


@routes.post("/console/import")
async def import_file(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    try:
        form = await checked_form(request, who.secret)
    except FormRefused as refusal:
        return form_refused(request, who, refusal)
    upload = form.get("file")
    limit = request.app[SETTINGS].max_body_bytes
    raw = upload.file.read(limit + 1) if isinstance(upload, FileField) else b""
    moment, note = now(request), field(form, "note") or "import in the console"
    try:
        document = await dataset_api.parse_off_the_loop(raw.decode("utf-8"))
    except (UnicodeDecodeError, ApiError) as error:
        message = error.message if isinstance(error, ApiError) else "the file is not UTF-8 text"
        return render(request, "data.html", {"result": None, "error": message}, who, 422)

    def publish_all(session: Session) -> dict[str, Any]:
        summary = load(
            session,
            document,
            moment,
            editor=who.editor,
            note=note,
            allow_missing_translation=field(form, "allow_missing") == "yes",
            replace=field(form, "replace") == "yes",
        )
        return {"summary": summary.changes(), "revisions": summary.revisions}

    try:
        result = await in_transaction(request, publish_all)
    except SeedError as error:
        return render(request, "data.html", {"result": None, "error": str(error)}, who, 422)
    return render(request, "data.html", {"result": result, "error": None}, who)
