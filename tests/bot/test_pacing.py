"""The one pacer of the notifier and of Rasa's alert channels: evenly spaced, no catching up."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest

from kernel.pacing import Pacer


async def _starts(pacer: Pacer, count: int, stall: float = 0.0) -> list[float]:
    starts: list[float] = []

    async def send() -> None:
        await pacer.wait()
        starts.append(time.monotonic())
        if stall and len(starts) == 2:
            time.sleep(stall)  # a busy event loop (database threads, a slow handler)

    await asyncio.gather(*(send() for _ in range(count)))
    return starts


@pytest.mark.serial  # a bound of milliseconds: not beside another worker
async def test_sends_are_spaced_by_the_rate_and_the_first_goes_at_once() -> None:
    began = time.monotonic()
    starts = await _starts(Pacer(20.0), 5)
    assert starts[0] - began < 0.03
    gaps = [later - earlier for earlier, later in itertools.pairwise(starts)]
    assert all(gap >= 0.05 - 0.002 for gap in gaps), gaps


async def test_a_stalled_loop_does_not_let_the_waiting_sends_out_back_to_back() -> None:
    starts = await _starts(Pacer(20.0), 6, stall=0.3)
    gaps = [later - earlier for earlier, later in itertools.pairwise(starts)]
    assert all(gap >= 0.05 - 0.002 for gap in gaps[2:]), gaps  # after the stall too


async def test_an_idle_pacer_saves_up_no_burst() -> None:
    pacer = Pacer(10.0)
    await pacer.wait()
    await asyncio.sleep(0.35)  # idle for three and a half intervals
    starts = await _starts(pacer, 3)
    assert starts[2] - starts[0] >= 0.2 - 0.004
