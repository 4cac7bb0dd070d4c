"""A form posted about one record ("checked, still true", withdraw): who sent it, whether it
carries their CSRF token, and which record it names; or the page that refuses it."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from actions.admin.console.guard import Form, FormRefused, SignedIn, checked_form, editor_or_sign_in
from actions.admin.console.refusals import form_refused, not_found
from actions.content.records import KindSpec, spec_for
from actions.content.validation import ContentError


@dataclass(frozen=True)
class RecordForm:
    who: SignedIn
    form: Form
    spec: KindSpec
    #: The record's key as stored (normalised from the address).
    key: str


async def record_form(request: web.Request) -> RecordForm | web.Response:
    """The signed-in editor's form about ``{kind}/{key}``; 403 without the form's token, 404
    for a kind or key that cannot exist (a redirect to sign in for nobody signed in)."""
    who = await editor_or_sign_in(request)
    try:
        form = await checked_form(request, who.secret)
        spec = spec_for(request.match_info["kind"])
        key = spec.normalise(request.match_info["key"])
    except FormRefused as refusal:
        return form_refused(request, who, refusal)
    except ContentError:
        return not_found(request, who)
    return RecordForm(who, form, spec, key)
