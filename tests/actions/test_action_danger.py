"""action_answer_danger: the line that answers this danger now, what to do, and an urgent case —
by day and at night, with an open case and without, on chat and on SMS, and with the content
database down."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, select, update

from actions.cases.models import Author, Case, CaseMessage, Priority
from actions.chat import danger
from actions.chat.danger import ActionAnswerDanger
from actions.chat.handoff import ActionRequestCaseworker
from actions.content import db
from actions.content.models import GuidanceTopic
from kernel.sms_segments import segment_count
from tests.actions.content_support import NOW, clock, outside_isolates, render, run, tracker

#: NOW is 09:00 in Kabul: the demo's caseworkers (08:00-20:00) work, UNHCR's line (08:00-16:00)
#: and the Kabul Aid Network's advice line (07:00-22:00) answer.
NIGHT = timedelta(hours=14)  # 23:00 Kabul
WAITING = {"event": "slot", "timestamp": None, "name": "case_waiting", "value": True}


@pytest.fixture(autouse=True)
def no_hotline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EMERGENCY_HOTLINE", raising=False)


def said(text: str, language: str = "en", intent: str = "ask_human") -> Any:
    state = tracker(intent, language)
    state.latest_message["text"] = text
    [*_, message] = [e for e in state.events if e["event"] == "user"]
    message["text"] = text
    return state


async def answer(
    text: str, language: str = "en", offset: timedelta = timedelta()
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The help message, the events, and the other messages (the address to remember)."""
    messages, events = await run(ActionAnswerDanger(clock=clock(offset)), said(text, language))
    [helped] = [m for m in messages if m.get("response") == "utter_danger"]
    return helped, events, [m for m in messages if m is not helped]


def chat(message: dict[str, Any], language: str) -> str:
    """The chat text as read: its unbreakable spaces as spaces."""
    return render(message, language).replace("\u00a0", " ")


def the_case() -> tuple[Case, list[CaseMessage]]:
    with db.session_scope() as session:
        [case] = session.scalars(select(Case))
        lines = list(session.scalars(select(CaseMessage).where(CaseMessage.case_id == case.id)))
        session.expunge_all()
        return case, lines


async def test_a_lost_child_at_night_gets_the_family_line_first_and_an_urgent_case(
    content_db: Engine,
) -> None:
    helped, events, others = await answer("طفلم پیش دروازهٔ ابی گم شده", "prs", NIGHT)
    text = outside_isolates(render(helped, "prs"))
    lines = text.splitlines()
    # On chat the number never breaks across lines.
    assert "+93\u00a0700\u00a0000\u00a0121" in render(helped, "prs").splitlines()[1]
    assert lines[0] == "طفل یا یکی از اعضای فامیل گم شده — همین حالا زنگ بزنید:"
    # The Red Cross family-links line, day and night, with its number, before anything else.
    assert "اعضای گم‌شدهٔ فامیل و زخمی‌ها" in lines[1] and "شبانه‌روزی" in lines[1]
    assert "بازوی هر طفل" in text
    # The case: urgent, seen first when the caseworkers start.
    assert "۸ صبح" in text and "«لغو»" in text
    assert events == [WAITING]
    assert others and "remember_address" in others[0]["custom"]
    case, case_lines = the_case()
    assert case.priority == Priority.URGENT
    assert (Author.PERSON, "طفلم پیش دروازهٔ ابی گم شده") in [
        (line.author, line.text) for line in case_lines
    ]


async def test_a_wound_near_a_gate_gets_the_nearest_first_aid_point_first(
    content_db: Engine,
) -> None:
    helped, _, _ = await answer("my cousin is wounded near abbey gate, bleeding a lot", "en")
    lines = chat(helped, "en").splitlines()
    assert lines[0] == "Someone wounded or very sick — call now:"
    assert "First-aid point on the airport road +93 700 000 171" in lines[1]
    assert "day and night" in lines[1] and " away" in lines[1]
    assert "Surgical hospital for the wounded +93 700 000 161" in lines[2]
    assert "Press hard on a bleeding wound" in lines[3]


async def test_a_threat_at_night_never_gets_an_office_hours_line_as_the_answer(
    content_db: Engine,
) -> None:
    helped, _, _ = await answer("armed men are at our door", "en", NIGHT)
    lines = chat(helped, "en").splitlines()
    assert "Emergency protection line +93 700 000 142 (day and night)" in lines[1]
    assert not any("Protection information line" in line for line in lines)
    with db.session_scope() as session:
        session.execute(
            update(GuidanceTopic)
            .where(GuidanceTopic.slug == "kabul-aid-network-emergency")
            .values(withdrawn_at=NOW)
        )
    helped, _, _ = await answer("they beat my brother and say they will kill him", "en", NIGHT)
    lines = chat(helped, "en").splitlines()
    assert lines[1] == "No line for this answers at this hour. The best we have:"
    # The lines that open next, each saying so: none is presented as answering now.
    assert "closed now, answers from 07:00" in lines[2]
    assert "closed now, answers from 08:00" in lines[3]


async def test_open_hours_decide_over_the_hours_text(content_db: Engine) -> None:
    """The ICRC line's text still says "Day and night", but its editors now give 08:00-16:00."""
    with db.session_scope() as session:
        session.execute(
            update(GuidanceTopic)
            .where(GuidanceTopic.slug == "icrc-family-links")
            .values(open_hours="08:00-16:00")
        )
    helped, _, _ = await answer("my son is lost at the gate", "en", NIGHT)
    lines = chat(helped, "en").splitlines()
    assert lines[1] == "No line for this answers at this hour. The best we have:"
    assert "+93 700 000 121 (closed now, answers from 08:00)" in lines[2]


async def test_the_operators_hotline_is_given_too(
    content_db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMERGENCY_HOTLINE", "+93 799 000 111")
    helped, _, _ = await answer("زوی مې ورک دی", "ps")
    assert "بیړنۍ کرښه: \u2068+93 799 000 111\u2069" in chat(helped, "ps")


async def test_a_hotline_that_is_one_of_the_lines_is_not_given_twice(
    content_db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """make run's demo hotline is the ICRC's line, which a lost child gets first anyway."""
    monkeypatch.setenv("EMERGENCY_HOTLINE", "+93 700 000 121 (ICRC)")  # the demo line
    helped, _, _ = await answer("my son is lost at the gate", "en")
    text = chat(helped, "en")
    assert "Emergency line" not in text and text.count("000 121") == 1, text


async def test_an_open_case_is_marked_urgent_and_gets_the_message(content_db: Engine) -> None:
    await run(ActionRequestCaseworker(clock=clock()), tracker("ask_human", "en"))
    assert the_case()[0].priority == Priority.NORMAL
    helped, events, _ = await answer("my mother fainted, she is not waking up", "en")
    assert render(helped, "en").endswith(
        "Your case is now marked urgent: a caseworker sees it first."
    )
    assert events == []
    case, lines = the_case()
    assert case.priority == Priority.URGENT
    assert lines[-1].text == "my mother fainted, she is not waking up"


async def test_a_message_without_danger_gets_nothing_from_it(content_db: Engine) -> None:
    messages, events = await run(
        ActionAnswerDanger(clock=clock()), said("my son's passport is lost", "en")
    )
    assert (messages, events) == ([], [])
    with db.session_scope() as session:
        assert session.scalars(select(Case)).first() is None


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
@pytest.mark.parametrize(
    "text",
    ["my son is lost at the gate", "my mother fainted at the gate", "Taliban at the door"],
)
async def test_on_sms_the_number_comes_first_within_three_messages(
    content_db: Engine, language: str, text: str
) -> None:
    helped, _, _ = await answer(text, language, NIGHT)
    sms = render(helped, language, "sms_gateway")
    assert sms.lstrip("\u2068").startswith("+93 700 000 1")
    assert segment_count(sms) <= 3, sms


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_an_office_hours_line_on_sms_still_fits_three_messages(
    content_db: Engine, language: str
) -> None:
    with db.session_scope() as session:
        session.execute(
            update(GuidanceTopic)
            .where(GuidanceTopic.slug == "kabul-aid-network-emergency")
            .values(withdrawn_at=NOW)
        )
    helped, _, _ = await answer("they beat my brother and say they will kill him", language)
    sms = render(helped, language, "sms_gateway")
    assert "+93 700 000 10" in sms  # UNHCR's line, open now, until 16:00
    assert segment_count(sms) <= 3, sms


async def test_with_the_database_down_the_lines_last_read_still_answer(
    content_db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    await answer("my child is missing", "en")  # read once while the database works

    def down(*args: object, **kwargs: object) -> None:
        raise OSError("database unreachable")

    monkeypatch.setattr(danger.ActionAnswerDanger, "in_session", down)
    messages, events = await run(ActionAnswerDanger(clock=clock()), said("my child is missing"))
    [helped] = messages
    text = chat(helped, "en")
    assert "+93 700 000 121" in text
    assert text.endswith("please call the number above.")
    assert events == []
