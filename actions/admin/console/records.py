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
from actions.admin.console.pages import interface_language, menu, render
from actions.admin.console.refusals import not_found
from actions.admin.console.titles import shown_with, title
from actions.admin.state import in_transaction, now
from actions.content.models import Airport, AirportStatus, Flight
from actions.content.records import KindSpec, spec_for
from actions.content.validation import ContentError

routes = web.RouteTableDef()
SHOWN = 100


def searched(spec: KindSpec) -> Any:
    """The column a key search looks in: the part of the key an editor remembers."""
    model = spec.model
    if model is Flight:
        return Flight.flight_number
    if model is AirportStatus or model is Airport:
        return Airport.iata
    return model.slug


@routes.get("/console/records")
async def kinds(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    return render(request, "kinds.html", {"kinds": menu()}, who)


@routes.get("/console/records/{kind}")
async def listing(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    try:
        spec = spec_for(request.match_info["kind"])
    except ContentError:
        return not_found(request, who)
    language, _ = interface_language(request)
    raw = request.query.get("q", "").strip()[:64]
    # What is searched is stored as written in keys: upper-case codes, lower-case slugs.
    wanted = (
        raw.split("@")[0].upper()
        if spec.model in (Flight, AirportStatus, Airport)
        else (raw.split("/")[-1].lower())
    )
    moment = now(request)

    def read(session: Session) -> dict[str, Any]:
        statement = spec.ordered().options(*shown_with(spec.model, "withdrawn_at"))
        if wanted:
            statement = statement.where(searched(spec).contains(wanted, autoescape=True))
        elif spec.model is Flight:
            statement = statement.where(Flight.departs_at >= moment - RECENT_DEPARTURE)
        rows = [
            {
                "key": spec.key_of(row),
                "title": title(row, language),
                "withdrawn": row.withdrawn_at is not None,
            }
            for row in session.scalars(statement.limit(SHOWN + 1))
        ]
        return {"rows": rows[:SHOWN], "more": len(rows) > SHOWN}

    found = await in_transaction(request, read)
    context = {"kind": spec.kind.value, "q": raw, "shown": SHOWN, **found}
    return render(request, "records.html", context, who)
