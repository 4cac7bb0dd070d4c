"""The console's refusals, as pages a person can act on (the API answers JSON instead)."""

from __future__ import annotations

from aiohttp import web

from actions.admin.console.guard import SignedIn
from actions.admin.console.pages import render


def form_refused(request: web.Request, who: SignedIn | None) -> web.Response:
    """403: a form without this browser's CSRF token changes nothing."""
    return render(request, "refused.html", {"reason": "form_expired"}, who, 403)


def not_found(request: web.Request, who: SignedIn, reason: str = "not_found") -> web.Response:
    return render(request, "refused.html", {"reason": reason}, who, 404)
