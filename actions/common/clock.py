"""Now, in UTC: the one clock the action server, the notifier and the editors' tools default to.

Every component takes a ``clock`` argument so tests can pin the time; this is what it is when
nothing is pinned. Standard library only: the notifier daemon imports it without rasa_sdk.
"""

from __future__ import annotations

from datetime import datetime, timezone


def utc_now() -> datetime:
    """Now, as precise as the system clock: rate limits and timeouts count fractions."""
    return datetime.now(timezone.utc)


def utc_now_to_second() -> datetime:
    """Now, to the second: what revisions and tokens record. Editors read these times, and
    microseconds would only be noise."""
    return utc_now().replace(microsecond=0)
