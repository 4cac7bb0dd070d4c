"""A conversation keeps its language on words every language shares, on forwarded text and on
a Latin word or two, and follows real sentences.

Measured by scripts/bench_language_hold.py (docs/BENCHMARKS.md, "A conversation keeps its
language"); the floors sit at or a little below the measured figures.
"""

import pytest

from scripts.bench_language_hold import (
    SLICES,
    WEBCHAT_MESSAGES,
    Counted,
    first_messages,
    identifier,
    measure,
    webchat_sequence,
)

#: Share of held-out messages that move a conversation in another language to the writer's
#: own. In Latin letters a message needs two words of its language to move a conversation
#: held in another (kernel/lang/choice.py): the shortest held-out messages ("shukriya", "hi
#: assistant") no longer do, which costs a few points there. Romanized Pashto was 253 of 280
#: (0.904) before the needs nobody answers were taught as out of scope (data/nlu/*/needs.yml)
#: and is 249 (0.889) since: two short messages ("starrey mashe") now count one Pashto word.
#: Taken knowingly: those examples send English and romanized questions outside the topics to
#: the editors' answers instead of a topic's wrong answer (docs/ANSWERS.md).
FOLLOW_FLOOR = {"en": 0.92, "prs_arab": 0.98, "prs_latn": 0.93, "ps_arab": 0.98, "ps_latn": 0.88}


@pytest.fixture(scope="module")
def ident() -> object:
    return identifier()


@pytest.fixture(scope="module")
def results(ident: object) -> dict[str, tuple[Counted, Counted]]:
    return measure(ident)


@pytest.mark.parametrize("kind", ["shared", "short Latin", "forwarded en"])
def test_what_is_not_the_persons_own_sentence_moves_no_conversation(
    results: dict[str, tuple[Counted, Counted]], kind: str
) -> None:
    before, after = results[kind]
    if kind != "shared":
        assert before.moved > 0  # the set does catch what the rule did before
    assert after.moved == 0


@pytest.mark.parametrize("slice_name", SLICES)
def test_a_message_in_another_language_still_moves_the_conversation(
    results: dict[str, tuple[Counted, Counted]], slice_name: str
) -> None:
    before, after = results[slice_name]
    assert after.to_writer / after.messages >= FOLLOW_FLOOR[slice_name], slice_name
    assert after.to_third <= before.to_third, slice_name


def test_persian_digits_as_a_first_message_are_never_english(ident: object) -> None:
    assert {now for _, _, _, now in first_messages(ident)} == {"prs"}


def test_the_web_chat_page_never_goes_back_to_english(ident: object) -> None:
    _, after = webchat_sequence(ident)
    assert len(after) == len(WEBCHAT_MESSAGES)
    assert after[0] == "en" and "en" not in after[1:]
