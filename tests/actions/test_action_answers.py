"""Editors' answers: a question no fixed topic answers gets the answer editors wrote, a choice of
close ones, or an honest "no answer yet"; a fixed topic gives way to the answer a message
really asks for; a published answer is found at once; those who asked are told once."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import pytest
from rasa_sdk import Tracker
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from actions import publishing
from actions.alerts.models import Delivery, Topic
from actions.chat.airport import ActionAnswerAirportStatus
from actions.chat.answers import ActionAnswerQuestion
from actions.chat.claims import ActionCheckClaim
from actions.chat.flights import ActionAnswerFlights
from actions.chat.privacy import ActionDeleteMyData
from actions.claims import askers
from actions.content import db
from actions.content.asks import Ask, AskAbout
from actions.content.models import RecordKind, Revision
from kernel.sms_render import for_basic_phones
from kernel.sms_segments import segment_count
from scripts.conversations import said as tracker
from tests.actions.content_support import NOW, Messages, clock, render, run

pytestmark = pytest.mark.usefixtures("content_db")


async def ask(state: Tracker, offset: timedelta = timedelta()) -> Messages:
    messages, events = await run(ActionAnswerQuestion(clock=clock(offset)), state)
    assert events == []
    return messages


def islam_qala(session: Session, phrasings: list[str], now: datetime) -> Revision | None:
    """An editor publishes the answer to a question about the Iran border."""
    return publishing.publish(
        session,
        "amina",
        RecordKind.ANSWER,
        "islam-qala-border",
        {
            "question": {
                "en": "Is Islam Qala open?",
                "prs": "اسلام قلعه باز است؟",
                "ps": "اسلام قلعه خلاص ده؟",
            },
            "answer": {
                "en": "Open for people with an Iranian visa.",
                "prs": "برای کسانی که ویزهٔ ایران دارند باز است.",
                "ps": "د ایران ویزې لرونکو ته خلاص دی.",
            },
            "phrasings": phrasings,
            "source": "iom",
        },
        now=now,
    )


def responses(messages: Messages) -> list[str]:
    return [m.get("response") or "json" for m in messages]


def asks_of(sender: str) -> list[Ask]:
    with db.session_scope() as session:
        return list(session.scalars(select(Ask).where(Ask.conversation_id == sender)))


@pytest.mark.parametrize(
    ("language", "message", "said"),
    [
        ("en", "torkham open?", "Torkham"),
        ("prs", "سرحد تورخم ره باز کدن یا نی؟", "تورخم"),
        ("ps", "torkham pula khlas da?", "تورخم"),
    ],
)
async def test_an_editors_phrasing_gets_their_answer_with_source_in_the_persons_language(
    language: str, message: str, said: str
) -> None:
    messages = await ask(tracker(message, language))
    assert responses(messages) == ["utter_answer"]
    text = render(messages[0], language)
    assert said in text
    assert "IOM" in text or "سازمان" in text or "IOM" in messages[0]["verified"]


async def test_a_paraphrase_in_romanised_pashto_finds_the_answer() -> None:
    messages = await ask(tracker("da torkham sarhad nan khlas de ka band?", "ps"))
    assert responses(messages) == ["utter_answer"]
    assert "تورخم" in messages[0]["answer"]


async def test_a_need_nobody_answered_gets_an_honest_reply_and_the_menu_and_is_kept_masked() -> (
    None
):
    sender = uuid.uuid4().hex
    message = "can i take my dog on the way to mazar, call me 0700123456"
    messages = await ask(tracker(message, sender=sender))
    assert responses(messages) == ["utter_answer_none", "utter_menu"]
    assert "do not have an answer" in render(messages[0], "en")
    kept = asks_of(sender)
    assert [(a.about, a.answer_id, a.wants_answer) for a in kept] == [
        (AskAbout.ANSWER, None, False)
    ]
    assert "0700123456" not in kept[0].masked_text


async def test_on_telegram_the_person_may_ask_to_be_told_and_is_told_once_when_it_is_answered() -> (
    None
):
    sender = uuid.uuid4().hex
    question = "is the islam qala border with iran open for families?"
    messages = await ask(tracker(question, "en", "telegram", sender=sender))
    assert responses(messages) == ["utter_answer_none_offer"]
    notify = tracker(
        "/ask_question", "en", "telegram", "ask_question", {"detail": "notify"}, sender
    )
    accepted = await ask(notify)
    assert responses(accepted) == ["json", "utter_answer_will_tell"]
    [waiting] = asks_of(sender)
    assert waiting.wants_answer and waiting.answer_by is not None

    with db.session_scope() as session:
        waiting = session.get(Ask, waiting.id)
        assert waiting is not None
        group = waiting.group_key
        revision = islam_qala(session, [question], NOW + timedelta(minutes=5))
        assert revision is not None
        session.execute(
            Ask.__table__.update()
            .where(Ask.group_key == group)
            .values(answer_id=revision.record_id)
        )
        broadcast = askers.tell(session, revision, NOW + timedelta(minutes=5))
        assert broadcast is not None and broadcast.topic is Topic.ANSWERS
        again = askers.tell(session, revision, NOW + timedelta(minutes=6))
        assert again is None  # told once
        deliveries = list(
            session.scalars(select(Delivery).where(Delivery.broadcast_id == broadcast.id))
        )
        assert [d.conversation_id for d in deliveries] == [sender]


async def test_a_published_answer_is_found_at_the_next_message_without_a_restart() -> None:
    message = "is the islam qala border with iran open for families?"
    before = await ask(tracker(message))
    assert responses(before)[0] == "utter_answer_none"
    with db.session_scope() as session:
        islam_qala(
            session, ["islam qala border open?", "اسلام قلعه باز است", "islam qala khlas de"], NOW
        )
    after = await ask(tracker(message))
    assert responses(after) == ["utter_answer"]
    assert "Iranian visa" in after[0]["answer"]


async def test_a_withdrawn_answer_is_no_longer_given() -> None:
    with db.session_scope() as session:
        publishing.withdraw(
            session, "amina", RecordKind.ANSWER, "torkham-border", "closed", now=NOW
        )
    messages = await ask(tracker("torkham open?"))
    assert responses(messages)[0] == "utter_answer_none"


async def test_the_airport_answer_gives_way_to_the_answer_an_editors_phrasing_asks_for() -> None:
    state = tracker("torkham open?", intent="ask_airport_status")
    messages, _ = await run(ActionAnswerAirportStatus(clock=clock()), state)
    assert responses(messages) == ["utter_answer"]
    assert "Torkham" in messages[0]["answer"]


async def test_a_topics_answer_checks_whether_answers_changed_once_per_turn() -> None:
    """The route and the rumour's phrasing both read the editors' index: one check serves both."""
    checks: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if "max(revisions.id)" in statement.lower():
            checks.append(statement)

    engine = db.get_engine()
    event.listen(engine, "before_cursor_execute", count)
    try:
        state = tracker("is abbey gate open", intent="ask_airport_status")
        messages, _ = await run(ActionAnswerAirportStatus(clock=clock()), state)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert responses(messages)[0] == "utter_airport_status"
    assert len(checks) == 1


async def test_the_flights_answer_stands_for_a_flight_question() -> None:
    state = tracker("when is the next flight to doha", intent="ask_flights")
    messages, _ = await run(ActionAnswerFlights(clock=clock()), state)
    assert "utter_answer" not in responses(messages)
    assert "utter_answer_none" not in responses(messages)


async def test_a_button_picks_an_answer_and_a_gone_one_says_so() -> None:
    picked = tracker("/ask_question", intent="ask_question", entities={"detail": "uk-arap"})
    messages = await ask(picked)
    assert responses(messages) == ["utter_answer"]
    gone = tracker("/ask_question", intent="ask_question", entities={"detail": "no-such-answer"})
    assert responses(await ask(gone)) == ["utter_answer_gone"]


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
async def test_on_sms_the_answer_fits_three_segments(language: str) -> None:
    messages = await ask(
        tracker(
            "/ask_question", language, "sms_gateway", "ask_question", {"detail": "us-p2-program"}
        )
    )
    text = render(messages[-1], language, "sms_gateway")
    # What the SMS channel sends: the text for basic phones (kernel/sms_render.py).
    assert segment_count(for_basic_phones(text)) <= 3, text


async def test_deleting_my_data_deletes_my_unanswered_questions() -> None:
    sender = uuid.uuid4().hex
    await ask(tracker("can i take my dog on the way to mazar", sender=sender))
    assert asks_of(sender)
    await run(ActionDeleteMyData(clock=clock()), tracker("delete my data", sender=sender))
    assert asks_of(sender) == []


async def test_a_question_taken_for_a_rumour_check_gets_the_editors_answer() -> None:
    state = tracker("سرحد تورخم باز است؟ کسی خبر داره", "prs", intent="check_claim")
    messages, _ = await run(ActionCheckClaim(clock=clock()), state)
    assert responses(messages) == ["utter_answer"]
    assert "تورخم" in messages[0]["answer"]


async def test_a_rumour_passed_on_stays_a_rumour_not_checked_yet() -> None:
    state = tracker("people say uzbekistan opens hairatan for all tomorrow", intent="check_claim")
    messages, _ = await run(ActionCheckClaim(clock=clock()), state)
    assert responses(messages) == ["utter_claim_unchecked"]


async def test_a_message_of_no_words_is_not_understood_and_not_kept() -> None:
    sender = uuid.uuid4().hex
    messages = await ask(tracker("🙂🙂🙂", "ps", sender=sender))
    assert responses(messages) == ["utter_fallback", "utter_menu"]
    assert asks_of(sender) == []
