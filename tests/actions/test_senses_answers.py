"""The editors' answers' words mean the same in English, Dari and Pashto, however written."""

import pytest

from actions.claims.matching import ClaimIndex, Guard
from actions.claims.senses import SENSE, places
from kernel.lang.normalise import normalise

#: No everyday guard: only which answer is nearer counts here.
LOOSE = Guard(margin=-1.0, hearsay_margin=-1.0)


def sense(word: str) -> str | None:
    return SENSE.get(normalise(word))


@pytest.mark.parametrize(
    "forms",
    [
        ["border", "crossing", "سرحد", "پوله", "sarhad", "pula"],
        ["cross", "تیر", "تېرېدای", "tir", "teredai"],
        ["passport", "pasport", "پاسپورت", "پاسپورټ"],
        ["office", "department", "دفتر", "ریاست", "daftar", "riasat"],
        ["bank", "بانک", "بانکونه", "bankuna"],
        ["money", "پول", "پیسې", "paisa", "paise"],
        ["withdraw", "کشیده", "ایستلای", "kashida", "istalai"],
        ["hawala", "حواله", "hawaladar", "صرافان", "sarafan"],
        ["email", "e-mail", "ایمیل", "imel"],
        ["parents", "mother", "father", "مادر", "پدرم", "مور", "پلار", "madar", "plar"],
        ["brother", "sister", "بیادرم", "خوار", "ورور", "خور", "bayadar", "khwar", "wror"],
        ["wait", "stay", "انتظار", "منتظر", "پاتې", "intezar", "pate"],
        ["near", "نزدیک", "نږدې", "nazdik", "nizde"],
        ["apply", "application", "درخواست", "غوښتنه", "darkhast", "darkhwast"],
        ["programme", "scheme", "برنامه", "پروګرام", "program"],
        ["referral", "معرفی", "moarefi"],
        ["ngo", "organisation", "موسسه", "mosesa"],
        ["closed", "بسته", "بند", "تړلی", "basta", "band"],
        ["arap", "آراپ", "ارپ"],
    ],
)
def test_each_way_of_writing_a_word_has_its_sense(forms: list[str]) -> None:
    senses = {sense(form) for form in forms}
    assert len(senses) == 1
    assert None not in senses


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("پول", "پولیس"),  # money, police
        ("پول", "پوله"),  # money, border
        ("open", "office"),
        ("open", "closed"),
        ("near", "wait"),
    ],
)
def test_words_that_only_look_alike_keep_apart(one: str, other: str) -> None:
    assert sense(one) != sense(other) or sense(one) is None


@pytest.mark.parametrize(
    "word",
    [
        "wrora",  # "brother!": how people greet the assistant
        "bro",
        "پولي",  # Pashto borders, but «پولی» is Dari for "paid"
        "فارم",  # a form, and a farm
        "close",  # near, or shut
        "list",
        "لست",
    ],
)
def test_words_that_mostly_mean_something_else_have_no_sense(word: str) -> None:
    assert sense(word) is None


def test_quetta_and_britain_as_people_spell_them_are_places() -> None:
    assert places(["کویته"]) == places(["quetta"]) == places(["pakistan"])
    assert places(["برتانیه"]) == places(["bartania"]) == places(["uk"])


@pytest.fixture(scope="module")
def answers() -> ClaimIndex:
    """Answers asked about in one way of writing only, as an editor may have phrased them."""
    return ClaimIndex(
        [
            ("passport-office", ["is the passport office open?"]),
            ("banks-hawala", ["are banks open, can i withdraw money, does hawala work?"]),
            ("family", ["can my mother, father, brothers and sisters come with me?"]),
            ("where-to-wait", ["where can i wait near the airport?"]),
            ("border", ["is the border crossing open?"]),
        ]
    )


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("د پاسپورټ دفتر خلاص دی؟", "passport-office"),
        ("riasat pasport baz as?", "passport-office"),
        ("از بانک پیسه کشیده میتانم؟", "banks-hawala"),
        ("hawaladar ha baz astan?", "banks-hawala"),
        ("مور او پلار مې له ما سره تللای شي؟", "family"),
        ("bayadar wa khwaharam ra ham borda metanom?", "family"),
        ("نزدیک میدان کجا انتظار بکشیم؟", "where-to-wait"),
        ("sarhad khlas de?", "border"),
    ],
)
def test_a_question_in_another_script_finds_its_answer(
    answers: ClaimIndex, message: str, answer: str
) -> None:
    assert [candidate.claim for candidate in answers.match(message, guard=LOOSE)][:1] == [answer]
