"""``/export`` and ``/import``: the whole data set as the content file the CLI reads and writes.

The format is documented at the top of ``actions/content/seed/demo.yml``. An import is one
transaction through the same loader as ``python -m actions.content import``: every record is
published by the token's editor, and a bad file changes nothing and is answered with 422
naming the line and the field.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import yaml
from aiohttp import web
from sqlalchemy.orm import Session

from actions.admin.errors import ApiError
from actions.admin.inputs import query_flag, read_text
from actions.admin.records_api import note_of
from actions.admin.schema import NUL, NUL_PROBLEM
from actions.admin.state import editor, in_transaction, now
from actions.common.kabul_time import KABUL
from actions.content.seed.content_file import _Mapping, read_content
from actions.content.seed.entries import SeedError
from actions.content.seed.exporter import dump, export_document
from actions.publishing import load

routes = web.RouteTableDef()
YAML = "application/yaml"
#: "line 12 (flights[0]): 'status' is …", as the loader words every problem it finds.
_WHERE = re.compile(r"^line (?P<line>\d+)(?: \((?P<place>[^)]*)\))?: (?:'(?P<key>[^']+)')?")
_UNKNOWN_KEYS = re.compile(r"unknown keys (?P<key>[^,\s]+)")
#: What an import answers, for /openapi.json.
SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "records": {"type": "object", "additionalProperties": {"type": "integer"}},
        **{name: {"type": "integer"} for name in ("created", "changed", "unchanged", "withdrawn")},
        "revisions": {"type": "array", "items": {"type": "integer"}},
        "summary": {"type": "string"},
    },
}


@routes.get("/export")
async def export(request: web.Request) -> web.Response:
    """Every current record, with absolute Kabul times: importing it later means the same."""
    text = await in_transaction(request, lambda session: dump(export_document(session)))
    day = now(request).astimezone(KABUL).date().isoformat()
    return web.Response(
        text=text,
        content_type=YAML,
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="content-{day}.yml"'},
    )


@routes.post("/import")
async def import_file(request: web.Request) -> web.Response:
    """Publish every record of a content file (the body), all or nothing.

    ``?replace=true``: the file is the whole data set, current records it leaves out are
    withdrawn. ``?allow_missing_translation=true``: texts may lack languages. ``?note=``: why.
    """
    replace = query_flag(request, "replace")
    allow_missing = query_flag(request, "allow_missing_translation")
    note = note_of(request.query.get("note", "")) or "import over the admin API"
    document = await parse_off_the_loop(await read_text(request))
    who, when = editor(request), now(request)

    def publish_all(session: Session) -> dict[str, Any]:
        summary = load(
            session,
            document,
            when,
            editor=who,
            note=note,
            allow_missing_translation=allow_missing,
            replace=replace,
        )
        return {
            "records": {kind.value: count for kind, count in summary.records.items()},
            "created": summary.created,
            "changed": summary.changed,
            "unchanged": summary.unchanged,
            "withdrawn": summary.withdrawn,
            "revisions": summary.revisions,
            "summary": summary.changes(),
        }

    try:
        return web.json_response(await in_transaction(request, publish_all))
    except SeedError as error:
        raise invalid_file(str(error)) from None


async def parse_off_the_loop(text: str) -> _Mapping:
    """:func:`parse` in a thread: a megabyte of YAML takes seconds, and the console, the
    caseworkers' inbox and ``/health`` are served by this same loop meanwhile."""
    return await asyncio.to_thread(parse, text)


def parse(text: str) -> _Mapping:
    """The body as a content file, every mapping knowing its line (for the loader's errors).

    No anchors or aliases, bounded depth and size (``content_file``): a refusal is a 422
    naming the line, as any YAML error is.
    """
    try:
        document = read_content(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = None if mark is None else mark.line + 1
        problem = getattr(error, "problem", None) or "cannot be read"
        where = "" if line is None else f"line {line}: "
        raise ApiError(
            422, "invalid_content_file", f"{where}not valid YAML: {problem}", line=line
        ) from None
    _refuse_nul(document, document.line if isinstance(document, _Mapping) else 1)
    if not isinstance(document, _Mapping):
        raise ApiError(
            422,
            "invalid_content_file",
            "expected a content file: a mapping with organisations, airports, flights, … "
            "(see GET /export for an example)",
            line=1,
        )
    return document


def _refuse_nul(document: object, line: int) -> None:
    """YAML's "\\0" escape makes a NUL that PostgreSQL cannot store; name its mapping's line.

    A loop over a stack, each container once: no recursion limit, whatever the file.
    """
    pending: list[tuple[object, int]] = [(document, line)]
    seen: set[int] = set()
    while pending:
        node, line = pending.pop()
        if isinstance(node, str):
            if NUL in node:
                raise ApiError(
                    422, "invalid_content_file", f"line {line}: a text {NUL_PROBLEM}", line=line
                )
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        children: list[object] = []
        if isinstance(node, dict):
            children = [*node, *node.values()]
        elif isinstance(node, list):
            children = node
        line = getattr(node, "line", line)
        pending.extend((child, getattr(child, "line", line)) for child in children)


def invalid_file(message: str) -> ApiError:
    """The loader's message as is, with its line and the place in the file as fields."""
    match = _WHERE.match(message)
    line = int(match["line"]) if match else None
    key = match["key"] if match and match["key"] else None
    unknown = _UNKNOWN_KEYS.search(message)
    if key is None and unknown is not None:
        key = unknown["key"]
    place = match["place"] if match else None
    if place and key and place.endswith(f".{key}"):
        key = None  # "organisations.unhcr" already names it
    field = ".".join(part for part in (place, key) if part) or None
    return ApiError(422, "invalid_content_file", message, field, line=line)
