"""``/console/``: what needs the editor now, and the one-tap "checked, still true"."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from sqlalchemy.orm import Session

from actions import publishing
from actions.admin.console import flash, words
from actions.admin.console.guard import editor_or_sign_in, field
from actions.admin.console.needs import AlertReport, Need, versions, what_needs_me
from actions.admin.console.pages import interface_language, render
from actions.admin.console.posted import record_form
from actions.admin.console.refusals import not_found
from actions.admin.console.stale import stale_page
from actions.admin.console.titles import title
from actions.admin.state import in_transaction, now
from actions.content import format as fmt
from actions.content.editing import StaleVersion
from actions.content.localise import isolate, word
from actions.content.models import Gate, RecordKind
from actions.content.validation import ContentError
from actions.settings import FreshnessLimits

routes = web.RouteTableDef()
LIMITS: web.AppKey[FreshnessLimits] = web.AppKey("freshness_limits")
CHECKED_NOTE = "checked, still true"


def _shown(
    need: Need, language: str, moment: Any, known: dict[tuple[str, int], int]
) -> dict[str, Any]:
    return {
        "kind": need.kind,
        "key": need.key,
        "title": title(need.row, language),
        "checked": fmt.ago(need.verified_at, moment, language),
        "limit": words.duration(need.limit, language),
        "over": words.duration(abs(need.over), language),
        "version": known.get((need.kind, need.row.id), 0),
    }


def _contradicting(gate: Gate, language: str) -> dict[str, Any]:
    """A gate whose note says the airport is closed, with what the airport says instead."""
    status = gate.airport.status
    if status is None or status.withdrawn_at is not None:
        state = words.say("is_withdrawn", language)
    else:
        state = word("status", status.state.value, language)
    return {
        "kind": RecordKind.GATE.value,
        "key": f"{gate.airport.iata}/{gate.slug}",
        "title": title(gate, language),
        "note": fmt.text(gate, "note", language),
        "airport": fmt.text(gate.airport, "name", language),
        "state": state,
    }


def _alert(report: AlertReport, language: str, moment: Any) -> dict[str, Any]:
    """A broadcast as the page lists it: what it was about, when, and its outcome in words."""
    outcome, key = report.outcome, report.broadcast.topic_key
    return {
        "topic": words.label(words.TOPIC, report.broadcast.topic.value, language),
        # "*": every destination, every announcement.
        "record": "" if key == "*" else isolate(key, language),
        "when": fmt.ago(report.broadcast.created_at, moment, language),
        "outcome": words.say("sep", language).join(
            words.say(f"alert_{name}", language, n=n) for name, n in outcome.counts.items()
        ),
        "total": words.say("alert_total", language, n=outcome.total),
        "reasons": [
            words.say("alert_failed_why", language, reason=words.say(why, language), n=n)
            for why, n in outcome.reasons
        ],
    }


@routes.get("/console/")
async def home(request: web.Request) -> web.Response:
    who = await editor_or_sign_in(request)
    language, _ = interface_language(request)
    moment = now(request)
    limits = request.app[LIMITS]

    def read(session: Session) -> dict[str, Any]:
        needs = what_needs_me(session, moment, limits)
        known = versions(session, [*needs.stale, *needs.soon, *needs.expired])
        return {
            "contradicting": [_contradicting(gate, language) for gate in needs.contradicting],
            "stale": [_shown(n, language, moment, known) for n in needs.stale],
            "soon": [_shown(n, language, moment, known) for n in needs.soon],
            "expired": [_shown(n, language, moment, known) for n in needs.expired],
            "totals": needs.totals,
            "untranslated": needs.untranslated,
            "failed_alerts": [_alert(a, language, moment) for a in needs.failed_alerts],
            "recent_alerts": [_alert(a, language, moment) for a in needs.recent_alerts],
            "empty": needs.empty,
        }

    context = await in_transaction(request, read)
    context["flashes"] = flash.take(request, language)
    response = render(request, "home.html", context, who)
    flash.forget(response)
    return response


@routes.post("/console/checked/{kind}/{key:.+}")
async def checked(request: web.Request) -> web.Response:
    """Renew ``verified_at`` (and a volatile fact's window) as a revision; alerts nobody."""
    posted = await record_form(request)
    if isinstance(posted, web.Response):
        return posted
    who, spec, key = posted.who, posted.spec, posted.key
    version = field(posted.form, "version")
    moment = now(request)
    language, _ = interface_language(request)

    def renew(session: Session) -> str:
        """The record's name as the list showed it ("North Gate (KBL)"), not its key. A second
        tap within the same second (a double tap, two editors at once) finds the record checked
        already: that is what the editor asked for, not a missing record."""
        try:
            publishing.reverify(
                session,
                who.editor,
                spec.kind,
                key,
                CHECKED_NOTE,
                now=moment,
                expected_version=int(version) if version.isdigit() else None,
            )
        except StaleVersion:
            raise
        except ContentError:
            if spec.find(session, spec.normalise(key)) is None:
                raise
        row = spec.find(session, spec.normalise(key))
        return title(row, language) if row is not None else key

    try:
        name = await in_transaction(request, renew)
    except StaleVersion as error:
        return await stale_page(request, who, spec, key, error, None)
    except ContentError:
        return not_found(request, who)
    raise flash.redirect_with(request, "/console/", "checked_done", record=name)
