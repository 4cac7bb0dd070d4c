"""action_request_caseworker: who answers and when, one case per conversation, paused after it
within the hours, waiting without a pause outside them; what goes into a waiting case, "cancel",
STOP and "delete my data" while a case is open."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, delete, select, update

from actions import settings
from actions.cases.models import Author, Case, CaseMessage, CaseStatus, Priority
from actions.chat import privacy
from actions.chat.handoff import (
    ActionAddToCase,
    ActionCaseClosed,
    ActionRequestCaseworker,
    ActionWithdrawCase,
)
from actions.chat.privacy import ActionDeleteMyData
from actions.chat.subscriptions import ActionUnsubscribeAlerts
from actions.content import db
from actions.content.models import Organisation
from actions.notifier import retention
from kernel.lang.normalise import normalise
from tests.actions.content_support import NOW, clock, render, run, tracker

#: NOW is 09:00 in Kabul; the demo's Kabul Aid Network answers 08:00-20:00, within 20 minutes.
AFTER_HOURS = timedelta(hours=12)  # 21:00 Kabul
PAUSED = [
    {"event": "pause", "timestamp": None},
    {"event": "action", "name": "action_listen", "policy": None, "confidence": None,
     "timestamp": None},
]  # fmt: skip


WAITING = {"event": "slot", "timestamp": None, "name": "case_waiting", "value": True}
NOT_WAITING = {**WAITING, "value": False}


async def ask(
    language: str = "prs",
    offset: timedelta = timedelta(),
    text: str | None = None,
    site: object = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``site``: the organisation the web chat's page names, as the page sent it."""
    state = tracker("ask_human", language)
    if site is not None:
        state.latest_message["metadata"] = {"organisation": site}
    if text is not None:
        state.latest_message["text"] = text
        [*_, request] = [e for e in state.events if e["event"] == "user"]
        request["text"] = text
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
        ("ps", "یو کارکوونکی به په همدې چټ کې ځواب درکړي، معمولاً په ۲۰ دقیقو کې. اداره: د کابل د "
         "مرستې شبکه (بېلګه موسسه)."),
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
    with db.session_scope() as session:  # only its caseworkers see it (test_console_cases.py)
        answering = session.get(Organisation, case.organisation_id)
        assert answering is not None and answering.slug == "kabul-aid-network"
    assert [(line.author, line.text) for line in lines] == [
        (Author.ASSISTANT, "ببخشید، پیام شما را نفهمیدم."),
        (Author.PERSON, "میخواهم با یک انسان صحبت کنم"),
    ]


async def test_after_hours_it_says_when_they_start_and_gives_the_hotline(
    content_db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    messages, events = await ask("en", AFTER_HOURS)
    assert [m["response"] for m in messages] == [
        "utter_caseworker_later",
        "utter_caseworker_ask_problem_later",
    ]
    assert "from 08:00 Kabul time" in render(messages[0], "en")
    assert "I keep answering your questions" in render(messages[1], "en")
    # The case waits for the morning; the person keeps the assistant until then.
    assert events == [WAITING]

    monkeypatch.setenv("EMERGENCY_HOTLINE", "+93 799 000 111")
    messages, _ = await ask("ps", AFTER_HOURS)
    assert messages[0]["response"] == "utter_caseworker_later_hotline"
    text = render(messages[0], "ps")
    assert "د سهار ۸ بجې" in text and "\u2068+93 799 000 111\u2069" in text
    assert "له د" not in text
    assert len(cases()) == 1  # the same conversation asked twice: still one case


async def test_an_urgent_request_at_night_gets_the_day_and_night_numbers_at_once(
    content_db: Engine,
) -> None:
    messages, events = await ask("en", AFTER_HOURS, text="I need a person, my son is bleeding")
    assert [m["response"] for m in messages] == [
        "utter_caseworker_later",
        "utter_caseworker_ask_problem_later",
        "utter_case_urgent_contacts",
    ]
    assert "+93 700 000 121" in render(messages[-1], "en")
    assert events == [WAITING]
    messages, _ = await ask("en", AFTER_HOURS)  # the same case; no urgent word: no numbers
    assert "utter_case_urgent_contacts" not in [m["response"] for m in messages]


async def test_the_case_goes_to_the_organisation_open_now_with_the_shortest_wait(
    content_db: Engine,
) -> None:
    """Two organisations staff the service: the case is UNHCR's (open, 5 minutes), not Kabul
    Aid Network's (open, 20 minutes); only UNHCR's caseworkers will see it."""
    with db.session_scope() as session:
        session.execute(
            update(Organisation)
            .where(Organisation.slug == "unhcr")
            .values(case_hours="00:00-00:00", case_wait_minutes=5)
        )
    messages, _ = await ask("en")
    assert "usually within 5 minutes" in render(messages[0], "en")
    [(case, _)] = cases()
    with db.session_scope() as session:
        answering = session.get(Organisation, case.organisation_id)
        assert answering is not None and answering.slug == "unhcr"


def answering_slug() -> str:
    [(case, _)] = cases()
    with db.session_scope() as session:
        answering = session.get(Organisation, case.organisation_id)
        assert answering is not None
        return answering.slug


def unhcr_takes_cases(hours: str = "00:00-00:00") -> None:
    """UNHCR answers too, within 5 minutes: sooner than Kabul Aid Network's 20."""
    with db.session_scope() as session:
        session.execute(
            update(Organisation)
            .where(Organisation.slug == "unhcr")
            .values(case_hours=hours, case_wait_minutes=5)
        )


async def test_on_an_organisations_own_site_its_caseworkers_answer(content_db: Engine) -> None:
    """The web chat on Kabul Aid Network's page: its case, though UNHCR would answer sooner."""
    unhcr_takes_cases()
    messages, _ = await ask("en", site="kabul-aid-network")
    assert "Kabul Aid Network" in render(messages[0], "en")
    assert answering_slug() == "kabul-aid-network"


async def test_a_site_whose_organisation_is_closed_waits_for_it_unless_urgent(
    content_db: Engine,
) -> None:
    """At 21:00 Kabul Aid Network is closed and UNHCR open: an ordinary case waits for the
    site's own caseworkers (told when they start); an urgent one goes to UNHCR now."""
    unhcr_takes_cases()
    messages, _ = await ask("en", AFTER_HOURS, site="kabul-aid-network")
    assert messages[0]["response"] == "utter_caseworker_later"
    assert "Kabul Aid Network" in render(messages[0], "en")
    assert answering_slug() == "kabul-aid-network"
    with db.session_scope() as session:
        session.execute(delete(CaseMessage))
        session.execute(delete(Case))
    urgent = "I need a person, my son is bleeding"
    messages, _ = await ask("en", AFTER_HOURS, text=urgent, site="kabul-aid-network")
    assert "usually within 5 minutes" in render(messages[0], "en")
    assert answering_slug() == "unhcr"


@pytest.mark.parametrize(
    "site",
    ["iom", "no-such-organisation", "KABUL-AID", "kabul aid; drop", ["unhcr"], "x" * 65],
)
async def test_a_site_naming_no_organisation_that_takes_cases_changes_nothing(
    content_db: Engine, site: object
) -> None:
    """IOM takes no cases; the others are not organisations, or not slugs at all: the case goes
    to whoever answers first (UNHCR), and the person is answered as usual."""
    unhcr_takes_cases()
    messages, _ = await ask("en", site=site)
    assert "usually within 5 minutes" in render(messages[0], "en")
    assert answering_slug() == "unhcr"


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
    privacy.forget_conversation("telegram-5f0c1e7a9b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8e", NOW)
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
    assert events == [{"event": "resume", "timestamp": None}, NOT_WAITING]
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


def message(
    text: str, language: str = "prs", intent: str = "nlu_fallback", offset: timedelta = AFTER_HOURS
) -> Any:
    """The same conversation's next message (the fixture's sender), written at NOW + ``offset``;
    the parse result holds the normalised text, the user event what the person typed."""
    state = tracker("ask_human", language)
    parsed = normalise(text)
    state.latest_message = {**state.latest_message, "text": parsed, "intent": {"name": intent}}
    at = (NOW + offset).timestamp()
    state.events.append({"event": "user", "timestamp": at, "text": text})
    return state


def with_receipt(state: Any, seconds_ago: float, offset: timedelta = AFTER_HOURS) -> Any:
    """``state`` with a "received" sent ``seconds_ago`` before NOW + ``offset``, before its
    latest message."""
    receipt = {
        "event": "bot",
        "timestamp": (NOW + offset).timestamp() - seconds_ago,
        "text": "…",
        "metadata": {"utter_action": "utter_case_received"},
    }
    state.events.insert(len(state.events) - 1, receipt)
    return state


LOST_CHILD = "پسر ۸ ساله‌ام دیروز پیش دروازه ابی گم شد. کمک کنید"


async def test_after_hours_a_message_goes_into_the_case_with_the_day_and_night_numbers(
    content_db: Engine,
) -> None:
    await ask("prs", AFTER_HOURS)
    messages, events = await run(ActionAddToCase(clock=clock(AFTER_HOURS)), message(LOST_CHILD))
    assert [m["response"] for m in messages] == [
        "utter_case_received",
        "utter_case_urgent_contacts",
    ]
    assert render(messages[0], "prs") == "پیام شما رسید و برای کارمند نگه داشته شد."
    numbers = render(messages[1], "prs")
    assert "شبانه‌روزی جواب می‌دهند" in numbers
    # The contacts whose hours say day and night and that are still current (the ICRC line;
    # the US line's check expired at night), each with its organisation; not office hours.
    assert "کمیتهٔ بین‌المللی صلیب سرخ (\u2068ICRC\u2069) — اعضای گم‌شدهٔ فامیل" in numbers
    assert "\u2068+93 700 000 121\u2069" in numbers
    assert "+93 700 000 101" not in numbers  # UNHCR: Saturday to Thursday, 08:00–16:00
    assert events == []
    [(case, lines)] = cases()
    assert case.priority == Priority.URGENT
    assert (lines[-1].author, lines[-1].text) == (Author.PERSON, LOST_CHILD)


async def test_a_burst_of_lines_gets_one_received_and_in_hours_no_numbers(
    content_db: Engine,
) -> None:
    await ask("ps", AFTER_HOURS)
    later = clock(AFTER_HOURS)
    recent = with_receipt(message("بل شی هم", "ps"), seconds_ago=5)
    messages, _ = await run(ActionAddToCase(clock=later), recent)
    assert messages == []  # a "received" 5 s ago is enough: the same burst
    old = with_receipt(message("یو بل شی", "ps"), seconds_ago=30)
    messages, _ = await run(ActionAddToCase(clock=later), old)
    assert [m["response"] for m in messages] == ["utter_case_received"]
    # Within the hours an urgent line gets no night numbers: a caseworker is there.
    in_hours = message("زما ماشوم ټپي دی", "ps", offset=timedelta())
    messages, _ = await run(ActionAddToCase(clock=clock()), in_hours)
    assert [m["response"] for m in messages] == ["utter_case_received"]
    [(_, lines)] = cases()
    assert [line.text for line in lines[-3:]] == ["بل شی هم", "یو بل شی", "زما ماشوم ټپي دی"]


async def test_without_an_open_case_the_message_is_not_kept(content_db: Engine) -> None:
    messages, events = await run(ActionAddToCase(clock=clock()), message("سلام"))
    assert [m["response"] for m in messages] == ["utter_fallback"]
    assert events == [NOT_WAITING]
    assert cases() == []


@pytest.mark.parametrize(
    ("language", "back"),
    [("en", "Your request for a caseworker is withdrawn."),
     ("prs", "درخواست شما برای کارمند پس گرفته شد."),
     ("ps", "د کارکوونکي غوښتنه مو بېرته واخیستل شوه.")],
)  # fmt: skip
async def test_cancel_withdraws_the_request_and_the_case_says_so(
    content_db: Engine, language: str, back: str
) -> None:
    await ask(language)
    messages, events = await run(ActionWithdrawCase(clock=clock()), message("cancel", language))
    assert [m["response"] for m in messages] == ["utter_case_withdrawn"]
    assert render(messages[0], language).startswith(back)
    assert events == [{"event": "resume", "timestamp": None}, NOT_WAITING]
    [(case, lines)] = cases()
    assert (case.status, case.closed_at) == (CaseStatus.CLOSED, NOW)
    assert lines[-1].author == Author.ASSISTANT and lines[-1].text.startswith("(")
    # Without a case, "cancel" is the carriers' opt-out word, as before.
    messages, _ = await run(ActionWithdrawCase(clock=clock()), message("cancel", language))
    assert [m["response"] for m in messages] == ["utter_no_subscriptions"]


async def test_a_conversation_opens_at_most_three_cases_an_hour(content_db: Engine) -> None:
    for minutes in (0, 10, 20):
        await ask("prs", timedelta(minutes=minutes))
        await run(ActionWithdrawCase(clock=clock(timedelta(minutes=minutes + 1))), message("لغو"))
    messages, events = await ask("prs", timedelta(minutes=30))
    assert [m["response"] for m in messages] == ["utter_caseworker_too_many"]
    assert "چند بار کارمند خواستید" in render(messages[0], "prs")
    assert events == [] and len(cases()) == 3
    messages, _ = await ask("prs", timedelta(minutes=61))  # an hour after the first
    assert messages[0]["response"] == "utter_caseworker_soon"
    assert len(cases()) == 4


@pytest.mark.parametrize(
    ("language", "truth"),
    [("en", "their reply will come to this chat"), ("prs", "جواب او به همین چت می‌آید"),
     ("ps", "ځواب به یې همدې چټ ته راشي")],
)  # fmt: skip
async def test_stop_during_an_open_case_says_the_caseworker_still_answers(
    content_db: Engine, language: str, truth: str
) -> None:
    stop = tracker("ask_human", language)
    messages, _ = await run(ActionUnsubscribeAlerts(clock=clock()), stop)
    assert [m["response"] for m in messages] == ["utter_no_subscriptions"]
    await ask(language)
    messages, _ = await run(ActionUnsubscribeAlerts(clock=clock()), stop)
    assert [m["response"] for m in messages] == ["utter_no_subscriptions_case"]
    assert truth in render(messages[0], language)
    [(case, _)] = cases()
    assert case.status == CaseStatus.WAITING  # STOP ends alerts, not the case


async def test_delete_my_data_asks_once_before_it_ends_an_open_case(content_db: Engine) -> None:
    await ask("prs")
    first = message("۸", intent="delete_my_data")
    messages, _ = await run(ActionDeleteMyData(clock=clock()), first)
    assert [m["response"] for m in messages] == ["utter_delete_confirm"]
    assert "دوباره ۸ بفرستید" in render(messages[0], "prs")
    assert len(cases()) == 1  # nothing deleted yet
    again = message("۸", intent="delete_my_data")
    again.events += [
        {"event": "user", "timestamp": 1.0, "text": "۸"},
        {"event": "bot", "timestamp": 2.0, "text": "…",
         "metadata": {"utter_action": "utter_delete_confirm"}},
        {"event": "user", "timestamp": 3.0, "text": "۸"},
    ]  # fmt: skip
    messages, _ = await run(ActionDeleteMyData(clock=clock()), again)
    assert [m["response"] for m in messages] == ["utter_data_deleted"]
    assert cases() == []


async def test_delete_my_data_with_nothing_open_deletes_at_once(content_db: Engine) -> None:
    messages, _ = await run(
        ActionDeleteMyData(clock=clock()), message("۸", intent="delete_my_data")
    )
    assert [m["response"] for m in messages] == ["utter_data_deleted"]


def test_the_web_chat_is_not_told_its_number_was_deleted() -> None:
    for language in ("en", "prs", "ps"):
        deleted = {"response": "utter_data_deleted"}
        on_the_phone = render(deleted, language)
        on_the_web = render(deleted, language, channel="webchat")
        number = {"en": "number", "prs": "نمبر", "ps": "شمېره"}[language]
        assert number in on_the_phone and number not in on_the_web


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
