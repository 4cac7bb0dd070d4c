"""A place a person shared (a location pin, a venue): what the assistant is asked with it.

For now a shared place is a request for help: the message Rasa gets is the help intent, and the
place rides along in the message's metadata (``contract.LOCATION``) for an answer that knows
what is near it. The coordinates are never logged and never stored by the channels.
"""

from __future__ import annotations

import math
from typing import Any, Final

from kernel.contract import location_metadata

#: What a shared place asks until an answer about nearby places exists: who can help.
PLACE_QUESTION: Final = "/ask_help"


def place_metadata(lat: object, lon: object) -> dict[str, Any] | None:
    """The metadata of a shared place, or None when the provider's numbers are no place on
    Earth (missing, not numbers, out of range)."""
    if not all(isinstance(n, int | float) and not isinstance(n, bool) for n in (lat, lon)):
        return None
    latitude, longitude = float(lat), float(lon)  # type: ignore[arg-type]
    if not (math.isfinite(latitude) and math.isfinite(longitude)):
        return None
    if not (-90.0 <= latitude <= 90.0 and -180.0 <= longitude <= 180.0):
        return None
    return location_metadata(latitude, longitude)
