"""Evenly spaced sends, ``rate`` a second: the notifier's requests to Rasa, per channel, and
each Rasa worker's calls to the provider (``bot/channels/alerts.py``) keep the same pace.

Standard library only, like ``kernel/alert_rates.py``: both runtimes import it. No burst is saved
up, neither while idle nor while the event loop was busy: a provider counting "30 a second" may
count any second, not ours. Each send starts at least ``1 / rate`` after the previous one
*actually* started. Measured with the notifier's test (45 alerts at 15 a second): keeping to a
fixed timetable instead let 18 into one second, because waiters woken late by a busy loop
(database threads) then went out back to back to catch up; spacing from the actual start keeps
it at 16 at most (15, plus where the window starts).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Pacer:
    """Starts ``rate`` a second, in the order they asked (waiters queue on one lock)."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.interval = 1.0 / rate
        self._clock = clock
        self._next = float("-inf")
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        """Until this caller's turn to send."""
        async with self._lock:
            while (now := self._clock()) < self._next:
                await asyncio.sleep(self._next - now)
            self._next = now + self.interval
