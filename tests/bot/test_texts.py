"""The catalogue of sentences outside the domain (kernel/lang/texts/): every entry in every
language, the same variables in each, each language in its own letters, and one ``render`` that
refuses a half-filled sentence. Standard library only, so the content runtime's tests run it too
(tests/actions/test_language_completeness.py)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator

import pytest

import kernel.lang.texts
from kernel.lang import codes
from kernel.lang.codes import DARI, ENGLISH, LANGUAGES, PASHTO, IncompleteLanguageTable
from kernel.lang.letters import ARABIC_LETTER, DARI_GAF, PASHTO_LETTERS
from kernel.lang.names import own_name
from kernel.lang.texts import CATALOGUE, MissingVariable, UnknownText, render
from kernel.lang.texts.catalogue import Catalogue, placeholders

IDS = sorted(CATALOGUE.entries)
#: Entries whose languages rightly name different variables, and why.
OWN_VARIABLES = {
    "content.pattern.time": "English keeps the 24-hour clock; Dari and Pashto add the hour "
    "as said aloud and the part of the day, Pashto its word for o'clock",
    "content.brief.time": "the same on SMS, without the 24-hour time in brackets",
    "content.pattern.departure_night": "after midnight, Dari and Pashto name the night by its "
    "evening and say 'after midnight'; English gives the day and time as by day",
    "content.brief.night_time": "the same on SMS",
}
#: What format.clock_words fills in for the clock patterns, and the day and night the
#: patterns of a time after midnight add.
CLOCK_VARIABLES = {"hh_mm", "hour", "part", "o_clock", "after_midnight"}
CLOCK_VARIABLES |= {"night", "weekday", "day", "month"}
#: Iranian Persian where Afghans write میدان هوایی and طیاره.
IRANIAN = re.compile("فرودگاه|هواپیما")
#: A Pashto text this long is a sentence: it has at least one letter only Pashto writes.
PASHTO_SENTENCE_LETTERS = 20


def words(text: str) -> str:
    """The text without its ``{variables}``: what a person reads of it."""
    return re.sub(r"{\w+}", "", text)


@pytest.mark.parametrize("message", IDS)
def test_every_entry_has_every_language_and_no_other(message: str) -> None:
    entry = CATALOGUE.entry(message)
    assert set(entry) == set(LANGUAGES), message
    assert all(text.strip() for text in entry.values()), f"{message}: an empty text"


def test_the_catalogue_as_shipped_has_no_gaps() -> None:
    assert CATALOGUE.gaps() == []


@pytest.mark.parametrize("message", IDS)
def test_every_language_names_the_same_variables(message: str) -> None:
    named = {language: placeholders(text) for language, text in CATALOGUE.entry(message).items()}
    if message in OWN_VARIABLES:
        assert set().union(*named.values()) <= CLOCK_VARIABLES, message
        assert named[DARI] <= named[PASHTO] and named[ENGLISH], message
        return
    assert named[DARI] == named[ENGLISH] == named[PASHTO], f"{message}: {named}"


@pytest.mark.parametrize("message", IDS)
def test_dari_and_pashto_are_each_written_in_their_own_letters(message: str) -> None:
    entry = CATALOGUE.entry(message)
    # The language's own name is written as its speakers write it: «پښتو» in a Dari text.
    dari, pashto = entry[DARI].replace(own_name(PASHTO), ""), entry[PASHTO]
    # ګ too: a Dari text with it was typed on a Pashto keyboard (kernel/lang/letters.py).
    assert not PASHTO_LETTERS & set(dari), f"{message}: Pashto letters in the Dari text"
    assert not IRANIAN.search(dari), f"{message}: Iranian words in the Dari text"
    assert DARI_GAF not in pashto, f"{message}: Dari's گ in Pashto (Pashto writes ګ)"
    if len(re.findall(f"{ARABIC_LETTER.pattern}+", words(pashto))) > 1:
        assert pashto != entry[DARI], f"{message}: the Pashto text is the Dari one"
    if len(ARABIC_LETTER.findall(words(pashto))) >= PASHTO_SENTENCE_LETTERS:
        assert PASHTO_LETTERS & set(pashto), f"{message}: a Pashto sentence without Pashto"


def test_render_fills_variables_and_ignores_the_ones_a_text_does_not_name() -> None:
    assert render("alerts.topic_flights", PASHTO, destination="دوحه", until="x") == "دوحه ته الوتنې"
    assert render("channels.choose", DARI) == "انتخاب کنید"


def test_a_missing_variable_is_an_error_not_a_placeholder_left_standing() -> None:
    with pytest.raises(MissingVariable, match=r"alerts\.topic_flights"):
        render("alerts.topic_flights", ENGLISH)


def test_an_unknown_language_is_answered_in_the_default_one_and_an_unknown_id_refused() -> None:
    assert render("channels.choose", "ur") == render("channels.choose", None) == "Choose"
    with pytest.raises(UnknownText):
        render("channels.no_such_sentence", ENGLISH)


@pytest.fixture
def urdu(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fourth language in ``LANGUAGES`` that no entry has yet."""
    monkeypatch.setattr(codes, "LANGUAGES", (*LANGUAGES, "ur"))
    yield
    monkeypatch.undo()
    importlib.reload(kernel.lang.texts)  # back to the catalogue built for the real languages


def test_a_new_language_is_refused_until_every_entry_has_it(urdu: None) -> None:
    found = CATALOGUE.gaps()
    assert len(found) == len(IDS)  # every entry, once
    assert "kernel/lang/texts/channels.py['text_only'] has no 'ur'" in found
    assert "kernel/lang/texts/console.py['sign_in'] has no 'ur'" in found
    assert "kernel/lang/texts/content.py['status.boarding'] has no 'ur'" in found
    with pytest.raises(IncompleteLanguageTable, match=r"alerts.py\['airport'\] has no 'ur'"):
        importlib.reload(kernel.lang.texts)
    # Written for every entry but one: only that one is still named.
    written = {
        module: {key: {**entry, "ur": entry[ENGLISH]} for key, entry in texts.items()}
        for module, texts in CATALOGUE.modules.items()
    }
    del written["sms"]["nothing_more"]["ur"]
    assert Catalogue(written).gaps() == ["kernel/lang/texts/sms.py['nothing_more'] has no 'ur'"]


#: What a lock screen must not show of an alert (its first line is all a locked phone shows).
REVEALING = re.compile(
    r"airport|flight|gate|evacuat|announce|alert|میدان|پرواز|دروازه|تخلیه|اعلام|هوايي|الوت|دروازې|وېست|اعلان|خبرتیا",
    re.IGNORECASE,
)


@pytest.mark.parametrize("message", ["alerts.airport", "alerts.flights", "alerts.announcement"])
def test_an_alerts_first_line_does_not_say_what_it_is_about(message: str) -> None:
    for language, text in CATALOGUE.entry(message).items():
        first_line = text.split("\n", 1)[0]
        assert not REVEALING.search(first_line), (language, first_line)
        assert "{" not in first_line, (language, first_line)
