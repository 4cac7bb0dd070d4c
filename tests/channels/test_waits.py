"""The wait a notice promises: measured on the work done, said within a factor of two."""

from __future__ import annotations

import pytest

from bot.channels.waits import ASSUMED_TURN_SECONDS, SOON_SECONDS, ServicePace, Wait


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def rush(pace: ServicePace, clock: Clock, answered: int, per_second: int, seconds: int) -> int:
    """``seconds`` of work answered at ``per_second``, observed once a second (as the
    intake's checks do); the answered count after it."""
    for _ in range(seconds):
        clock.now += 1.0
        answered += per_second
        pace.observe(answered, busy=True)
    return answered


def quiet(pace: ServicePace, clock: Clock, answered: int, minutes: int) -> int:
    """A quiet server: a single question a minute, answered in 0.3 s."""
    for _ in range(minutes):
        clock.now += 60.0
        pace.observe(answered, busy=True)
        clock.now += 0.3
        answered += 1
        pace.observe(answered, busy=False)
    return answered


def test_a_quiet_server_is_not_taken_for_a_slow_one() -> None:
    """Five quiet minutes, then a rush answered at 10 a second: 1 200 messages are two
    minutes of it. Answers per minute of wall time promised half an hour here."""
    clock = Clock()
    pace = ServicePace(clock)
    pace.observe(0, busy=False)
    answered = quiet(pace, clock, 0, minutes=5)
    pace.observe(answered, busy=True)
    rush(pace, clock, answered, per_second=10, seconds=10)
    wait = pace.seconds_for(1200, at_once=2)
    assert wait.seconds == pytest.approx(120.0)
    assert wait.minutes == 2


def test_a_rush_is_measured_at_its_own_pace() -> None:
    clock = Clock()
    pace = ServicePace(clock)
    pace.observe(0, busy=True)
    answered = rush(pace, clock, 0, per_second=100, seconds=10)
    pace.observe(answered, busy=False)  # over
    clock.now += 300.0
    pace.observe(answered, busy=True)
    # The next one's first second: not measured yet, so the last rush's pace.
    assert pace.per_second() == pytest.approx(100.0)
    rush(pace, clock, answered, per_second=2, seconds=10)
    assert pace.per_second() == pytest.approx(2.0)


def test_turns_that_stall_slow_the_pace_before_they_end() -> None:
    clock = Clock()
    pace = ServicePace(clock)
    pace.observe(0, busy=True)
    answered = rush(pace, clock, 0, per_second=5, seconds=4)
    assert pace.per_second() == pytest.approx(5.0)
    clock.now += 16.0  # nothing answered since, still work
    assert pace.per_second() == pytest.approx(1.0)
    pace.observe(answered, busy=True)
    assert pace.per_second() == pytest.approx(1.0)


def test_before_any_rush_a_turn_is_assumed_to_take_its_time() -> None:
    pace = ServicePace(Clock())
    assert pace.per_second() is None
    wait = pace.seconds_for(30, at_once=2)
    assert wait.seconds == pytest.approx(30 * ASSUMED_TURN_SECONDS / 2)


def test_a_single_turn_on_a_quiet_server_is_no_measure_of_its_capacity() -> None:
    clock = Clock()
    pace = ServicePace(clock)
    pace.observe(0, busy=False)
    quiet(pace, clock, 0, minutes=3)
    assert pace.per_second() is None


@pytest.mark.parametrize("seconds", [0.0, 1.2, 30.0, SOON_SECONDS - 0.1])
def test_a_short_wait_is_said_as_a_moment(seconds: float) -> None:
    assert Wait(seconds).minutes is None


def test_minutes_said_are_within_a_factor_of_two_of_the_wait() -> None:
    for seconds in range(int(SOON_SECONDS), 4 * 3600):
        wait = Wait(float(seconds))
        assert wait.minutes is not None and wait.minutes >= 2
        assert 0.5 <= wait.said_seconds / seconds <= 2.0, seconds
