"""Providers retry webhooks they think failed; each message must still be answered once."""

import threading
import time
from collections import OrderedDict


class SeenMessages:
    """Remembers recent provider message ids (bounded in count and age) in this process.

    With several Rasa processes behind a load balancer a retry can reach another process;
    the lock store keeps turns ordered, and a shared store for these ids is a later step.
    """

    def __init__(self, capacity: int = 10_000, ttl_seconds: float = 3600.0) -> None:
        self._capacity = capacity
        self._ttl = ttl_seconds
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def first_time(self, message_id: str) -> bool:
        """True the first time ``message_id`` is offered, False for every repeat."""
        now = time.monotonic()
        with self._lock:
            while self._seen and next(iter(self._seen.values())) < now - self._ttl:
                self._seen.popitem(last=False)
            if message_id in self._seen:
                return False
            self._seen[message_id] = now
            if len(self._seen) > self._capacity:
                self._seen.popitem(last=False)
            return True

    def forget(self, message_id: str) -> None:
        """Let the provider's next delivery of ``message_id`` through: this one went unanswered."""
        with self._lock:
            self._seen.pop(message_id, None)
