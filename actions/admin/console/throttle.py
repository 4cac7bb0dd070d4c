"""Failed sign-ins are slowed down and limited per client and per code, never for everyone.

A server-wide limit would let anyone lock every editor and caseworker out in a second (a few
hundred wrong codes from a few dozen addresses) and add nothing against guessing: a code has
60 bits, a token 256. So the limits are where the trying is:

* **Per client** (its address, ``clients.py``; behind the proxy the one it vouches for): each
  failure makes the client's next attempt wait longer before it is even checked (0.5 s, 1 s,
  2 s, 4 s), and after 5 failures in 15 minutes it is refused (429) until the oldest leaves the
  window. Every other client signs in at once meanwhile.
* **Per code**: a code or token refused 5 times in 15 minutes is refused without asking the
  database again, from any address (a replayed link, a bot retrying a revoked token).

An attempt is counted when it starts and forgotten if it succeeds, so a burst of parallel
attempts from one client cannot all slip past the limit before the first is refused. Kept in
memory, for at most ``TRACKED`` clients and codes (the least recently failing are forgotten
first): a restart or a flood of new addresses forgets some failures, which costs a guesser more
than it gains him.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections import OrderedDict, deque
from dataclasses import dataclass
from datetime import datetime, timedelta

from actions.admin.console.sessions import plain_code

logger = logging.getLogger(__name__)

WINDOW = timedelta(minutes=15)
PER_ADDRESS = 5
PER_CODE = 5
#: The wait before checking a client's second attempt; it doubles with each further failure.
FIRST_DELAY_SECONDS = 0.5
MAX_DELAY_SECONDS = 8.0
TRACKED = 10_000


@dataclass
class Attempt:
    """One sign-in attempt: refused at once (``refused_for``), or checked after ``delay``."""

    client: str
    code: str
    at: datetime
    delay: float = 0.0
    refused_for: timedelta | None = None
    #: The code was refused too often already: refuse it again without looking it up.
    spent_code: bool = False


class _Failures:
    """Failure times per key, oldest key first; keys with nothing in the window are dropped."""

    def __init__(self, window: timedelta, tracked: int) -> None:
        self.window, self.tracked = window, tracked
        self._times: OrderedDict[str, deque[datetime]] = OrderedDict()

    def recent(self, key: str, now: datetime) -> deque[datetime]:
        self._forget_old(now)
        times = self._times.get(key, deque())
        cutoff = now - self.window
        while times and times[0] <= cutoff:
            times.popleft()
        return times

    def add(self, key: str, now: datetime) -> None:
        times = self._times.setdefault(key, deque())
        times.append(now)
        self._times.move_to_end(key)
        while len(self._times) > self.tracked:
            self._times.popitem(last=False)

    def remove(self, key: str, at: datetime) -> None:
        times = self._times.get(key)
        if times is not None and at in times:
            times.remove(at)

    def _forget_old(self, now: datetime) -> None:
        cutoff = now - self.window
        while self._times:
            key, times = next(iter(self._times.items()))
            if times and times[-1] > cutoff:
                break
            del self._times[key]


class FailedSignIns:
    def __init__(
        self,
        per_address: int = PER_ADDRESS,
        per_code: int = PER_CODE,
        window: timedelta = WINDOW,
        first_delay: float = FIRST_DELAY_SECONDS,
        max_delay: float = MAX_DELAY_SECONDS,
        tracked: int = TRACKED,
    ) -> None:
        self.per_address, self.per_code, self.window = per_address, per_code, window
        self.first_delay, self.max_delay = first_delay, max_delay
        self._by_client = _Failures(window, tracked)
        self._by_code = _Failures(window, tracked)
        #: Names a client in the log without its address; new with each process.
        self._log_key = secrets.token_bytes(16)

    def attempt(self, client: str, presented: str, now: datetime) -> Attempt:
        """Start an attempt: counted as failed until :meth:`succeeded` says otherwise."""
        typed = plain_code(presented) or presented.strip()
        code = hashlib.sha256(typed.encode("utf-8")).hexdigest()
        mine = self._by_client.recent(client, now)
        if len(mine) >= self.per_address:
            return Attempt(client, code, now, refused_for=mine[0] + self.window - now)
        earlier = len(mine)
        delay = 0.0 if earlier == 0 else min(self.first_delay * 2 ** (earlier - 1), self.max_delay)
        spent = len(self._by_code.recent(code, now)) >= self.per_code
        self._by_client.add(client, now)
        self._by_code.add(code, now)
        return Attempt(client, code, now, delay=delay, spent_code=spent)

    def succeeded(self, attempt: Attempt) -> None:
        self._by_client.remove(attempt.client, attempt.at)
        self._by_code.remove(attempt.code, attempt.at)

    def failed(self, attempt: Attempt) -> None:
        """Log the failure: one line, naming the client by a pseudonym, never the code."""
        failures = len(self._by_client.recent(attempt.client, attempt.at))
        pseudonym = hashlib.blake2s(
            attempt.client.encode("utf-8"), key=self._log_key, digest_size=4
        ).hexdigest()
        level = logging.WARNING if failures >= self.per_address else logging.INFO
        logger.log(
            level,
            "console sign-in refused: client %s, failure %d of %d in %d min%s",
            pseudonym,
            failures,
            self.per_address,
            self.window.total_seconds() // 60,
            " (refused from now on)" if failures >= self.per_address else "",
        )
