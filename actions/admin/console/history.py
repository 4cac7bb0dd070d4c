"""``/console/history/…``: who changed a record, when and why, field by field; and undoing it.

The diff is per field (texts per language): before struck through, after underlined, which
is what an editor needs to see at a glance on a phone. Undoing is ``publishing.rollback``: a new
revision, itself undoable; undoing an airport's closure puts back the gates closed with it, and
the page after it names them, and any it left because they changed since.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from sqlalchemy.orm import Session

from actions import consistency, publishing
from actions.admin.console import flash
from actions.admin.console.forms import shown
from actions.admin.console.guard import FormRefused, checked_form, editor_or_sign_in, field
from actions.admin.console.pages import interface_language, render
from actions.admin.console.refusals import form_refused, not_found
from actions.admin.state import in_transaction, now
from actions.content import editing
from actions.content import format as fmt
from actions.content.models import Gate
from actions.content.records import KindSpec, spec_for
from actions.content.revision import Revision
from actions.content.validation import ContentError
from kernel.lang.codes import LANGUAGES

routes = web.RouteTableDef()
LIMIT = 50


def differences(spec: KindSpec, change: Revision) -> list[dict[str, str]]:
    """One line per changed field (and language): field, before, after."""
    lines = []
    before = change.before or {}
    for name in change.changed_fields():
        old, new = before.get(name), change.after.get(name)
        if name == "withdrawn_at":
            lines.append({"field": name, "before": str(old or ""), "after": str(new or "")})
            continue
        item = spec.field(name) if spec.has(name) else None
        if isinstance(old, dict) or isinstance(new, dict):
            for lang in LANGUAGES:
                a, b = (old or {}).get(lang, ""), (new or {}).get(lang, "")
                if a != b:
                    lines.append(
                        {"field": f"{name} · {lang}", "before": a, "after": b, "language": lang}
                    )
        elif item is not None:
            lines.append({"field": name, "before": shown(item, old), "after": shown(item, new)})
    return lines


@routes.get("/console/history/{kind}/{key:.+}")
async def history(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    try:
        spec = spec_for(request.match_info["kind"])
        key = spec.normalise(request.match_info["key"])
    except ContentError:
        return not_found(request, who)
    language, _ = interface_language(request)
    moment = now(request)

    def read(session: Session) -> list[dict[str, Any]]:
        return [
            {
                "id": change.id,
                "editor": change.editor,
                "ago": fmt.ago(change.created_at, moment, language),
                "at": change.created_at,
                "action": change.action.value,
                "note": change.note,
                "lines": differences(spec, change),
            }
            for change in editing.history(session, spec.kind, key, LIMIT)
        ]

    changes = await in_transaction(request, read)
    context = {
        "kind": spec.kind.value,
        "key": key,
        "changes": changes,
        "flashes": flash.take(request, language),
    }
    response = render(request, "history.html", context, who)
    flash.forget(response)
    return response


@routes.post(r"/console/rollback/{revision:\d{1,9}}")
async def rollback(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    try:
        form = await checked_form(request, who.secret)
    except FormRefused as refusal:
        return form_refused(request, who, refusal)
    revision_id, moment = int(request.match_info["revision"]), now(request)
    language, _ = interface_language(request)

    def undo(session: Session) -> tuple[str, str, list[flash.Said]]:
        undone = publishing.rollback(
            session, who.editor, revision_id, field(form, "note"), now=moment
        )
        change = undone.revision
        return change.kind.value, change.record_key, _with_it(session, undone, language)

    try:
        kind, key, also = await in_transaction(request, undo)
    except ContentError as error:
        return render(
            request, "refused.html", {"reason": "not_found", "detail": str(error)}, who, 409
        )
    raise flash.redirect_with(
        request, f"/console/history/{kind}/{key}", "rolled_back", *also, record=f"{kind} {key}"
    )


def _with_it(session: Session, undone: publishing.Undone, language: str) -> list[flash.Said]:
    """ "Gates put back with it: East Gate, …", and those left because they changed since."""
    said: list[flash.Said] = []
    for key, gates in (("rolled_back_gates", undone.changed_state), ("rollback_left", undone.left)):
        names = [
            fmt.text(row, "name", language)
            for gate in gates
            if (row := session.get(Gate, gate.record_id)) is not None
        ]
        if names:
            said.append((key, {"gates": consistency.listed(names, language)}))
    return said
