"""The questions page: what people asked in the last week, and the messages we could not answer
that at least five conversations sent on two channels or over six hours — never one that fewer
sent, nor one that one person could have sent from five browser windows, never who sent it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import Engine, delete, func, select
from sqlalchemy.orm import Session

from actions.content import db
from actions.notifier import retention
from actions.questions import report
from actions.questions.models import QuestionCount, UnansweredQuestion
from kernel.question_mask import wording
from tests.actions.console_support import Client, invitation, visible
from tests.actions.content_support import NOW
from tests.actions.test_console_cases import browser_for, sign_in_as

LATER = NOW + timedelta(minutes=45)


@pytest.fixture
def no_questions(content_db: Engine) -> Engine:
    with Session(content_db) as session, session.begin():
        session.execute(delete(QuestionCount))
        session.execute(delete(UnansweredQuestion))
    return content_db


@pytest.fixture
async def editor(no_questions: Engine) -> AsyncIterator[Client]:
    async with await browser_for(no_questions) as client:
        await sign_in_as(client, invitation(no_questions, "amina", NOW))
        yield client


def counted(hour: datetime, intent: str, turns: int, language: str = "ps", **more: str) -> None:
    """``turns`` turns of ``hour``, as the bot runtime counts them: by each facet."""
    facets = {
        "intent": intent,
        "language": f"{language}-{more.get('script', 'Arab')}",
        "channel": more.get("channel", "telegram"),
    }
    with db.session_scope() as session:
        for facet, value in facets.items():
            existing = session.get(QuestionCount, (hour, facet, value))
            if existing:
                existing.turns += turns
            else:
                session.add(QuestionCount(hour=hour, facet=facet, value=value, turns=turns))


def unanswered(
    text: str,
    *conversations: str,
    asked_at: datetime = NOW,
    channels: tuple[str, ...] = ("telegram", "whatsapp"),
    apart: timedelta = timedelta(0),
) -> None:
    """``text`` sent once by each conversation, ``apart`` after the one before, on ``channels``
    in turn."""
    with db.session_scope() as session:
        for index, conversation in enumerate(conversations):
            session.add(
                UnansweredQuestion(
                    asked_at=asked_at + index * apart,
                    conversation_tag=wording(conversation),
                    wording=wording(text),
                    intent="nlu_fallback",
                    language="ps",
                    script="Arab",
                    channel=channels[index % len(channels)],
                    text=text,
                )
            )


async def test_a_message_is_shown_from_five_conversations_on_not_from_four(
    editor: Client,
) -> None:
    unanswered("زه خپل پیشو له ځانه سره راوړلی شم", "a", "b", "c", "d", "e", "a")
    unanswered("زما ورور [name] ورک دی", "a", "b", "c", "d", "d")
    unanswered("can i bring my cat", "d", "e", "f", "g", "h", asked_at=NOW - timedelta(days=8))
    page = visible(await (await editor.get("/console/questions")).text())
    assert "زه خپل پیشو له ځانه سره راوړلی شم 5 conversations, 6 times" in page
    assert "زما ورور" not in page
    assert "can i bring my cat" not in page  # older than the week


async def test_five_web_chat_windows_within_minutes_do_not_reach_the_page(
    editor: Client,
) -> None:
    """One person's private windows are five conversations on one channel, minutes apart."""
    one_person = ("w1", "w2", "w3", "w4", "w5")
    unanswered(
        "tell me a joke about my son tamim from khair khana",
        *one_person,
        channels=("webchat",),
        apart=timedelta(minutes=2),
    )
    unanswered(
        "can i bring my cat",
        *one_person,
        asked_at=NOW - timedelta(hours=7),
        channels=("webchat",),
        apart=timedelta(hours=1, minutes=30),
    )
    page = visible(await (await editor.get("/console/questions")).text())
    assert "tamim" not in page
    assert "can i bring my cat 5 conversations, 5 times" in page  # over six hours


async def test_counts_by_intent_language_channel_hour_and_day_in_pashto(editor: Client) -> None:
    hour = NOW.replace(minute=0, second=0, microsecond=0)
    counted(hour, "ask_flights", 40)
    counted(hour, "nlu_fallback", 7, language="prs", script="Latn", channel="whatsapp")
    counted(hour - timedelta(days=1), "ask_flights", 3)
    counted(hour - timedelta(days=9), "ask_help", 1000)
    response = await editor.get("/console/questions?lang=ps")
    page = await response.text()
    assert response.status == 200 and 'dir="rtl"' in page
    text = visible(page)
    assert "۵۰ پیغامونه؛ ۷ یې ځواب نه شول." in text
    assert "الوتنې ۴۳" in text and "پوه نه شو ۷" in text and "مرسته" not in text
    assert "پښتو · عربي لیک ۴۳" in text and "دری · لاتیني توري ۷" in text
    assert "ټیلیګرام ۴۳" in text and "واټس اپ ۷" in text
    # A row of a whole UTC hour (as counted before Kabul hours): the Kabul hour it starts in.
    kabul_hour = (hour + timedelta(hours=4, minutes=30)).replace(minute=0).strftime("%H:%M")
    assert f"{kabul_hour} ۵۰".translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")) in text
    assert "هېڅ بې ځوابه پیغام له ۵ یا ډېرو خبرو اترو نه دی راغلی." in text


async def test_hours_and_days_are_kabul_hours_and_kabul_days(editor: Client) -> None:
    """00:10 on 24 August in Kabul is 19:40 UTC on 23 August: counted in the Kabul hour that
    starts at 19:30 UTC, and shown at 00:00 on 24 August."""
    after_midnight = (NOW - timedelta(days=1)).replace(hour=19, minute=30, second=0)
    counted(after_midnight, "ask_flights", 12)
    counted(after_midnight - timedelta(hours=1), "ask_flights", 5)  # 23:00 Kabul, the day before
    text = visible(await (await editor.get("/console/questions?lang=en")).text())
    day = after_midnight + timedelta(hours=4, minutes=30)
    hours = text[text.index("By hour of the day") : text.index("By day")]
    assert "00:00 12" in hours and "23:00 5" in hours and ":30" not in hours
    days = text[text.index("By day") :]
    assert f"{day.date().isoformat()} 12" in days
    assert f"{(day - timedelta(days=1)).date().isoformat()} 5" in days


async def test_masks_are_named_in_the_editors_language(editor: Client) -> None:
    unanswered("my number is [phone] and my name [name]", "a", "b", "c", "d", "e")
    dari = visible(await (await editor.get("/console/questions?lang=prs")).text())
    assert "my number is [نمبر تیلفون] and my name [نام]" in dari
    english = visible(await (await editor.get("/console/questions?lang=en")).text())
    assert "my number is [phone] and my name [name]" in english


async def test_an_empty_week_says_so(editor: Client) -> None:
    text = visible(await (await editor.get("/console/questions?lang=prs")).text())
    assert "در ۷ روز گذشته کسی پیام نفرستاده است." in text


async def test_only_signed_in_editors_see_it(no_questions: Engine) -> None:
    async with await browser_for(no_questions) as client:
        response = await client.get("/console/questions", allow_redirects=False)
        assert response.status == 303 and "/console/signin" in response.headers["Location"]
        await sign_in_as(client, invitation(no_questions, "farida", NOW, "caseworker"))
        response = await client.get("/console/questions")
        assert response.status == 403


def test_the_retention_job_purges_the_question_log(no_questions: Engine) -> None:
    hour = NOW.replace(minute=0, second=0, microsecond=0)
    counted(hour - timedelta(days=8), "ask_flights", 5)
    counted(hour - timedelta(days=1), "ask_flights", 2)
    unanswered("old", "a", asked_at=NOW - timedelta(days=7, minutes=1))
    unanswered("recent", "a", asked_at=NOW - timedelta(days=6))
    with db.session_scope() as session:
        purged = retention.purge(session, NOW, timedelta(days=7))
    assert purged.questions == 3 + 1  # the old hour by its three facets, the old message
    with db.session_scope() as session:
        assert session.scalars(select(UnansweredQuestion.text)).all() == ["recent"]
        assert session.scalar(select(func.sum(QuestionCount.turns))) == 3 * 2
        assert report.week(session, NOW).turns == 2
