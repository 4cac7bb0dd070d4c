"""action_answer_announcements: the newest three in force, with how far each can be trusted."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import Engine, delete, select

from actions.chat.announcements import ActionAnswerAnnouncements
from actions.content import db
from actions.content.models import (
    Announcement,
    AnnouncementKind,
    Organisation,
    Verification,
)
from tests.actions.content_support import LANGUAGES, NOW, clock, only_message, render, run, tracker

FSI, PDI = "\u2068", "\u2069"


async def ask(
    language: object, text: str = "latest announcements", entities: dict[str, str] | None = None
) -> dict[str, Any]:
    action = ActionAnswerAnnouncements(clock=clock())
    state = tracker("ask_announcements", language, entities)
    state.latest_message["text"] = text
    messages, events = await run(action, state)
    assert events == []
    return only_message(messages)


EXPECTED = {
    "en": {
        "headings": [
            "• 21 Aug 2021 · US Embassy Kabul · safety warning",
            "• 18 Aug 2021 · US Embassy Kabul · evacuation",
            "• 17 Aug 2021 · Taliban spokesman Zabihullah Mujahid · amnesty",
        ],
        "amnesty": [
            "⚠ UNVERIFIED: the issuer's claim, not independently confirmed",
            "General amnesty announced at a press conference in Kabul",
            "At his first press conference in Kabul, Taliban spokesman Zabihullah Mujahid said",
            "verified 3 h ago · source: TOLOnews",
        ],
        "confirmed": "Confirmed",
    },
    "prs": {
        "headings": [
            "• ۲۱ اگست ۲۰۲۱ · سفارت امریکا در کابل · هشدار امنیتی",
            "• ۱۸ اگست ۲۰۲۱ · سفارت امریکا در کابل · تخلیه",
            "• ۱۷ اگست ۲۰۲۱ · ذبیح‌الله مجاهد، سخنگوی طالبان · عفو عمومی",
        ],
        "amnesty": [
            "⚠ تایید نشده: فقط گفتهٔ کسی است که آن را اعلام کرده؛ "
            "هیچ منبع مستقل آن را تایید نکرده است",
            "اعلام عفو عمومی در کنفرانس خبری کابل",
            "ذبیح‌الله مجاهد، سخنگوی طالبان، در اولین کنفرانس خبری خود در کابل گفت",
            "۳ ساعت پیش تایید شده · منبع: طلوع نیوز",
        ],
        "confirmed": "تایید شده",
    },
    "ps": {
        "headings": [
            "• ۲۱ اګست ۲۰۲۱ · په کابل کې د امریکا سفارت · امنیتي خبرداری",
            "• ۱۸ اګست ۲۰۲۱ · په کابل کې د امریکا سفارت · وېستنه",
            "• ۱۷ اګست ۲۰۲۱ · د طالبانو ویاند ذبیح الله مجاهد · عمومي بښنه",
        ],
        "amnesty": [
            "⚠ تایید نه شوی: یوازې د اعلان کوونکي خبره ده؛ هېڅ خپلواکې سرچینې نه ده تایید کړې",
            "په کابل کې په خبري کنفرانس کې د عمومي بښنې اعلان",
            "د طالبانو ویاند ذبیح الله مجاهد په کابل کې په خپل لومړي خبري کنفرانس کې وویل",
            "۳ ساعته مخکې تایید شوي · سرچینه: طلوع نیوز",
        ],
        "confirmed": "تایید شوی",
    },
}


def blocks(message: dict[str, Any]) -> list[list[str]]:
    return [block.split("\n") for block in message["announcements"].split("\n\n")]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_latest_three_with_their_verification(content_db: Engine, language: str) -> None:
    message = await ask(language)
    expected = EXPECTED[language]
    assert message["response"] == "utter_announcements"
    found = blocks(message)
    assert [block[0] for block in found] == expected["headings"]  # the 15 Aug alert is older
    assert found[0][1] == found[1][1] == expected["confirmed"]
    amnesty = found[2]
    assert amnesty[1] == expected["amnesty"][0]
    assert amnesty[2] == expected["amnesty"][1]
    assert amnesty[3].startswith(expected["amnesty"][2])
    assert amnesty[4] == expected["amnesty"][3]
    assert message["announcements"] in render(message, language)


def add_announcement(
    slug: str,
    published: datetime,
    verification: Verification,
    valid_until: datetime | None,
    issuer: str = "uk-fcdo",
    texts: dict[str, str] | None = None,
) -> None:
    with db.session_scope() as session:
        source = session.scalars(select(Organisation).where(Organisation.slug == issuer)).one()
        session.add(
            Announcement(
                slug=slug,
                issuer=source,
                source=source,
                kind=AnnouncementKind.EVACUATION,
                published_at=published,
                verification=verification,
                verified_at=NOW - timedelta(minutes=10),
                valid_until=valid_until,
                **{f"title_{lang}": f"{slug} title" for lang in LANGUAGES},
                **{f"text_{lang}": (texts or {}).get(lang, f"{slug} text") for lang in LANGUAGES},
            )
        )


@pytest.mark.parametrize(
    ("language", "marker"),
    [
        ("en", "⚠ DISPUTED: other sources contradict it"),
        ("prs", "⚠ مورد اختلاف: منابع دیگر آن را رد می‌کنند"),
        ("ps", "⚠ اختلافي: نورې سرچینې یې ردوي"),
    ],
)
async def test_disputed_announcements_are_marked(
    content_db: Engine, language: str, marker: str
) -> None:
    add_announcement(
        "uk-charter", datetime(2021, 8, 23, tzinfo=timezone.utc), Verification.DISPUTED, None
    )
    first = blocks(await ask(language))[0]
    assert first[1] == marker
    assert len(blocks(await ask(language))) == 3


async def test_lapsed_announcements_are_not_presented(content_db: Engine) -> None:
    published = datetime(2021, 8, 23, 12, tzinfo=timezone.utc)
    add_announcement("lapsed", published, Verification.VERIFIED, NOW - timedelta(minutes=1))
    add_announcement("in-force", published, Verification.VERIFIED, NOW + timedelta(hours=1))
    found = blocks(await ask("en"))
    titles = [block[2] for block in found]
    assert titles == [
        "in-force title",
        "Security alert: stay away from the airport gates",
        "US evacuation flights: wait until you are contacted",
    ]


async def test_no_announcements(content_db: Engine) -> None:
    with db.session_scope() as session:
        session.execute(delete(Announcement))
    message = await ask("prs")
    assert message == {**message, "response": "utter_announcements_none"}
    assert render(message, "prs") == "فعلاً هیچ اعلامیهٔ رسمی تازه ندارم."


ON_TOPIC = [
    ("en", "what did the taliban announce about amnesty"),
    ("en", "amnesty"),
    ("prs", "عفو"),
    ("prs", "afw-e umumi"),
    ("ps", "بښنه"),
    ("ps", "umumi afwa"),
]


@pytest.mark.parametrize(("language", "question"), ON_TOPIC)
async def test_the_announcement_on_the_topic_asked_about_comes_first(
    content_db: Engine, language: str, question: str
) -> None:
    message = await ask(language, question)
    assert message["response"] == "utter_announcement_on_topic"
    assert message["lead_key"] == "taliban-amnesty-2021-08-17"
    assert message["announcement"].split("\n")[2] == EXPECTED[language]["amnesty"][1]
    # One line about the others: their kinds, not their texts.
    assert "\n" not in message["others"]
    assert "US Embassy" not in message["others"]
    text = render(message, language)
    assert text.index(EXPECTED[language]["amnesty"][1]) < text.index(message["others"])


GERMAN_EMBASSY = {
    "en": "Germany's embassy in Kabul is closed; its team works at the airport.",
    "prs": "سفارت آلمان در کابل بسته است؛ تیم آن در میدان هوایی کار می‌کند.",
    "ps": "په کابل کې د آلمان سفارت تړل شوی؛ ټیم یې په هوايي ډګر کې کار کوي.",
}
WOMEN_AT_WORK = {
    "en": "Women working for the government should stay at home until further notice.",
    "prs": "زنانی که در حکومت کار می‌کنند، تا اطلاع بعدی در خانه بمانند.",
    "ps": "هغه ښځې چې په حکومت کې کار کوي، تر بل خبر پورې دې په کور کې پاتې شي.",
}


@pytest.mark.parametrize(
    ("language", "question", "slug"),
    [
        ("en", "Germany's embassy", "german-embassy"),
        ("prs", "سفارت آلمان", "german-embassy"),
        ("ps", "د آلمان سفارت", "german-embassy"),
        ("en", "women working", "women-at-work"),
        ("prs", "کار زنان", "women-at-work"),
        ("ps", "د ښځو کار", "women-at-work"),
    ],
)
async def test_a_topic_is_found_by_the_announcements_own_words(
    content_db: Engine, language: str, question: str, slug: str
) -> None:
    """As soon as an editor publishes it, in any of the three languages: no keyword list."""
    published = datetime(2021, 8, 16, tzinfo=timezone.utc)
    add_announcement(
        "german-embassy", published, Verification.VERIFIED, None,
        issuer="german-foreign-office", texts=GERMAN_EMBASSY,
    )  # fmt: skip
    add_announcement(
        "women-at-work", published, Verification.UNVERIFIED, None,
        issuer="taliban-spokesman", texts=WOMEN_AT_WORK,
    )  # fmt: skip
    message = await ask(language, question)
    assert message["response"] == "utter_announcement_on_topic"
    assert message["lead_key"] == slug


@pytest.mark.parametrize("question", ["latest announcements", "any news", "اعلامیه‌ها"])
async def test_a_question_without_a_topic_gets_the_newest_three(
    content_db: Engine, question: str
) -> None:
    message = await ask("en", question)
    assert message["response"] == "utter_announcements"
    assert len(blocks(message)) == 3


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_sms_form_names_the_announcement_its_trust_and_one_check(
    content_db: Engine, language: str
) -> None:
    message = await ask(language, "amnesty")
    assert EXPECTED[language]["amnesty"][1] in message["lead"]
    trust = {"en": "UNVERIFIED claim", "prs": "تایید نشده", "ps": "تایید نه شوی"}[language]
    assert trust in message["lead"]
    checked = {"en": "checked 3 h ago, TOLOnews", "prs": "تایید ۳ ساعت پیش، طلوع نیوز"}
    if language in checked:
        assert message["checked"] == checked[language]


async def test_the_full_text_is_a_detail_asked_for_by_number(content_db: Engine) -> None:
    message = await ask("en", "/ask_announcements", {"detail": "taliban-amnesty-2021-08-17"})
    assert message["response"] == "utter_detail"
    assert message["detail"].startswith("UNVERIFIED claim: At his first press conference")
    assert message["checked"] == "checked 3 h ago, TOLOnews"
    # As the NLU's normaliser hands it over: lower case, a hyphen folded away.
    folded = await ask("en", "/ask_announcements", {"detail": "talibanamnesty-2021-08-17"})
    assert folded["response"] == "utter_detail"
    unknown = await ask("en", "/ask_announcements", {"detail": "no-such-announcement"})
    assert unknown["response"] == "utter_announcements"
