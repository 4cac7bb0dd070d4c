"""``/console/records``: every kind, and the records of one kind, to open one for editing.

Lists are bounded (:data:`SHOWN`): with thousands of flights a phone gets the first ones in
the order answers show them (flights: from a few hours ago on) and a search by key.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from sqlalchemy.orm import Session

from actions.admin.console.guard import editor_or_sign_in
from actions.admin.console.needs import RECENT_DEPARTURE
from actions.admin.console.pages import MENU, interface_language, render
from actions.admin.console.refusals import not_found
from actions.admin.console.titles import title
from actions.admin.state import in_transaction, now
from actions.content.models import Flight
from actions.content.records import spec_for
from actions.content.validation import ContentError

routes = web.RouteTableDef()
SHOWN = 100


@routes.get("/console/records")
async def kinds(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    return render(request, "kinds.html", {"kinds": MENU}, who)


@routes.get("/console/records/{kind}")
async def listing(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    try:
        spec = spec_for(request.match_info["kind"])
    except ContentError:
        return not_found(request, who)
    language, _ = interface_language(request)
    wanted = request.query.get("q", "").strip()[:64]
    moment = now(request)

    def read(session: Session) -> dict[str, Any]:
        statement = spec.ordered()
        if spec.model is Flight and not wanted:
            statement = statement.where(Flight.departs_at >= moment - RECENT_DEPARTURE)
        rows: list[dict[str, Any]] = []
        more = False
        for row in session.scalars(statement.limit(SHOWN * 20 if wanted else SHOWN + 1)):
            key = spec.key_of(row)
            if wanted and wanted.lower() not in key.lower():
                continue
            if len(rows) == SHOWN:
                more = True
                break
            rows.append(
                {
                    "key": key,
                    "title": title(row, language),
                    "withdrawn": row.withdrawn_at is not None,
                }
            )
        return {"rows": rows, "more": more}

    found = await in_transaction(request, read)
    context = {"kind": spec.kind.value, "q": wanted, "shown": SHOWN, **found}
    return render(request, "records.html", context, who)
