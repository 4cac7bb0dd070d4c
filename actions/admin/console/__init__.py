"""The editors' web console at ``/console/``: the same editing service, as pages for a phone.

Server-rendered (aiohttp-jinja2, autoescaped), forms that work without JavaScript, in English,
Dari and Pashto. Every change goes through ``actions/publishing.py`` (the editing service and the
alerts it queues) like the CLI and the HTTP API do; this package only turns forms into its
calls. Design: docs/CONSOLE.md.
"""

from __future__ import annotations

from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web
from aiohttp.typedefs import Handler

from actions.admin.console import (
    cases,
    claims,
    dataset,
    editor,
    history,
    home,
    questions,
    records,
    signin,
)
from actions.admin.console.guard import SIGN_IN, WrongRole, signed_in
from actions.admin.console.preview import Answers
from actions.admin.console.refusals import not_found, wrong_role
from actions.admin.console.throttle import FailedSignIns
from actions.settings import FreshnessLimits

HERE = Path(__file__).parent
PREFIX = "/console"


def setup(app: web.Application) -> None:
    """Mount the console on the admin application."""
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=jinja2.select_autoescape(default=True),
        undefined=jinja2.StrictUndefined,
    )
    app[signin.THROTTLE] = FailedSignIns()
    limits = FreshnessLimits.from_env()
    app[home.LIMITS] = limits
    app[editor.ANSWERS] = Answers(limits)
    app.middlewares.append(_wrong_role_refused)
    app.router.add_get(PREFIX, _to_home)
    app.router.add_static(f"{PREFIX}/static", HERE / "static", append_version=False)
    for module in (signin, home, editor, records, history, dataset, cases, questions, claims):
        app.add_routes(module.routes)
    # Last: any other console address is a page saying so, not the API's JSON error.
    app.router.add_get(PREFIX + "/{anything:.*}", _no_such_page)


@web.middleware
async def _wrong_role_refused(request: web.Request, handler: Handler) -> web.StreamResponse:
    """403 with a link to the signed-in person's own pages: an editor on a case, a caseworker
    on the content."""
    try:
        return await handler(request)
    except WrongRole as refused:
        return wrong_role(request, refused.who)


async def _no_such_page(request: web.Request) -> web.Response:
    who = await signed_in(request)
    if who is None:
        raise web.HTTPSeeOther(f"{SIGN_IN}?next={request.path_qs}")
    return not_found(request, who, "no_page")


async def _to_home(request: web.Request) -> web.Response:
    raise web.HTTPPermanentRedirect(f"{PREFIX}/")
