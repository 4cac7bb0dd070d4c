"""A conversation keeps its language on words every language shares, and follows real ones.

Measured by scripts/bench_language_hold.py (docs/BENCHMARKS.md, "A conversation keeps its
language"); the floors sit at or a little below the measured figures.
"""

import pytest

from scripts.bench_language_hold import SLICES, Counted, measure

#: Share of held-out messages that move a conversation in another language to the writer's own.
FOLLOW_FLOOR = 0.93


@pytest.fixture(scope="module")
def results() -> dict[str, tuple[Counted, Counted]]:
    return measure()


def test_shared_words_move_no_conversation(results: dict[str, tuple[Counted, Counted]]) -> None:
    before, after = results["shared"]
    assert before.moved > 0  # the set does catch what the identifier did before
    assert after.moved == 0


@pytest.mark.parametrize("slice_name", SLICES)
def test_a_message_in_another_language_still_moves_the_conversation(
    results: dict[str, tuple[Counted, Counted]], slice_name: str
) -> None:
    before, after = results[slice_name]
    assert after.to_writer / after.messages >= FOLLOW_FLOOR, slice_name
    assert after.to_third <= before.to_third, slice_name
