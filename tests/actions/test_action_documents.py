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
    return [line.removeprefix("• ").split(": ", 1)[0] for line in block.split("\n")]


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
        "documents_checked": "verified 1 h ago · source: US Embassy Kabul\n"
        "verified 3 h ago · source: Kabul Aid Network (example NGO)",
        "eligibility_checked": "verified 1 h ago · source: US Embassy Kabul",
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
        "documents_checked": "۱ ساعت پیش تایید شده · منبع: سفارت امریکا در کابل\n"
        "۳ ساعت پیش تایید شده · منبع: شبکهٔ کمک‌رسانی کابل (مؤسسهٔ نمونه)",
        "eligibility_checked": "۱ ساعت پیش تایید شده · منبع: سفارت امریکا در کابل",
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
        "documents_checked": "۱ ساعت مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت\n"
        "۳ ساعته مخکې تایید شوي · سرچینه: د کابل د مرستې شبکه (بېلګه موسسه)",
        "eligibility_checked": "۱ ساعت مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت",
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
    hidden = message["documents"].split("\n")[-1]
    assert expected["hidden"] in hidden, "carry documents hidden, do not display them"
    shown = render(message, language)
    # Each part shows as a message of its own on chat, with the checks of its own sources.
    documents, eligibility = shown.split("\n\n")[:2]
    assert documents.endswith(f"{message['documents']}\n{expected['documents_checked']}")
    assert eligibility.endswith(f"{message['eligibility']}\n{expected['eligibility_checked']}")


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
    assert message["documents_checked"] == (
        "verified 13 h ago · source: US Embassy Kabul\n"
        "verified 15 h ago · source: Kabul Aid Network (example NGO)"
    )
    assert message["eligibility_checked"] == ""  # lapsed: nothing shown, nothing vouched for


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
    assert not {"documents", "eligibility", "documents_checked"} & set(message)
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
