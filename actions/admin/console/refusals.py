"""The console's refusals, as pages a person can act on (the API answers JSON instead)."""

from __future__ import annotations

from aiohttp import web

from actions.admin.console.guard import FormRefused, SignedIn
from actions.admin.console.pages import render


def form_refused(request: web.Request, who: SignedIn | None, refusal: FormRefused) -> web.Response:
    """403: a form without this browser's CSRF token changes nothing; 400: one that cannot
    be read as a form."""
    return render(request, "refused.html", {"reason": refusal.reason}, who, refusal.status)


def wrong_role(request: web.Request, who: SignedIn) -> web.Response:
    """403: editors and caseworkers have different permissions (docs/HANDOFF.md)."""
    return render(request, "refused.html", {"reason": f"not_for_{who.role}"}, who, 403)


def not_found(request: web.Request, who: SignedIn, reason: str = "not_found") -> web.Response:
    return render(request, "refused.html", {"reason": reason}, who, 404)
