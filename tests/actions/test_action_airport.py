"""action_answer_airport_status: status, gates and advice, never stale facts as current."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, select

from actions.chat.airport import ActionAnswerAirportStatus
from actions.content import db
from actions.content.models import Gate, Organisation
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


async def ask(
    language: object, entities: dict[str, str] | None, offset: timedelta = timedelta()
) -> dict[str, Any]:
    action = ActionAnswerAirportStatus(clock=clock(offset))
    messages, events = await run(action, tracker("ask_airport_status", language, entities))
    assert events == []
    return only_message(messages)


EXPECTED = {
    "en": {
        "airport": "Hamid Karzai International Airport",
        "status": "open with restrictions",
        "gates": [
            "• Abbey Gate: closed — Closed because of a serious security threat. "
            "Do not wait near the gate or the canal; leave the area.",
            "• East Gate: open — Only for people called by their embassy. "
            "Show your passport or tazkira and the approval e-mail.",
            "• North Gate: open — ",
            "• Baron Hotel side (UK processing centre): open — ",
            "• Civilian terminal (main entrance): no current information (out of date)",
        ],
        "advice": "Do not go to the airport unless your embassy",
        "provenance": "verified 25 min ago · source: US Embassy Kabul",
        "checks": [
            "verified 40 min ago · source: US Embassy Kabul",
            "verified 40 min ago · source: US Embassy Kabul",
            "verified 1 h ago · source: US Embassy Kabul",
            "verified 1 h ago · source: UK Foreign Office (FCDO)",
            "verified 6 h ago · source: US Embassy Kabul",
        ],
    },
    "prs": {
        "airport": "میدان هوایی بین‌المللی حامد کرزی",
        "status": "با محدودیت باز",
        "gates": [
            f"• دروازهٔ ابی ({FSI}Abbey Gate{PDI}): بسته — به دلیل تهدید جدی امنیتی بسته است.",
            "• دروازهٔ شرقی: باز — ",
            "• دروازهٔ شمالی: باز — ",
            "• طرف هوتل بارون (مرکز بررسی اسناد بریتانیا): باز — ",
            "• ترمینل ملکی (دروازهٔ عمومی): معلومات تازه نیست (کهنه شده)",
        ],
        "advice": "تا وقتی که سفارت یا مؤسسه‌ای که شما را انتقال می‌دهد",
        "provenance": "۲۵ دقیقه پیش تایید شده · منبع: سفارت امریکا در کابل",
        "checks": [
            "۴۰ دقیقه پیش تایید شده · منبع: سفارت امریکا در کابل",
            "۴۰ دقیقه پیش تایید شده · منبع: سفارت امریکا در کابل",
            "۱ ساعت پیش تایید شده · منبع: سفارت امریکا در کابل",
            "۱ ساعت پیش تایید شده · منبع: وزارت خارجهٔ بریتانیا",
            "۶ ساعت پیش تایید شده · منبع: سفارت امریکا در کابل",
        ],
    },
    "ps": {
        "airport": "حامد کرزي نړیوال هوايي ډګر",
        "status": "په محدود ډول خلاص",
        "gates": [
            f"• د ابي دروازه ({FSI}Abbey Gate{PDI}): بنده — د جدي امنیتي ګواښ له امله بنده ده.",
            "• ختیځه دروازه: خلاصه — ",
            "• شمالي دروازه: خلاصه — ",
            "• د بارون هوټل لوری (د بریتانیا د اسنادو د کتنې مرکز): خلاصه — ",
            "• ملکي ترمینل (عمومي دروازه): تازه معلومات نشته (زاړه شوي)",
        ],
        "advice": "تر هغه چې ستاسو سفارت یا هغې موسسې چې تاسو باسي",
        "provenance": "۲۵ دقیقې مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت",
        "checks": [
            "۴۰ دقیقې مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت",
            "۴۰ دقیقې مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت",
            "۱ ساعت مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت",
            "۱ ساعت مخکې تایید شوي · سرچینه: د بریتانیا د بهرنیو چارو وزارت",
            "۶ ساعته مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت",
        ],
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("entities", [None, {}, {"airport": "KBL"}, {"airport": "kbl"}])
async def test_kabul_airport_status(
    content_db: Engine, language: str, entities: dict[str, str] | None
) -> None:
    message = await ask(language, entities)
    expected = EXPECTED[language]
    assert message["response"] == "utter_airport_status"
    assert message["airport"] == expected["airport"]
    assert message["status"] == expected["status"]
    gate_lines = message["gates"].split("\n")
    # Each gate, then its own check (the Baron Hotel side is the UK's, not the embassy's).
    for line, start in zip(gate_lines[::2], expected["gates"], strict=True):
        assert line.startswith(start)
    assert [line.strip() for line in gate_lines[1::2]] == expected["checks"]
    assert message["advice"].startswith(expected["advice"])
    # The airport's own check: its status and advice, 25 min ago (not its stalest gate's).
    assert message["provenance"] == expected["provenance"]


@pytest.mark.parametrize("language", ["prs", "ps"])
async def test_right_to_left_answer_has_no_bare_latin_or_ascii_digits(
    content_db: Engine, language: str
) -> None:
    message = await ask(language, {})
    shown = render(message, language)
    assert not any(c.isascii() and c.isalnum() for c in outside_isolates(shown))


async def test_an_expired_gate_is_not_shown_as_closed(content_db: Engine) -> None:
    message = await ask("en", {})
    terminal = message["gates"].split("\n")[-2]
    assert "closed" not in terminal and "Closed to the public" not in terminal


async def test_a_gate_change_shows_in_the_next_answer(content_db: Engine) -> None:
    with db.session_scope() as session:
        gate = session.scalars(select(Gate).where(Gate.slug == "east-gate")).one()
        gate.name_en = "East Gate (Camp Sullivan)"
    message = await ask("en", {})
    assert "• East Gate (Camp Sullivan): open — " in message["gates"]


LAST_CHECKED = {  # verified 25 min before NOW, valid for 4 h; asked 4 h 01 min after NOW
    "en": "verified 4 h ago · source: US Embassy Kabul",
    "prs": "۴ ساعت پیش تایید شده · منبع: سفارت امریکا در کابل",
    "ps": "۴ ساعته مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت",
}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_an_expired_status_is_reported_as_out_of_date(
    content_db: Engine, language: str
) -> None:
    provenance = LAST_CHECKED[language]
    message = await ask(language, {}, offset=timedelta(hours=4, minutes=1))
    assert message["response"] == "utter_airport_status_outdated"
    assert message["airport"] == EXPECTED[language]["airport"]
    assert message["provenance"] == provenance
    assert set(message) >= {"airport", "provenance"}
    assert "status" not in message and "gates" not in message and "advice" not in message


@pytest.mark.parametrize(
    ("language", "airport", "name"),
    [
        ("en", "MZR", "Mazar-i-Sharif International Airport"),
        ("prs", "MZR", "میدان هوایی بین‌المللی مزار شریف"),
        ("ps", "KDH", "کندهار نړیوال هوايي ډګر"),
        ("en", "XYZ", "XYZ"),
        ("prs", "XYZ", f"{FSI}XYZ{PDI}"),
    ],
)
async def test_an_airport_without_status_is_unknown(
    content_db: Engine, language: str, airport: str, name: str
) -> None:
    message = await ask(language, {"airport": airport})
    assert message["response"] == "utter_airport_status_unknown"
    assert message["airport"] == name
    assert name in render(message, language)


GATE_FIRST = {  # the gate asked about, its airport's state, one line on the other gates
    "en": ("• East Gate: open — Only for people called by their embassy.", "Other gates: reply 2."),
    "prs": ("• دروازهٔ شرقی: باز — ", "دروازه‌های دیگر: ۲ بفرستید."),
    "ps": ("• ختیځه دروازه: خلاصه — ", "نورې دروازې: ۲ ولېږئ."),
}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_question_about_one_gate_answers_that_gate_first(
    content_db: Engine, language: str
) -> None:
    message = await ask(language, {"gate": "KBL/east-gate"})
    assert message["response"] == "utter_gate_status"
    shown = render(message, language)
    first, rest = GATE_FIRST[language]
    assert shown.startswith(first)
    assert shown.endswith("\n" + rest)
    assert EXPECTED[language]["airport"] in message["airport"]
    assert message["status"] == EXPECTED[language]["status"]
    others = ("Abbey", "North Gate", "Baron") if language == "en" else ("ابی", "شمال", "بارون")
    assert not any(name in shown for name in others)


async def test_a_gate_the_airport_does_not_have_gets_the_whole_airport(
    content_db: Engine,
) -> None:
    message = await ask("en", {"gate": "KBL/no-such-gate"})
    assert message["response"] == "utter_airport_status"
    other_airport = await ask("en", {"gate": "KBL/east-gate", "airport": "MZR"})
    assert other_airport["response"] != "utter_gate_status"


async def test_a_gate_whose_information_is_out_of_date_says_so(content_db: Engine) -> None:
    message = await ask("en", {"gate": "KBL/civilian-terminal"})
    assert message["response"] == "utter_gate_status"
    assert "no current information (out of date)" in message["gate"]
    assert "Civilian terminal" in message["gate"]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_on_sms_the_gate_asked_about_comes_whole_in_the_first_three_segments(
    content_db: Engine, language: str
) -> None:
    from kernel.sms_segments import MAX_SEGMENTS, fits

    message = await ask(language, {"gate": "KBL/abbey-gate"})
    sent = render(message, language, channel="sms_gateway")
    assert fits(sent, MAX_SEGMENTS)
    assert sent.startswith(message["gate_brief"])  # the gate's state and its whole note
    assert message["checked"] in sent
    whole = await ask(language, {})
    assert len(sent) < len(render(whole, language)) / 2


GATE_CHECKS = {  # Abbey Gate, verified 40 min ago; Kabul airport's status, 25 min ago
    "en": (
        "verified 40 min ago · source: US Embassy Kabul",
        "checked 40 min ago, US Embassy Kabul",
    ),
    "prs": (
        "۴۰ دقیقه پیش تایید شده · منبع: سفارت امریکا در کابل",
        "تایید ۴۰ دقیقه پیش، سفارت امریکا در کابل",
    ),
    "ps": (
        "۴۰ دقیقې مخکې تایید شوي · سرچینه: په کابل کې د امریکا سفارت",
        "تایید ۴۰ دقیقې مخکې، په کابل کې د امریکا سفارت",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_an_answer_about_one_gate_shows_that_gates_check(
    content_db: Engine, language: str
) -> None:
    with db.session_scope() as session:  # an editor just closed it, on the UK's word
        gate = session.scalars(select(Gate).where(Gate.slug == "abbey-gate")).one()
        uk = session.scalars(select(Organisation).where(Organisation.slug == "uk-fcdo")).one()
        gate.verified_at, gate.source_id = NOW, uk.id
    message = await ask(language, {"gate": "KBL/abbey-gate"})
    uk_name = {"en": "UK Foreign Office (FCDO)", "prs": "وزارت خارجهٔ بریتانیا"}.get(
        language, "د بریتانیا د بهرنیو چارو وزارت"
    )
    just_now = {"en": "verified just now", "prs": "همین حالا تایید شده", "ps": "همدا اوس تایید شوي"}
    gate_check = message["gate"].split("\n")[-1].strip()
    assert gate_check.startswith(just_now[language]) and gate_check.endswith(uk_name)
    # The airport's status keeps its own check: 25 min ago, by the US Embassy.
    airport = {"en": "25 min ago", "prs": "۲۵ دقیقه پیش", "ps": "۲۵ دقیقې مخکې"}[language]
    assert airport in message["provenance"] and airport not in message["gate"]
    brief_now = {"en": "checked just now", "prs": "تایید همین حالا", "ps": "تایید همدا اوس"}
    assert message["checked"].startswith(brief_now[language])
    assert message["checked"].endswith(uk_name)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_on_sms_a_gate_answer_names_the_gates_own_check(
    content_db: Engine, language: str
) -> None:
    message = await ask(language, {"gate": "KBL/abbey-gate"})
    chat, sms = GATE_CHECKS[language]
    assert message["gate"].split("\n")[-1].strip() == chat
    assert message["checked"] == sms


SMS_AIRPORT = {  # the gates the embassy checked under its line; the UK's with its own
    "en": (
        "Abbey Gate: closed\nEast Gate: open\nNorth Gate: open",
        "checked 1 h ago, US Embassy Kabul",
        "Baron Hotel side: open; checked 1 h ago, UK Foreign Office (FCDO)",
    ),
    "prs": (
        "دروازهٔ ابی: بسته\nدروازهٔ شرقی: باز\nدروازهٔ شمالی: باز",
        "تایید ۱ ساعت پیش، سفارت امریکا در کابل",
        "طرف هوتل بارون: باز؛ تایید ۱ ساعت پیش، وزارت خارجهٔ بریتانیا",
    ),
    "ps": (
        "د ابي دروازه: بنده\nختیځه دروازه: خلاصه\nشمالي دروازه: خلاصه",
        "تایید ۱ ساعت مخکې، په کابل کې د امریکا سفارت",
        "د بارون هوټل لوری: خلاصه؛ تایید ۱ ساعت مخکې، د بریتانیا د بهرنیو چارو وزارت",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_on_sms_the_airport_names_the_source_of_each_gate(
    content_db: Engine, language: str
) -> None:
    from kernel.sms_render import condense, for_basic_phones

    message = await ask(language, {})
    gates, checked, elsewhere = SMS_AIRPORT[language]
    assert (message["gates_brief"], message["checked"], message["gates_elsewhere"]) == (
        gates,
        checked,
        elsewhere,
    )
    # Cut at three segments, a gate never arrives without the check of its source.
    first, rest = condense(for_basic_phones(render(message, language, "sms_gateway")), language)
    for page in (first, rest):
        for name in ("Baron", "بارون"):
            if name in page:
                assert "FCDO" in page or "بریتانیا" in page


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_message_naming_two_gates_gets_both(content_db: Engine, language: str) -> None:
    state = tracker("ask_airport_status", language)
    state.latest_message["entities"] = [
        {"entity": "gate", "value": "KBL/abbey-gate"},
        {"entity": "gate", "value": "KBL/east-gate"},
    ]
    messages, _ = await run(ActionAnswerAirportStatus(clock=clock()), state)
    assert [m["response"] for m in messages] == ["utter_gate_status", "utter_gate_status"]
    names = {"en": ("Abbey Gate", "East Gate"), "prs": ("ابی", "شرقی"), "ps": ("ابي", "ختیځ")}
    assert names[language][0] in messages[0]["gate"] and names[language][1] in messages[1]["gate"]
    # Each keeps its own SMS check line.
    assert all(m.get("checked") for m in messages), messages
