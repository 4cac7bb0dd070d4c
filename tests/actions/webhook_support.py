"""A helpdesk's side of the case webhooks, as docs/HANDOFF.md tells a receiver to write it."""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Mapping


def verify(secret: bytes, headers: Mapping[str, str], body: bytes, window: int = 300) -> bool:
    """The receiver's check, as docs/HANDOFF.md gives it: a fresh timestamp, and the HMAC of
    "<timestamp>.<body>" under the shared secret."""
    timestamp = headers.get("X-Timestamp", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > window:
        return False  # too old, or from the future: a replay
    signed = timestamp.encode() + b"." + body
    expected = "sha256=" + hmac.new(secret, signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers.get("X-Signature", ""))
