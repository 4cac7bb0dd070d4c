"""action_request_caseworker: who answers and when, one case per conversation, paused after it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, select, update

from actions import privacy, settings
from actions.alerts import retention
from actions.cases.models import Author, Case, CaseMessage, CaseStatus, Priority
from actions.content import db
from actions.content.models import Organisation
from actions.handoff import ActionCaseClosed, ActionRequestCaseworker
from tests.actions.content_support import NOW, clock, render, run, tracker

#: NOW is 09:00 in Kabul; the demo's Kabul Aid Network answers 08:00-20:00, within 20 minutes.
AFTER_HOURS = timedelta(hours=12)  # 21:00 Kabul
PAUSED = [
    {"event": "pause", "timestamp": None},
    {"event": "action", "name": "action_listen", "policy": None, "confidence": None,
     "timestamp": None},
]  # fmt: skip


async def ask(
    language: str = "prs", offset: timedelta = timedelta(), text: str | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    state = tracker("ask_human", language)
    if text is not None:
        state.latest_message["text"] = text
    messages, events = await run(ActionRequestCaseworker(clock=clock(offset)), state)
    return [m for m in messages if not remembers(m)], events


def remembers(message: dict[str, Any]) -> bool:
    """The request to the channel to seal the person's address (never shown to them)."""
    return "remember_address" in (message.get("custom") or {})


def cases() -> list[tuple[Case, list[CaseMessage]]]:
    with db.session_scope() as session:
        found = list(session.scalars(select(Case).order_by(Case.id)))
        return [
            (
                case,
                list(
                    session.scalars(
                        select(CaseMessage)
                        .where(CaseMessage.case_id == case.id)
                        .order_by(CaseMessage.id)
                    )
                ),
            )
            for case in found
        ]


@pytest.fixture(autouse=True)
def no_hotline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EMERGENCY_HOTLINE", raising=False)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "A caseworker of Kabul Aid Network (example NGO) will answer you here in this "
         "chat, usually within 20 minutes."),
        ("prs", "یک کارمند شبکهٔ کمک‌رسانی کابل (مؤسسهٔ نمونه) در همین چت به شما جواب می‌دهد، "
         "معمولاً در ظرف ۲۰ دقیقه."),
        ("ps", "له د کابل د مرستې شبکه (بېلګه موسسه) څخه یو کارکوونکی به په همدې چټ کې تاسو ته "
         "ځواب درکړي، معمولاً په ۲۰ دقیقو کې."),
    ],
)  # fmt: skip
async def test_in_hours_it_says_who_answers_how_soon_and_pauses(
    content_db: Engine, language: str, expected: str
) -> None:
    state = tracker("ask_human", language)
    messages, events = await run(ActionRequestCaseworker(clock=clock()), state)
    # First the channel is asked to seal the person's address for the caseworker's replies,
    # for as long as an untouched case is kept.
    until = (NOW + settings.conversation_retention()).isoformat()
    assert messages[0]["custom"] == {"remember_address": {"expires_at": until}}
    messages = messages[1:]
    assert [m["response"] for m in messages] == [
        "utter_caseworker_soon",
        "utter_caseworker_ask_problem",
    ]
    assert render(messages[0], language) == expected
    assert events == PAUSED
    [(case, lines)] = cases()
    assert (case.status, case.priority, case.language, case.channel) == (
        CaseStatus.WAITING,
        Priority.NORMAL,
        language,
        "telegram",
    )
    assert case.conversation_id == "telegram-5f0c1e7a9b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8e"
    assert [(line.author, line.text) for line in lines] == [
        (Author.ASSISTANT, "ببخشید، پیام شما را نفهمیدم."),
        (Author.PERSON, "میخواهم با یک انسان صحبت کنم"),
    ]


async def test_after_hours_it_says_when_they_start_and_gives_the_hotline(
    content_db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    messages, events = await ask("en", AFTER_HOURS)
    assert messages[0]["response"] == "utter_caseworker_later"
    assert "from 08:00 Kabul time" in render(messages[0], "en")
    assert events == PAUSED  # the case waits for the morning

    monkeypatch.setenv("EMERGENCY_HOTLINE", "+93 799 000 111")
    messages, _ = await ask("ps", AFTER_HOURS)
    assert messages[0]["response"] == "utter_caseworker_later_hotline"
    text = render(messages[0], "ps")
    assert "د سهار ۸ بجې" in text and "\u2068+93 799 000 111\u2069" in text
    assert len(cases()) == 1  # the same conversation asked twice: still one case


async def test_without_an_organisation_that_takes_cases_nobody_is_promised(
    content_db: Engine,
) -> None:
    with db.session_scope() as session:
        session.execute(update(Organisation).values(case_hours=None))
    messages, events = await ask("en")
    assert [m["response"] for m in messages] == ["utter_caseworker_none"]
    assert events == []
    assert cases() == []


@pytest.mark.parametrize(
    "text",
    ["my child is injured, I need a person", "طفلم زخمی شده، یک آدم میخواهم",
     "زما ماشوم ټپي دی، له انسان سره خبرې کول غواړم"],
)  # fmt: skip
async def test_urgent_words_raise_the_priority(content_db: Engine, text: str) -> None:
    await ask("en", text=text)
    [(case, _)] = cases()
    assert case.priority == Priority.URGENT


async def test_deleting_my_data_deletes_my_cases_and_retention_old_ones(
    content_db: Engine,
) -> None:
    await ask("prs")
    privacy.forget_conversation("telegram-5f0c1e7a9b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8e")
    assert cases() == []

    await ask("prs")
    with db.session_scope() as session:
        kept = retention.purge(session, NOW + timedelta(days=6), timedelta(days=7))
    assert kept.cases == 0 and len(cases()) == 1
    with db.session_scope() as session:
        purged = retention.purge(session, NOW + timedelta(days=8), timedelta(days=7))
    assert purged.cases == 1 and cases() == []


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_when_the_case_is_closed_the_assistant_is_back(language: str) -> None:
    messages, events = await run(ActionCaseClosed(), tracker("ask_human", language))
    assert [m["response"] for m in messages] == ["utter_caseworker_done"]
    assert events == [{"event": "resume", "timestamp": None}]
    back = {"en": "I am back", "prs": "من دوباره اینجا هستم", "ps": "زه بیا دلته یم"}
    assert back[language] in render(messages[0], language)


async def test_a_closed_case_can_be_kept_shorter_but_never_longer(
    content_db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ask("prs")
    with db.session_scope() as session:
        session.execute(update(Case).values(status=CaseStatus.CLOSED, closed_at=NOW))
    monkeypatch.setenv("CLOSED_CASE_RETENTION", "30d")
    assert settings.closed_case_retention() == timedelta(days=7)  # capped by the conversations'
    monkeypatch.setenv("CLOSED_CASE_RETENTION", "1d")
    with db.session_scope() as session:
        kept = retention.purge(
            session, NOW + timedelta(hours=23), timedelta(days=7), settings.closed_case_retention()
        )
    assert kept.cases == 0 and len(cases()) == 1
    with db.session_scope() as session:
        purged = retention.purge(
            session, NOW + timedelta(hours=25), timedelta(days=7), settings.closed_case_retention()
        )
    assert purged.cases == 1 and cases() == []


async def test_the_case_keeps_the_answer_the_person_had_not_the_safety_notice(
    content_db: Engine,
) -> None:
    state = tracker("ask_human", "en")
    state.events.extend(
        [
            {"event": "bot", "text": "Abbey Gate: closed", "metadata": {"utter_action": None}},
            {
                "event": "bot",
                "text": 'For your safety: write "safety" to learn how to delete this chat.',
                "metadata": {"utter_action": "utter_safety_offer"},
            },
        ]
    )
    await run(ActionRequestCaseworker(clock=clock()), state)
    [(_, lines)] = cases()
    said = [line.text for line in lines if line.author is Author.ASSISTANT]
    assert said[-1] == "Abbey Gate: closed"
    assert not any("For your safety" in text for text in said)
