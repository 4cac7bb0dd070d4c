"""Failed sign-ins are limited, so that a code cannot be guessed by trying.

Per client address (5 failures in 15 minutes) and for the whole server (100 in 15 minutes:
guessing from many addresses at once). A code has 60 bits, so even the global limit leaves a
guesser nothing to hope for; the per-address limit spares the others when one client misbehaves.
Kept in memory: a restart forgets it, which costs a guesser more restarts than it gains. Behind
a reverse proxy every client has the proxy's address, so only the global limit tells them
apart from each other — see docs/CONSOLE.md.
"""

from __future__ import annotations

from collections import deque
from datetime import datetime, timedelta

WINDOW = timedelta(minutes=15)
PER_ADDRESS = 5
OVERALL = 100


class FailedSignIns:
    def __init__(
        self, per_address: int = PER_ADDRESS, overall: int = OVERALL, window: timedelta = WINDOW
    ) -> None:
        self.per_address, self.overall, self.window = per_address, overall, window
        self._by_address: dict[str, deque[datetime]] = {}
        self._all: deque[datetime] = deque()

    def _forget_old(self, now: datetime) -> None:
        cutoff = now - self.window
        while self._all and self._all[0] <= cutoff:
            self._all.popleft()
        for address in list(self._by_address):
            times = self._by_address[address]
            while times and times[0] <= cutoff:
                times.popleft()
            if not times:
                del self._by_address[address]

    def wait(self, address: str, now: datetime) -> timedelta | None:
        """How long this address must wait before trying again; None if it may try now."""
        self._forget_old(now)
        mine = self._by_address.get(address, deque())
        if len(mine) >= self.per_address:
            return mine[0] + self.window - now
        if len(self._all) >= self.overall:
            return self._all[0] + self.window - now
        return None

    def failed(self, address: str, now: datetime) -> None:
        self._by_address.setdefault(address, deque()).append(now)
        self._all.append(now)
