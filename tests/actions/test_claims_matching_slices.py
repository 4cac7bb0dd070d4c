"""One rumour, one answer: the same rumour finds the same claim in English, Dari and Pashto,
in Arabic script and in Latin letters, and a match says whether it is what the person heard
(strong) or only the closest rumour checked (weak)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from actions.claims import senses
from actions.claims.everyday import everyday_questions
from actions.claims.frames import without_frame
from actions.claims.grams import all_words
from actions.claims.matching import Candidate, ClaimIndex, Guard, Thresholds, decide
from actions.claims.senses import SENSE, places

ROOT = Path(__file__).resolve().parents[2]
SEED: list[dict[str, Any]] = yaml.safe_load(
    (ROOT / "actions/content/seed/claims.yml").read_text(encoding="utf-8")
)["claims"]


@pytest.fixture(scope="module")
def index() -> ClaimIndex:
    return ClaimIndex(
        ((entry["slug"], [*entry["claim"].values(), *entry["phrasings"]]) for entry in SEED),
        everyday=everyday_questions(),
    )


#: "Is it true Canada takes everyone?" as a user test asked it in the five slices. It is the
#: rumour of every Afghan with a tazkira (false), never the true one of those who worked for
#: Canada's government, and never a choice between the two.
CANADA_TAKES_EVERYONE = [
    pytest.param("is it true Canada takes everyone?", id="en"),
    pytest.param("آیا راست است که کانادا همه را می‌برد؟", id="prs_arab"),
    pytest.param(
        "شنیدم کانادا همه کسانی را که تذکره دارند می‌برد، راست است؟", id="prs_arab-tazkira"
    ),
    pytest.param("ryshtia ast ke canada hama ra mebara?", id="prs_latn"),
    pytest.param("ایا رښتیا ده چې کاناډا ټول خلک وړي؟", id="ps_arab"),
    pytest.param("rishtya da che canada tol khalak wri?", id="ps_latn"),
]


@pytest.mark.parametrize("message", CANADA_TAKES_EVERYONE)
def test_canada_takes_everyone_is_the_tazkira_rumour_in_every_slice(
    index: ClaimIndex, message: str
) -> None:
    decision = decide(index.match(message))
    assert decision.kind == "one"
    assert decision.candidates[0].claim == "canada-every-tazkira"


@pytest.mark.parametrize("message", CANADA_TAKES_EVERYONE)
def test_canada_takes_everyone_is_a_strong_match(index: ClaimIndex, message: str) -> None:
    """Told "you heard: Canada is taking every Afghan who has a tazkira", not "the closest
    rumour we have checked"."""
    assert decide(index.match(message)).strong


@pytest.mark.parametrize(
    ("slug", "text"),
    [
        pytest.param(entry["slug"], text, id=f"{entry['slug']}-{number}")
        for entry in SEED
        for number, text in enumerate([*entry["claim"].values(), *entry["phrasings"]])
    ],
)
def test_an_editors_own_words_typed_word_for_word_are_a_strong_match_of_their_claim(
    index: ClaimIndex, slug: str, text: str
) -> None:
    decision = decide(index.match(text))
    assert decision.kind == "one"
    assert decision.candidates[0].claim == slug
    assert decision.strong


@pytest.mark.parametrize(
    "message",
    [
        "is it true Australia takes everyone?",
        "راست است که استرالیا همه ره میبره؟",
        "rishtia da che australia tol khalak wri?",
    ],
)
def test_a_rumour_about_another_country_is_not_the_canada_claim(
    index: ClaimIndex, message: str
) -> None:
    decision = decide(index.match(message))
    assert "canada-every-tazkira" not in [candidate.claim for candidate in decision.candidates]


def test_a_weak_match_is_only_the_closest_rumour() -> None:
    thresholds = Thresholds(match=0.3, close=0.05, strong=0.5)
    weak = decide([Candidate("a", 0.45, "")], thresholds)
    strong = decide([Candidate("a", 0.5, "")], thresholds)
    assert (weak.kind, weak.strong) == ("one", False)
    assert (strong.kind, strong.strong) == ("one", True)


def test_a_choice_of_two_and_no_match_are_never_strong() -> None:
    thresholds = Thresholds(match=0.3, close=0.05, strong=0.5)
    two = decide([Candidate("a", 0.9, ""), Candidate("b", 0.88, "")], thresholds)
    none = decide([Candidate("a", 0.2, "")], thresholds)
    assert (two.kind, two.strong) == ("two", False)
    assert (none.kind, none.strong) == ("none", False)


@pytest.mark.parametrize(
    "guard",
    [Guard(), Guard(margin=0.0, hearsay_margin=-0.1, share=0.6, enough=99)],
    ids=["chosen", "strict"],
)
def test_how_near_a_message_came_is_worked_out_once_for_any_guard(
    index: ClaimIndex, guard: Guard
) -> None:
    """The benchmark tries a hundred guards on one ``nearness``: it must answer as ``match``."""
    message = "megan amnesty askar ha wa famil shan ra ham shamil mesha"
    assert index.nearness(message).candidates(guard) == index.match(message, guard=guard)


@pytest.mark.parametrize(
    "words",
    [
        ["everyone", "همه", "ټول", "hama", "tol"],
        ["gate", "دروازه", "گیت", "ګېټ", "darwaza"],
        ["children", "kids", "اطفال", "ماشومان", "atfal"],
        ["germany", "آلمان", "جرمنی", "alman", "jarmani"],
    ],
)
def test_a_word_means_the_same_in_every_language_and_script(words: list[str]) -> None:
    assert len({SENSE[word] for word in all_words(" ".join(words))}) == 1


def test_a_claim_naming_a_country_is_not_for_a_message_about_another() -> None:
    canada = places(all_words("Canada is taking every Afghan who has a tazkira"))
    assert canada.elsewhere(places(all_words("Australia takes everyone")))
    assert not canada.elsewhere(places(all_words("کاناډا ټول خلک وړي")))
    assert not canada.elsewhere(places(all_words("everyone can go, they say")))


def test_kabul_and_a_city_say_nothing_about_a_country() -> None:
    """ "The US Embassy in Kabul" is the embassy rumour; "I worked for the Canadians in
    Kandahar" the Canada one."""
    embassy = places(all_words("The US Embassy collects names on an American Facebook page"))
    assert not embassy.elsewhere(places(all_words("US embassy Kabul facebook page")))
    canada = places(all_words("Canada takes Afghans who worked for the Canadian government"))
    assert not canada.elsewhere(places(all_words("worked with canadians in kandahar")))
    mazar = places(all_words("Flights leave from Mazar-i-Sharif for anyone with a visa"))
    assert mazar.elsewhere(places(all_words("flights leave from Herat for anyone with a visa")))


def test_a_chain_letters_wrapping_says_nothing_about_the_rumour() -> None:
    words = all_words("URGENT!! forward and share: Canada takes everyone. فوری شریک کنید")
    assert without_frame(words) == ["canada", "takes", "everyone"]


@pytest.mark.parametrize(
    ("table", "error"),
    [
        ({"gate": "gate gates darwaza"}, "Arabic script and in Latin letters"),
        ({"gate": "دروازه گیت"}, "Arabic script and in Latin letters"),
        ({"gate": "gate دروازه", "door": "door دروازه"}, "listed under 'gate' and 'door'"),
    ],
)
def test_a_senses_table_with_a_gap_is_refused(table: dict[str, str], error: str) -> None:
    """A sense in one script only would let the same rumour find its claim in that script
    alone, which is what the table is there to end."""
    with pytest.raises(ValueError, match=error):
        senses._tokens(table, 0xE000, {})
