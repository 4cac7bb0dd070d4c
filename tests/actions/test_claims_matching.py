"""Rumours people ask about find the checked claim, in any language and script, and only it."""

import re
from pathlib import Path

import pytest
import yaml

from actions.claims.everyday import everyday_questions
from actions.claims.frames import is_hearsay, without_frame
from actions.claims.matching import ClaimIndex, Guard, decide
from kernel.lang.normalise import normalise

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def index() -> ClaimIndex:
    entries = yaml.safe_load((ROOT / "actions/content/seed/claims.yml").read_text())["claims"]
    return ClaimIndex(
        ((entry["slug"], [*entry["claim"].values(), *entry["phrasings"]]) for entry in entries),
        everyday=everyday_questions(),
    )


def test_dari_rumour_finds_the_canada_claim(index: ClaimIndex) -> None:
    decision = decide(index.match("راست است که کانادا هر کس را که تذکره داشته باشد قبول میکند؟"))
    assert decision.kind == "one"
    assert decision.candidates[0].claim == "canada-every-tazkira"


def test_pashto_in_latin_letters_finds_the_canada_claim(index: ClaimIndex) -> None:
    decision = decide(index.match("reshtia da che kanada har sok wri che tazkira ye lari?"))
    assert [candidate.claim for candidate in decision.candidates][:1] == ["canada-every-tazkira"]


def test_english_whatsapp_rumour_finds_the_embassy_claim(index: ClaimIndex) -> None:
    decision = decide(index.match("I heard the US embassy takes names on a WhatsApp link, true?"))
    assert decision.candidates[0].claim == "us-embassy-facebook-whatsapp"


@pytest.mark.parametrize(
    "question",
    [
        "is abbey gate open now?",
        "hala darwaza ha baz astan ya ne",
        "نن کومې الوتکې الوځي",
        "when is the next flight to doha",
    ],
)
def test_a_gate_or_flight_question_is_no_claim(index: ClaimIndex, question: str) -> None:
    assert decide(index.match(question)).kind == "none"


def test_a_rumour_about_both_canada_claims_offers_both() -> None:
    index = ClaimIndex(
        [
            ("canada-every-tazkira", ["Canada is taking every Afghan who has a tazkira"]),
            ("canada-worked-for-canada", ["Canada is taking every Afghan who worked for Canada"]),
            ("abbey-gate-names-list", ["A list of names is read out at Abbey Gate"]),
        ]
    )
    decision = decide(index.match("is it true canada is taking every afghan?"))
    assert decision.kind == "two"
    assert {candidate.claim for candidate in decision.candidates} == {
        "canada-every-tazkira",
        "canada-worked-for-canada",
    }


@pytest.mark.parametrize("message", ["", "   ", "؟؟؟", "is it true?"])
def test_an_empty_message_matches_nothing(index: ClaimIndex, message: str) -> None:
    assert decide(index.match(message)).kind == "none"


def test_a_huge_forwarded_message_is_answered_from_its_opening(index: ClaimIndex) -> None:
    message = "Canada is taking every Afghan who has a tazkira. " + "forward to all " * 50_000
    decision = decide(index.match(message))
    assert decision.kind in ("one", "none")
    assert all(candidate.claim == "canada-every-tazkira" for candidate in decision.candidates)


@pytest.fixture(scope="module")
def both() -> tuple[ClaimIndex, ClaimIndex]:
    """The demo claims scored exactly, and in two steps as a large index is."""
    entries = yaml.safe_load((ROOT / "actions/content/seed/claims.yml").read_text())["claims"]
    claims = [(entry["slug"], [*entry["claim"].values(), *entry["phrasings"]]) for entry in entries]
    everyday = list(everyday_questions())
    return (
        ClaimIndex(claims, everyday=everyday, walk=10**9),
        ClaimIndex(claims, everyday=everyday, walk=300, rescored=20),
    )


@pytest.mark.parametrize(
    "message",
    [
        "reshtia da che kanada har sok wri che tazkira ye lari?",
        "I heard the US embassy takes names on a WhatsApp link, true?",
        "is abbey gate open now?",
        "flights from mazar for everyone with a visa",
    ],
)
def test_a_large_index_tells_people_what_exact_scoring_would(
    both: tuple[ClaimIndex, ClaimIndex], message: str
) -> None:
    """Past ``walk`` postings only the best texts are scored on the common n-grams: the
    answer must stay the one the full cosine gives."""
    exact, two_step = both
    assert decide(two_step.match(message)) == decide(exact.match(message))


def test_an_unchecked_rumour_sharing_words_with_a_claim_gets_no_verdict(
    index: ClaimIndex,
) -> None:
    """ "for every family with children" is in the gates claim too; the border is not."""
    message = "Uzbekistan opens the Hairatan border tomorrow for every family with children"
    assert decide(index.match(message)).kind == "none"


AMNESTY = "the amnesty also covers soldiers of the old army"


def test_a_rumour_told_as_hearsay_is_checked_though_it_reads_like_a_question(
    index: ClaimIndex,
) -> None:
    """Said plainly it comes about as near the everyday "does amnesty cover soldiers and
    police" as the claim; a guard that wants the claim clearly nearer leaves it out, and "they
    say" makes it a rumour to check all the same."""
    near = index.nearness(AMNESTY)
    claim = max(
        nearest for _, nearest, slug, _ in near.claims if slug == "amnesty-soldiers-families"
    )
    everyday = max(score for _, score in near.everyday)
    assert abs(claim - everyday) < 0.1  # a near tie: the guard decides
    strict = Guard(margin=claim - everyday + 0.01, hearsay_margin=-0.15, share=0.0, enough=99)
    assert decide(index.match(AMNESTY, guard=strict)).kind == "none"
    told = decide(index.match("they say " + AMNESTY, guard=strict))
    assert [candidate.claim for candidate in told.candidates] == ["amnesty-soldiers-families"]


@pytest.mark.parametrize(
    ("message", "hearsay"),
    [
        ("وايي چې کاناډا ټول وړي", True),
        ("ما اورېدلي چې کاناډا ټول وړي", True),
        ("میگن کانادا همه ره میبره", True),
        ("megan canada hama ra mebara", True),
        ("کاناډا ټول وړي؟", False),
        ("when is the next flight", False),
    ],
)
def test_hearsay_is_known_in_every_script_as_people_type_it(message: str, hearsay: bool) -> None:
    """«وايي» typed with Arabic ي still reads as Pashto's «وايي» after the normaliser."""
    words = re.findall(r"\w+", normalise(message))
    assert is_hearsay(words) is hearsay
    assert "وایی" not in without_frame(words) and "اورېدلی" not in without_frame(words)
