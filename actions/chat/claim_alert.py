"""The verdict on a rumour, as it reaches someone who asked about it and wanted to be told.

Written by ``action_send_alert`` for a broadcast of topic ``claims`` (``actions/claims/askers.py``):
the claim as people tell it, the verdict, what is true and what to do, who checked it when
(``format.claim_block``), in the language the person asked in. On SMS it must arrive whole in
at most three segments — there is no MORE to ask for on a message nobody is waiting to answer —
so a long explanation is cut at a word, never the verdict or the source.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Final

from sqlalchemy.orm import Session

from actions.content import format as fmt
from actions.content import queries
from actions.content.models import Claim, GuidanceTopic, Revision
from kernel.contract import SMS_CHANNELS
from kernel.lang import texts
from kernel.sms_render import for_basic_phones
from kernel.sms_segments import fits

MESSAGE: Final = "alerts.claim"


def claim_alert(
    session: Session, revision: Revision, language: str, now: datetime, channel: str | None
) -> str | None:
    """The finished text; None when the claim is gone or withdrawn since it was queued."""
    claim = session.get(Claim, revision.record_id)
    if claim is None or claim.withdrawn_at is not None:
        return None
    contact = queries.official_contact(session, claim, now)
    text = _rendered(claim, now, language, contact)
    if channel not in SMS_CHANNELS or fits(for_basic_phones(text)):
        return text
    if not fits(for_basic_phones(_rendered(claim, now, language, contact, ""))):
        contact = None  # the verdict and its source come first
    return _shortened(claim, now, language, contact)


def _rendered(
    claim: Claim,
    now: datetime,
    language: str,
    contact: GuidanceTopic | None,
    explanation: str | None = None,
) -> str:
    """The message; with ``explanation`` (cut for an SMS) the contact's one way only."""
    block = fmt.claim_block(
        claim, now, language, explanation, contact, briefly=explanation is not None
    )
    return texts.render(MESSAGE, language, claim=block)


def _shortened(claim: Claim, now: datetime, language: str, contact: GuidanceTopic | None) -> str:
    """The longest cut of the explanation with which the whole text fits three segments."""
    explanation = cut_to_fit(
        fmt.text(claim, "explanation", language),
        lambda cut: fits(for_basic_phones(_rendered(claim, now, language, contact, cut))),
    )
    return _rendered(claim, now, language, contact, explanation)


def cut_to_fit(text: str, fitting: Callable[[str], bool]) -> str:
    """The longest cut of ``text`` at a word (``_cut``) that is ``fitting``; "" if none is."""
    low, high = 0, len(text)
    best = ""
    while low <= high:
        middle = (low + high) // 2
        cut = _cut(text, middle)
        if fitting(cut):
            best, low = cut, middle + 1
        else:
            high = middle - 1
    return best


def _cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, cut at a word with "…" ("" if none fits)."""
    if len(text) <= limit:
        return text
    head = text[: max(limit - 1, 0)]
    if " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip() + "…" if head.strip() else ""


__all__ = ["claim_alert", "cut_to_fit"]
