"""action_answer_documents: documents to bring and who may board, never lapsed guidance."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, delete, select, update

from actions.chat.documents import ActionAnswerDocuments
from actions.content import db
from actions.content.localise import word
from actions.content.models import GuidanceKind, GuidanceTopic
from tests.actions.content_support import (
    LANGUAGES,
    NOW,
    clock,
    only_message,
    outside_isolates,
    render,
    run,
    tracker,
)

FSI, PDI = "\u2068", "\u2069"
KINDS = (GuidanceKind.DOCUMENTS, GuidanceKind.ELIGIBILITY)


async def ask(language: object, offset: timedelta = timedelta()) -> dict[str, Any]:
    action = ActionAnswerDocuments(clock=clock(offset))
    messages, events = await run(action, tracker("ask_documents", language))
    assert events == []
    return only_message(messages)


def titles(block: str) -> list[str]:
    items = [line for line in block.split("\n") if line.startswith("• ")]
    return [line.removeprefix("• ").split(": ", 1)[0] for line in items]


def checks(block: str) -> list[str]:
    """The line under each item: its own "verified … · source: …"."""
    lines = block.split("\n")
    assert all(line.startswith("• ") for line in lines[::2]), block
    return [line.removeprefix("  ") for line in lines[1::2]]


EXPECTED = {
    "en": {
        "documents": [
            "Passport or tazkira",
            "Visa and SIV papers",
            "Documents for children",
            "Copies on your phone, originals on paper",
            "Keep your documents hidden",
        ],
        "eligibility": ["Foreign nationals", "SIV applicants with approval", "Family members"],
        # Each item its own check: "Keep your documents hidden" was checked 2 h ago, not 3.
        "documents_checked": [
            *["verified 1 h ago · source: US Embassy Kabul"] * 2,
            *["verified 3 h ago · source: Kabul Aid Network (example NGO)"] * 2,
            "verified 2 h ago · source: Kabul Aid Network (example NGO)",
        ],
        "eligibility_checked": ["verified 1 h ago · source: US Embassy Kabul"] * 3,
        "hidden": "Do not hold them up or wave them at the gate",
    },
    "prs": {
        "documents": [
            "پاسپورت یا تذکره",
            f"ویزه و اسناد {FSI}SIV{PDI}",
            "اسناد اطفال",
            "کاپی در تیلفون، اصل اسناد روی کاغذ",
            "اسناد خود را پنهان نگه دارید",
        ],
        "eligibility": ["اتباع خارجی", f"متقاضیان {FSI}SIV{PDI} که منظوری دارند", "اعضای فامیل"],
        "documents_checked": [
            *["۱ ساعت پیش تایید شده · منبع: سفارت امریکا در کابل"] * 2,
            *["۳ ساعت پیش تایید شده · منبع: شبکهٔ کمک‌رسانی کابل (مؤسسهٔ نمونه)"] * 2,
            "۲ ساعت پیش تایید شده · منبع: شبکهٔ کمک‌رسانی کابل (مؤسسهٔ نمونه)",
        ],
        "eligibility_checked": ["۱ ساعت پیش تایید شده · منبع: سفارت امریکا در کابل"] * 3,
        "hidden": "پیش دروازه اسناد را بالا نگیرید و تکان ندهید",
    },
    "ps": {
        "documents": [
            "پاسپورټ یا تذکره",
            f"ویزه او د {FSI}SIV{PDI} اسناد",
            "د ماشومانو اسناد",
            "کاپي په ټیلیفون کې، اصلي اسناد پر کاغذ",
            "خپل اسناد پټ وساتئ",
        ],
        "eligibility": [
            "بهرني اتباع",
            f"د {FSI}SIV{PDI} هغه غوښتونکي چې منظوري لري",
            "د کورنۍ غړي",
        ],
        "documents_checked": [
            *["۱ ساعت مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت"] * 2,
            *["۳ ساعته مخکې تایید شوي · سرچینه: د کابل د مرستې شبکه (بېلګه موسسه)"] * 2,
            "۲ ساعته مخکې تایید شوي · سرچینه: د کابل د مرستې شبکه (بېلګه موسسه)",
        ],
        "eligibility_checked": ["۱ ساعت مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت"] * 3,
        "hidden": "پر دروازه اسناد مه پورته کوئ او مه یې ښوروئ",
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_documents_and_who_may_board(content_db: Engine, language: str) -> None:
    message = await ask(language)
    expected = EXPECTED[language]
    assert message["response"] == "utter_documents"
    assert titles(message["documents"]) == expected["documents"]
    assert titles(message["eligibility"]) == expected["eligibility"]  # not the lapsed UK ARAP
    hidden = message["documents"].split("\n")[-2]
    assert expected["hidden"] in hidden, "carry documents hidden, do not display them"
    # Each item with its own check right under it, as a flight or a gate has.
    assert checks(message["documents"]) == expected["documents_checked"]
    assert checks(message["eligibility"]) == expected["eligibility_checked"]
    shown = render(message, language)
    # Each part shows as a message of its own on chat, ending with its last item's check.
    documents, eligibility = shown.split("\n\n")[:2]
    assert documents.endswith(message["documents"])
    assert eligibility.endswith(message["eligibility"])


@pytest.mark.parametrize("language", ["prs", "ps"])
async def test_right_to_left_answer_has_no_bare_latin_or_ascii_digits(
    content_db: Engine, language: str
) -> None:
    shown = render(await ask(language), language)
    assert not any(c.isascii() and c.isalnum() for c in outside_isolates(shown))


@pytest.mark.parametrize("language", LANGUAGES)
async def test_lapsed_eligibility_is_not_shown_but_documents_are(
    content_db: Engine, language: str
) -> None:
    # Eligibility is valid for 12 h; the documents advice does not lapse.
    message = await ask(language, offset=timedelta(hours=12, minutes=1))
    assert message["response"] == "utter_documents"
    assert titles(message["documents"]) == EXPECTED[language]["documents"]
    assert message["eligibility"] == word("label", "no_current_guidance", language)


async def test_provenance_counts_only_what_is_shown(content_db: Engine) -> None:
    message = await ask("en", offset=timedelta(hours=12, minutes=1))
    assert checks(message["documents"]) == [
        *["verified 13 h ago · source: US Embassy Kabul"] * 2,
        *["verified 15 h ago · source: Kabul Aid Network (example NGO)"] * 2,
        "verified 14 h ago · source: Kabul Aid Network (example NGO)",
    ]
    # Lapsed: nothing shown, nothing vouched for.
    assert "verified" not in message["eligibility"]


def remove_guidance(how: str) -> None:
    with db.session_scope() as session:
        chosen = GuidanceTopic.kind.in_(KINDS)
        if how == "missing":
            session.execute(delete(GuidanceTopic).where(chosen))
        else:
            lapsed = NOW - timedelta(minutes=1)
            session.execute(update(GuidanceTopic).where(chosen).values(valid_until=lapsed))


NONE = {
    "en": "I have no current guidance on documents or on who may board.",
    "prs": "فعلاً در مورد اسناد یا کسانی که سوار شده می‌توانند، رهنمایی تازه ندارم.",
    "ps": "اوس مهال د اسنادو یا د هغو کسانو په اړه چې سپرېدای شي، تازه لارښوونه نه لرم.",
}


@pytest.mark.parametrize("how", ["missing", "expired"])
@pytest.mark.parametrize("language", LANGUAGES)
async def test_no_current_guidance(content_db: Engine, how: str, language: str) -> None:
    remove_guidance(how)
    message = await ask(language)
    assert message == {**message, "response": "utter_documents_none"}
    assert not {"documents", "eligibility"} & set(message)
    assert render(message, language).startswith(NONE[language])


async def test_an_editors_change_shows_in_the_next_answer(content_db: Engine) -> None:
    with db.session_scope() as session:
        topic = session.scalars(
            select(GuidanceTopic).where(GuidanceTopic.slug == "family-members")
        ).one()
        topic.title_en = "Family members (immediate family only)"
        topic.position = -1
    message = await ask("en")
    assert titles(message["eligibility"])[0] == "Family members (immediate family only)"


SIV_GATE = {
    "en": "Which gate should SIV holders go to?",
    "prs": "دارندگان SIV به کدام دروازه بروند؟",
    "ps": "د SIV خاوندان کومې دروازې ته ولاړ شي؟",
}
NORTH_GATE = {"en": "North Gate", "prs": "دروازهٔ شمالی", "ps": "شمالي دروازه"}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_which_gate_for_siv_holders_names_the_gate(content_db: Engine, language: str) -> None:
    # Read as a documents question ("SIV holders"), it still names the gate, in every language.
    state = tracker("ask_documents", language)
    state.latest_message["text"] = SIV_GATE[language]
    messages, _ = await run(ActionAnswerDocuments(clock=clock()), state)
    assert [m["response"] for m in messages] == ["utter_documents", "utter_airport_status"]
    gates = render(messages[-1], language)
    assert NORTH_GATE[language] in gates and "SIV" in gates, gates
    # Without a gate in the question, the documents alone.
    plain = tracker("ask_documents", language)
    messages, _ = await run(ActionAnswerDocuments(clock=clock()), plain)
    assert [m["response"] for m in messages] == ["utter_documents"]
