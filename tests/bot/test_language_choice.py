"""The conversation's language: explicit choice is sticky, detection follows, hints fill gaps."""

from typing import Any

import pytest

from kernel.lang.choice import LanguageState, choose_language
from kernel.settings import language_follow_confidence


def parse(
    intent: str = "ask_flights",
    code: str | None = None,
    confidence: float = 0.95,
    entities: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    message: dict[str, Any] = {"intent": {"name": intent}, "entities": entities or []}
    if code:
        message["language"] = {"code": code, "script": "Arab", "confidence": confidence}
    return message


def test_first_message_sets_detected_language() -> None:
    assert choose_language(None, parse(code="ps")) == LanguageState("ps", chosen=False)


def test_confident_detection_switches_language() -> None:
    assert choose_language(LanguageState("en", False), parse(code="prs")).language == "prs"


def test_unsure_detection_keeps_language() -> None:
    current = LanguageState("ps", False)
    assert choose_language(current, parse(code="en", confidence=0.55)) == current


def test_explicit_choice_is_sticky() -> None:
    chosen = choose_language(
        LanguageState("en", False),
        parse("set_language", "en", entities=[{"entity": "language", "value": "ps"}]),
    )
    assert chosen == LanguageState("ps", chosen=True)
    assert choose_language(chosen, parse(code="en", confidence=0.99)) == chosen


def test_explicit_choice_can_be_changed_explicitly() -> None:
    current = LanguageState("ps", True)
    message = parse("set_language", entities=[{"entity": "language", "value": "prs"}])
    assert choose_language(current, message) == LanguageState("prs", True)


def test_unknown_language_value_is_ignored() -> None:
    message = parse("set_language", entities=[{"entity": "language", "value": "fr"}])
    assert choose_language(None, message) == LanguageState("en", False)


@pytest.mark.parametrize(("hint", "expected"), [("prs", "prs"), ("de", "en"), (None, "en")])
def test_channel_hint_only_without_evidence(hint: str | None, expected: str) -> None:
    assert choose_language(None, parse(code=None), hint=hint).language == expected


def test_follow_confidence_default_and_override() -> None:
    assert language_follow_confidence({}) == 0.7
    assert language_follow_confidence({"LANGUAGE_FOLLOW_CONFIDENCE": "0.85"}) == 0.85


@pytest.mark.parametrize("raw", ["high", "1.5", "-0.1"])
def test_follow_confidence_refuses_what_is_not_a_share(raw: str) -> None:
    with pytest.raises(ValueError, match=r"LANGUAGE_FOLLOW_CONFIDENCE is .* from 0 to 1"):
        language_follow_confidence({"LANGUAGE_FOLLOW_CONFIDENCE": raw})


def shared(code: str, confidence: float = 0.83) -> dict[str, Any]:
    message = parse("greet", code, confidence)
    message["language"]["shared"] = True
    return message


def test_shared_words_keep_an_established_language() -> None:
    """«سلام» is identified as Dari with 0.83; a Pashto conversation stays Pashto."""
    current = LanguageState("ps", False)
    assert choose_language(current, shared("prs")) == current


def test_shared_words_defer_to_the_channel_hint_on_a_first_message() -> None:
    assert choose_language(None, shared("prs"), hint="ps") == LanguageState("ps", False)


def test_shared_words_still_decide_a_first_message_without_a_hint() -> None:
    assert choose_language(None, shared("prs")) == LanguageState("prs", False)


def test_a_word_of_one_language_still_moves_the_conversation() -> None:
    current = LanguageState("ps", False)
    assert choose_language(current, parse(code="prs", confidence=0.99)).language == "prs"


def in_script(message: dict[str, Any], script: str) -> dict[str, Any]:
    message["language"]["script"] = script
    return message


def test_arabic_script_shared_words_still_move_an_english_conversation() -> None:
    """Every conversation is English until its person writes: after a button press, «سلام» is
    the first sign of who writes, and Dari and Pashto share it, English does not."""
    english = LanguageState("en", False)
    assert choose_language(english, in_script(shared("prs"), "Arab")).language == "prs"
    assert choose_language(None, in_script(shared("prs"), "Arab"), hint="en").language == "prs"
    pashto = LanguageState("ps", False)
    assert choose_language(pashto, in_script(shared("prs"), "Arab")) == pashto


def test_latin_shared_words_keep_any_language() -> None:
    """ "ok", "salam" or a flight code in Latin letters: English and romanized Dari alike."""
    for established in ("en", "prs", "ps"):
        current = LanguageState(established, False)
        assert choose_language(current, in_script(shared("prs"), "Latn")) == current


def latin(code: str, confidence: float = 0.99, words: int = 1) -> dict[str, Any]:
    message = in_script(parse(code=code, confidence=confidence), "Latn")
    message["language"]["words"] = words
    return message


@pytest.mark.parametrize("established", ["prs", "ps"])
def test_a_forwarded_text_is_not_the_readers_language(established: str) -> None:
    """A Dari speaker forwards an English rumour to ask whether it is true: the answer, and
    every answer after it, stays in Dari."""
    rumour = latin("en", confidence=1.0, words=14)
    current = LanguageState(established, False)
    assert choose_language(current, rumour, forwarded=True) == current
    assert choose_language(None, rumour, hint=established, forwarded=True) == current
    # The same text as the person's own words is a switch.
    assert choose_language(current, rumour).language == "en"


@pytest.mark.parametrize("established", ["prs", "ps"])
@pytest.mark.parametrize(
    "message",
    [latin("en", 0.9988, words=1), latin("en", 0.9375, words=1), latin("en", 0.936, words=0)],
    ids=["help", "yes", "flight ba germany kay ast"],
)
def test_a_latin_word_or_two_is_no_switch_to_english(
    established: str, message: dict[str, Any]
) -> None:
    """Dari and Pashto speakers type "help", "yes" or English nouns among romanized words;
    one or two Latin words of English do not make them English readers."""
    current = LanguageState(established, False)
    assert choose_language(current, message) == current


def test_one_romanized_word_does_not_flip_dari_and_pashto() -> None:
    """ "sabah?" after a Pashto sentence: the page stays in Pashto."""
    pashto = LanguageState("ps", False)
    assert choose_language(pashto, latin("prs", 0.715, words=1)) == pashto
    assert choose_language(pashto, latin("prs", 0.998, words=3)).language == "prs"


@pytest.mark.parametrize("code", ["en", "prs", "ps"])
def test_a_latin_sentence_still_switches(code: str) -> None:
    others = [other for other in ("en", "prs", "ps") if other != code]
    for established in others:
        moved = choose_language(LanguageState(established, False), latin(code, words=3))
        assert moved.language == code


def test_an_english_conversation_follows_one_romanized_word() -> None:
    """English is where every conversation starts, not what its person chose: a romanized
    word of Dari is the first sign of who writes."""
    assert choose_language(LanguageState("en", False), latin("prs", words=1)).language == "prs"


def test_arabic_script_is_never_english_however_unsure_dari_or_pashto() -> None:
    unsure = parse(code="ps", confidence=0.55)
    assert choose_language(LanguageState("en", False), unsure).language == "ps"
    assert choose_language(None, unsure, hint="en").language == "ps"
    assert choose_language(None, unsure).language == "ps"
    # Between Dari and Pashto an unsure guess still keeps the conversation.
    assert choose_language(LanguageState("prs", False), unsure).language == "prs"


def test_persian_digits_alone_start_a_conversation_in_dari() -> None:
    """«۸» in a new conversation: typed on a Dari or Pashto keyboard, so not English; a
    Pashto conversation stays Pashto."""
    digits = in_script(shared("prs", confidence=0.5), "Arab")
    assert choose_language(None, digits).language == "prs"
    assert choose_language(None, digits, hint="en").language == "prs"
    assert choose_language(None, digits, hint="ps").language == "ps"
    assert choose_language(LanguageState("ps", False), digits).language == "ps"


def test_asking_for_a_language_switches_a_forwarded_or_short_message_too() -> None:
    asked = latin("en", words=1)
    asked.update(intent={"name": "set_language"}, entities=[{"entity": "language", "value": "en"}])
    assert choose_language(LanguageState("prs", False), asked) == LanguageState("en", True)
