"""Numbers and durations in environment variables and content files, read one way everywhere.

Both runtimes read durations (``CONVERSATION_RETENTION`` on both sides, ``MESSAGE_MAX_AGE`` and
the tracker retention in Rasa's process, freshness limits and subscription TTL on the action
server, ``valid_for`` in content files) and numbers (alert rates, the notifier's limits, the
admin API's port, the language-follow confidence). One syntax each, one error message each,
here. Standard library only, like ``kernel/alert_rates.py``: Rasa's process and the content
runtime both import it. Not in ``kernel/lang``: these are not facts about languages.

A duration is whole numbers with units ``d``, ``h``, ``m``, in that order: ``90m``, ``2h``,
``1h30m``, ``14d``, ``1d 12H`` (spaces and case do not matter); content files may also go back
in time (``-1h``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Final

_DURATION: Final = re.compile(r"(?P<sign>-)?(?:(?P<d>\d+)d)?(?:(?P<h>\d+)h)?(?:(?P<m>\d+)m)?")


class SettingsError(ValueError):
    """A value that cannot be used; the message names the variable and what to write instead."""


def duration(text: str) -> timedelta:
    """``45m``, ``3h``, ``1h30m``, ``2d``, ``1d 12H``, ``-1h`` → timedelta; ValueError if not."""
    match = _DURATION.fullmatch(str(text).replace(" ", "").lower())
    if match is None or not any(match.group(unit) for unit in "dhm"):
        raise ValueError(f"{text!r} is not a duration like 45m, 3h, 1h30m, 2d or -1h")
    value = timedelta(
        days=int(match["d"] or 0), hours=int(match["h"] or 0), minutes=int(match["m"] or 0)
    )
    return -value if match["sign"] else value


def parse_duration(name: str, raw: str) -> timedelta:
    """The duration ``raw`` of variable ``name``, longer than zero; SettingsError naming it."""
    try:
        value = duration(raw)
    except ValueError:
        raise SettingsError(
            f"{name} is {raw!r}; give a duration such as 90m, 2h, 1h30m or 14d"
        ) from None
    if value <= timedelta(0):
        raise SettingsError(f"{name} is {raw!r}; it must be longer than zero")
    return value


def duration_setting(environ: Mapping[str, str], name: str, default: timedelta) -> timedelta:
    """The duration in variable ``name``, ``default`` when unset or blank."""
    raw = environ.get(name, "").strip()
    return parse_duration(name, raw) if raw else default


def positive_number(environ: Mapping[str, str], name: str, default: float) -> float:
    """The number above zero in variable ``name`` (``default`` when unset); SettingsError if not."""
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    value = _float(raw)
    if value is None or value <= 0:
        raise SettingsError(f"{name} is {raw!r}; give a number above zero")
    return value


def whole_number(
    environ: Mapping[str, str], name: str, default: int, *, zero_allowed: bool = False
) -> int:
    """The whole number above zero in variable ``name`` (``default`` when unset); zero too
    with ``zero_allowed``, for a limit whose 0 means "no limit"."""
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0 or (value == 0 and not zero_allowed):
        lowest = "zero or above" if zero_allowed else "above zero"
        raise SettingsError(f"{name} is {raw!r}; give a whole number {lowest}, like {default}")
    return value


def fraction(environ: Mapping[str, str], name: str, default: float) -> float:
    """The number from 0 to 1 in variable ``name`` (``default`` when unset)."""
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    value = _float(raw)
    if value is None or not 0.0 <= value <= 1.0:
        raise SettingsError(f"{name} is {raw!r}; give a number from 0 to 1, like {default}")
    return value


def _float(raw: str) -> float | None:
    """A finite number, else None ("nan" and "inf" are no setting anyone means)."""
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if value == value and abs(value) != float("inf") else None
