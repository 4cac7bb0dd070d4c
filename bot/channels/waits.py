"""How long a person waits for their answer in a surge, as the notice of the wait says it.

The wait was once the line's length over the answers of the last five minutes of wall time. That
measures what arrived, not what can be answered: on a quiet server a handful of answers in five
minutes promised the first rush after it 21 minutes, for answers that came within 1.2 s, and
the "at least 2 minutes" of a second rush was a hundred times its wait. So the pace here counts
answers per second of *work*, the time during which turns were under way or waiting
(``ServicePace``): a quiet minute adds nothing to it. It is the current rush's own pace once
that has lasted ``MEASURED_SECONDS`` and answered ``MEASURED_ANSWERS``, over its last
``PACE_WINDOW_SECONDS`` of work; before that, the pace the last rush kept; before any rush,
``ASSUMED_TURN_SECONDS`` a turn for each turn taken at once. The notice goes only to a message
that has already waited ``QUEUE_NOTICE_SECONDS``, so a rush that is over within seconds is told
nothing, and one that is not is measured by then.

A person's wait is the messages ahead of theirs, and theirs, over that pace (``seconds_for``);
the notice says it "in a moment" below ``SOON_SECONDS``, else in whole minutes, never fewer than
``FEWEST_MINUTES`` (``Wait.minutes``): between 0.8 and 1.33 times the estimate.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

#: What a turn is taken to last before any rush was measured.
ASSUMED_TURN_SECONDS: Final = 3.0
#: The fewest minutes a notice names: "about 1 minute" reads as a promise to the second. Under
#: ``SOON_SECONDS`` the notice says "in a moment" instead; from there "2 minutes" is at most a
#: third more than the estimate, which leaves the estimate half of the factor of two.
FEWEST_MINUTES: Final = 2
SOON_SECONDS: Final = 90.0
#: Seconds of work the pace is measured over: long enough to smooth one slow turn, short enough
#: that the rush a notice speaks of is most of it.
PACE_WINDOW_SECONDS: Final = 30.0
#: What a rush must have lasted and answered before its pace is trusted (a single turn on a
#: quiet server is its own duration, not the server's capacity).
MEASURED_SECONDS: Final = 2.0
MEASURED_ANSWERS: Final = 3


@dataclass(frozen=True)
class Wait:
    """An estimated wait, as the notice says it."""

    seconds: float

    @property
    def minutes(self) -> int | None:
        """Whole minutes to name, or None: "in a moment"."""
        if self.seconds < SOON_SECONDS:
            return None
        return max(FEWEST_MINUTES, round(self.seconds / 60.0))

    @property
    def said_seconds(self) -> float:
        """What the notice promises, in seconds ("in a moment": up to ``SOON_SECONDS``)."""
        minutes = self.minutes
        return SOON_SECONDS if minutes is None else minutes * 60.0


class ServicePace:
    """Answers per second of work lately: the capacity a wait is estimated with.

    ``observe`` is told the count of answered turns (a running total, whoever answered them)
    and whether turns are under way or waiting from now on; the time between two observations
    counts as work when there was work at the first, or answers came in it.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        #: When, the answered count, and whether there was work from then on.
        self._last: tuple[float, int, bool] | None = None
        #: The current rush's last ``PACE_WINDOW_SECONDS`` of work: (seconds, answers).
        self._rush: collections.deque[tuple[float, int]] = collections.deque()
        self._seconds = 0.0
        self._answers = 0
        self._last_rush: float | None = None

    def observe(self, answered: int, busy: bool) -> None:
        now = self._clock()
        if self._last is not None:
            then, before, was_busy = self._last
            done = max(answered - before, 0)
            if was_busy or done:
                self._add(max(now - then, 0.0), done)
        if not busy:
            self._end_rush()
        self._last = (now, answered, busy)

    def per_second(self) -> float | None:
        """The current rush's pace once it is measured, else the last rush's; None before
        any rush was."""
        seconds = self._seconds + self._ongoing()
        if seconds >= MEASURED_SECONDS and self._answers >= MEASURED_ANSWERS:
            return self._answers / seconds
        return self._last_rush

    def seconds_for(self, ahead: int, at_once: int) -> Wait:
        """The wait of a message with ``ahead`` messages to be answered before it, its own
        included, when ``at_once`` turns are taken at a time."""
        pace = self.per_second()
        if pace is None:
            pace = max(at_once, 1) / ASSUMED_TURN_SECONDS
        return Wait(ahead / pace)

    def _add(self, seconds: float, answers: int) -> None:
        self._rush.append((seconds, answers))
        self._seconds += seconds
        self._answers += answers
        while len(self._rush) > 1 and self._seconds - self._rush[0][0] >= PACE_WINDOW_SECONDS:
            dropped_seconds, dropped_answers = self._rush.popleft()
            self._seconds -= dropped_seconds
            self._answers -= dropped_answers

    def _ongoing(self) -> float:
        """Work since the last observation, while it lasts: a rush whose turns stall slows."""
        if self._last is None or not self._last[2]:
            return 0.0
        return max(self._clock() - self._last[0], 0.0)

    def _end_rush(self) -> None:
        if self._seconds >= MEASURED_SECONDS and self._answers >= MEASURED_ANSWERS:
            self._last_rush = self._answers / self._seconds
        self._rush.clear()
        self._seconds, self._answers = 0.0, 0
