"""Whether an answer must warn that what it shows may be out of date.

Two limits protect users, and they differ on purpose. ``valid_until`` is the editor's promise:
past it a fact is never presented as current (queries.py). Freshness is the reader's caution:
a fact still valid but checked long ago (per kind, ``actions/settings.py``) is shown, with a
warning that it may be out of date and when it was last checked, so that people can weigh it
against what they hear elsewhere instead of being left with nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from actions.content.models import Provenance
from actions.content.records import spec_of
from actions.settings import FreshnessLimits


def limit_for(fact: Provenance, limits: FreshnessLimits) -> timedelta:
    """How long after its last check this fact is shown without a warning (its kind says)."""
    spec = spec_of(fact)
    if spec is None:
        raise TypeError(f"no freshness limit for {type(fact).__name__}")
    return spec.limit(limits, fact)


def stalest_check(
    facts: Iterable[Provenance], now: datetime, limits: FreshnessLimits
) -> datetime | None:
    """The oldest check among the facts past their freshness limit; None if all are fresh.

    The oldest, as in the provenance lines: an answer is only as fresh as its stalest part.
    """
    stale = [fact.verified_at for fact in facts if now - fact.verified_at > limit_for(fact, limits)]
    return min(stale, default=None)
