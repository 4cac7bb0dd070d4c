"""Language identification on the kinds of messages evacuees send.

The profile is learned from data/nlu exactly as `rasa train` learns it.
"""

import time
from pathlib import Path

import pytest
from rasa.shared.nlu.training_data.loading import load_data

from bot.nlu import langid
from bot.nlu.langid import NO_EVIDENCE, LanguageProfile, ProfileIdentifier
from bot.nlu.language_identifier import entity_names, labelled_examples

ROOT = Path(__file__).resolve().parents[2]
HELD_OUT = ROOT / "tests" / "nlu" / "heldout"


@pytest.fixture(scope="module")
def identifier() -> ProfileIdentifier:
    data = ROOT / "data" / "nlu"
    return ProfileIdentifier(LanguageProfile.train(labelled_examples(data), entity_names(data)))


@pytest.mark.parametrize(
    ("text", "code", "script"),
    [
        ("when is the next flight to doha", "en", "Latn"),
        ("is abbey gate open now", "en", "Latn"),
        ("پرواز بعدی چی وقت است", "prs", "Arab"),
        ("میدان هوایی باز است؟", "prs", "Arab"),
        ("الوتکه کله ده", "ps", "Arab"),
        ("د کابل هوايي ډګر خلاص دی؟", "ps", "Arab"),
        ("parwaz ba doha chi waqt ast", "prs", "Latn"),
        ("alwatka kala da", "ps", "Latn"),
        ("gate باز است؟", "prs", "Arab"),  # English word inside Dari
        ("پرواز ۸۷۱ کی میره", "prs", "Arab"),  # Persian digits
    ],
)
def test_identifies_language_and_script(
    identifier: ProfileIdentifier, text: str, code: str, script: str
) -> None:
    guess = identifier.identify(text)
    assert (guess.code, guess.script) == (code, script)
    assert 0.5 <= guess.confidence <= 1.0


def test_one_pashto_only_letter_is_strong_evidence(identifier: ProfileIdentifier) -> None:
    guess = identifier.identify("ښه")
    assert guess.code == "ps"
    assert guess.confidence >= 0.9


@pytest.mark.parametrize("text", ["", "   ", "123", "8.", "🙂🙂", "?!", "\x00\x01\x10"])
def test_no_letters_means_no_evidence(identifier: ProfileIdentifier, text: str) -> None:
    assert identifier.identify(text) == NO_EVIDENCE


@pytest.mark.parametrize("text", ["۸", "۱", "۱۲۳", "٣", " ۸. "])
def test_persian_digits_alone_are_a_dari_keyboards(
    identifier: ProfileIdentifier, text: str
) -> None:
    """A menu number typed on a Dari or Pashto keyboard: Arabic script, never English, and
    shared, so that it keeps a Pashto conversation in Pashto (kernel/lang/choice.py)."""
    guess = identifier.identify(text)
    assert (guess.code, guess.script, guess.shared) == ("prs", "Arab", True)


@pytest.mark.parametrize("text", ["STOP", "Stop!", "stop alerts", "cancel", "بس", "توقف", "bas"])
def test_the_opt_out_words_the_replies_teach_are_shared(
    identifier: ProfileIdentifier, text: str
) -> None:
    """The Pashto subscription reply says «بس» یا STOP: neither may move its reader."""
    assert identifier.identify(text).shared, text


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("when is the next flight to Germany?", "en", 5),
        ("parwaz ba doha kai ast?", "prs", 3),
        ("sabah?", "prs", 1),
        ("help", "en", 1),
        # Dari around two shared words; langdetect calls the whole English.
        ("flight ba germany kay ast?", "en", 0),
    ],
)
def test_words_count_only_those_of_the_guessed_language(
    identifier: ProfileIdentifier, text: str, code: str, words: int
) -> None:
    guess = identifier.identify(text)
    assert (guess.code, guess.words) == (code, words)


def test_huge_message_is_bounded(identifier: ProfileIdentifier) -> None:
    started = time.perf_counter()
    guess = identifier.identify("الوتکه کله ده " * 2000)
    assert guess.code == "ps"
    assert time.perf_counter() - started < 1.0  # a bound against unbounded work, not a benchmark


def test_deterministic(identifier: ProfileIdentifier) -> None:
    texts = ["flight kay ast", "salam", "ok", "manana", "help pls"]
    assert [identifier.identify(t) for t in texts] == [identifier.identify(t) for t in texts]


def held_out() -> list[tuple[str, str, str]]:
    """(text, code, script) for the held-out split; the file name says the truth."""
    cases = []
    for path in sorted(HELD_OUT.glob("*.yml")):
        code, _, script = path.stem.partition("_")
        for message in load_data(str(path)).training_examples:
            cases.append((message.get("text"), code, "Arab" if script == "arab" else "Latn"))
    return cases


def test_held_out_accuracy_does_not_regress(identifier: ProfileIdentifier) -> None:
    """Regression guard; the measured figures per slice are in docs/BENCHMARKS.md."""
    cases = held_out()
    correct = 0
    for text, code, script in cases:
        guess = identifier.identify(text)
        correct += (guess.code, guess.script) == (code, script)
    assert len(cases) > 300
    assert correct / len(cases) >= 0.93


@pytest.mark.parametrize(
    "text",
    ["سلام", "سلام علیکم", "بس", "ok", "salam", "hello", "RCH871", "QR8010?", "دوحه", "قطر؟",
     "Doha", "کابل", "مینو", "menu", "امنیت", "amniat"],
)  # fmt: skip
def test_words_both_languages_write_are_marked_shared(
    identifier: ProfileIdentifier, text: str
) -> None:
    assert identifier.identify(text).shared, text


@pytest.mark.parametrize(
    "text",
    ["مننه", "پرواز", "تشکر", "الوتنه", "او سبا؟", "پرواز به دوحه", "سلام، الوتکه کله ده",
     "khuda hafiz", "سلام ورور", "help"],
)  # fmt: skip
def test_a_word_of_one_language_is_not_shared(identifier: ProfileIdentifier, text: str) -> None:
    assert not identifier.identify(text).shared, text


@pytest.mark.parametrize(
    ("text", "code"),
    [("ګیت شمالی باز است؟", "prs"), ("با کارمند ګپ بزنم", "prs"), ("پاسپورتم ګم شده", "prs"),
     ("بیا سره ګورو", "ps"), ("سبا به هوا ګرمه وي", "ps")],
)  # fmt: skip
def test_gaf_alone_is_weighed_with_the_rest_of_the_message(
    identifier: ProfileIdentifier, text: str, code: str
) -> None:
    """Dari typed on a Pashto keyboard writes ګ for گ; the rest of the message decides."""
    assert identifier.identify(text).code == code


def test_a_pashto_letter_is_never_shared(identifier: ProfileIdentifier) -> None:
    assert not identifier.identify("ډېر ښه").shared


def test_the_shared_mark_survives_saving_the_profile(identifier: ProfileIdentifier) -> None:
    saved = LanguageProfile.from_dict(identifier.profile.to_dict())
    assert ProfileIdentifier(saved).identify("دوحه").shared


class AlwaysAsksLangdetect(ProfileIdentifier):
    """The identifier as it was before it stopped asking langdetect about decided messages."""

    DECISIVE = 2.0


def test_not_asking_langdetect_when_the_profiles_decide_changes_no_decision(
    identifier: ProfileIdentifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Skipping langdetect must not switch anyone's language: the same winner on every
    romanized or English held-out message, on the same side of the 0.7 follow threshold."""
    always = AlwaysAsksLangdetect(identifier.profile)
    texts = [text for text, _, script in held_out() if script == "Latn"]
    calls: list[str] = []
    asked = langid._langdetect_english
    monkeypatch.setattr(langid, "_langdetect_english", lambda t: calls.append(t) or asked(t))

    slow = [always.identify(text) for text in texts]
    asked_before = len(calls)
    fast = [identifier.identify(text) for text in texts]
    asked_now = len(calls) - asked_before

    for text, new, old in zip(texts, fast, slow, strict=True):
        assert (new.code, new.script) == (old.code, old.script), text
        assert (new.confidence >= 0.7) == (old.confidence >= 0.7), text
    assert asked_now < asked_before / 2  # it does save work on the messages people send
