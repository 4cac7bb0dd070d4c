"""A save refused because the record changed since the form was opened: say who, when, and
show both versions, so the editor can merge by eye instead of overwriting a colleague."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from sqlalchemy.orm import Session

from actions.admin.console.forms import shown
from actions.admin.console.guard import SignedIn
from actions.admin.console.pages import interface_language, render
from actions.admin.state import in_transaction, now
from actions.content import format as fmt
from actions.content.editing import StaleVersion, version_of
from actions.content.records import KindSpec, snapshot


def displayed(spec: KindSpec, values: dict[str, Any] | None) -> list[tuple[str, str]]:
    """A record's values as (field, text) lines, texts one line per language."""
    lines: list[tuple[str, str]] = []
    for item in spec.fields:
        value = (values or {}).get(item.name)
        if isinstance(value, dict):
            lines.append((item.name, "\n".join(f"{lang}: {text}" for lang, text in value.items())))
        else:
            lines.append((item.name, shown(item, value)))
    return lines


async def stale_context(
    request: web.Request, spec: KindSpec, key: str, error: StaleVersion
) -> dict[str, Any]:
    """Who changed it and how long ago, their version (now) and the version to save over."""
    language, _ = interface_language(request)
    moment = now(request)

    def read(session: Session) -> dict[str, Any]:
        row = spec.find(session, key)
        return {
            "values": None if row is None else snapshot(spec, row),
            "version": version_of(session, spec.kind, row),
        }

    current = await in_transaction(request, read)
    return {
        "who": error.changed_by or "?",
        "ago": "" if error.changed_at is None else fmt.ago(error.changed_at, moment, language),
        "theirs": displayed(spec, current["values"]),
        "version": current["version"],
    }


async def stale_page(
    request: web.Request,
    who: SignedIn,
    spec: KindSpec,
    key: str,
    error: StaleVersion,
    yours: dict[str, Any] | None,
) -> web.Response:
    """409 on its own page (for one-tap actions that have no form to show again)."""
    context = await stale_context(request, spec, key, error)
    page = {
        "stale": context,
        "kind": spec.kind.value,
        "key": key,
        "yours": None if yours is None else displayed(spec, yours),
    }
    return render(request, "stale.html", page, who, 409)
