"""What a production deployment must be given, checked before Rasa loads anything.

The embedded default (`make run`, in-memory tracker store) makes its keys once and keeps them
in ``var/`` (scripts/stack.py). A deployment with a shared tracker store runs several workers or
machines, which must all hold the same keys, so none of them may make its own: without
``CONVERSATION_ID_KEY`` each worker would hash a person's address to a different conversation;
without ``ADDRESS_ENCRYPTION_KEY`` no caseworker's reply or alert to the web chat could be
recorded as delivered. Such a Rasa refuses to start and names the key.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from bot.channels.sealing import KEY_ENV as ADDRESS_KEY_ENV
from kernel.settings import CONVERSATION_ID_KEY as CONVERSATION_KEY_ENV
from kernel.settings import SANIC_WORKERS

#: Tracker stores that keep conversations in this process only: the embedded default.
IN_MEMORY_TRACKER_STORES: Final = frozenset(
    {None, "", "in_memory", "InMemoryTrackerStore", "bot.stores.ForgetfulInMemoryTrackerStore"}
)
#: Each key a shared deployment needs, and what breaks without it.
PRODUCTION_KEYS: Final = {
    CONVERSATION_KEY_ENV: "every worker must turn an address into the same conversation id",
    ADDRESS_KEY_ENV: "caseworkers' replies and alerts record their deliveries with it",
}


def is_shared(tracker_store_type: str | None) -> bool:
    """Whether a tracker store of this ``type`` is shared by several workers (production)."""
    return tracker_store_type not in IN_MEMORY_TRACKER_STORES


def missing_keys(tracker_store_type: str | None, unset: Collection[str]) -> list[str]:
    """The keys a deployment with this tracker store lacks (``unset``: the variables not
    given, ``kernel/settings.py``), each with why it needs it."""
    if not is_shared(tracker_store_type):
        return []
    return [f"{name} ({why})" for name, why in PRODUCTION_KEYS.items() if name in unset]


def workers_without_key(workers: int, conversation_key: bytes | None) -> str | None:
    """Why several Sanic workers cannot start without ``CONVERSATION_ID_KEY``, or None: each
    would have to make its own key, and one person would be a different conversation in each
    worker."""
    if workers <= 1 or conversation_key is not None:
        return None
    return (
        f"{SANIC_WORKERS} is {workers}, but {CONVERSATION_KEY_ENV} is not set: every worker "
        "must turn an address into the same conversation id (docs/OPERATIONS.md)"
    )
