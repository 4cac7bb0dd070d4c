"""A caseworker's reply on its way: what ``action_send_case_reply`` writes, what the courier
does with a reply nobody can receive or the provider refuses, and how long the person's sealed
address is kept (while the case is open; "delete my data" and closing take it away)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, delete, select, update

from actions.alerts import subscriptions
from actions.alerts.models import DeliveryStatus, StoredAddress, Topic
from actions.alerts.notifier_settings import NotifierSettings
from actions.alerts.subscriptions import Wish
from actions.cases import queue, replies, store
from actions.cases.courier import CaseReplyOutbox
from actions.cases.models import Case, CaseMessage, CaseReply
from actions.chat import privacy
from actions.chat.case_reply import ActionSendCaseReply
from actions.chat.subscriptions import ActionUnsubscribeAlerts
from actions.common.rasa_api import Outcome
from actions.content import db
from actions.notifier import retention
from tests.actions.alerts_support import conversation
from tests.actions.content_support import NOW, clock, run

PERSON = "telegram-0123456789abcdef0123456789abcdef01234567"
RETENTION = timedelta(days=7)


@pytest.fixture(autouse=True)
def no_cases(content_db: Engine) -> Engine:
    with db.session_scope() as session:
        for table in (CaseReply, CaseMessage, Case, StoredAddress):
            session.execute(delete(table))
    return content_db


def seal_address(conversation_id: str = PERSON, until: datetime = NOW + RETENTION) -> None:
    """What the channel stores when the case opens (the content runtime cannot read it)."""
    with db.session_scope() as session:
        session.add(
            StoredAddress(
                conversation_id=conversation_id,
                channel=conversation_id.split("-")[0],
                key_id="0" * 16,
                sealed="c2VhbGVk",
                created_at=NOW,
                expires_at=until,
            )
        )


def address_expiry(conversation_id: str = PERSON) -> datetime | None:
    with db.session_scope() as session:
        return session.scalar(
            select(StoredAddress.expires_at).where(StoredAddress.conversation_id == conversation_id)
        )


def reply_in_a_taken_case(
    text: str = "سلام، من فریده هستم.", language: str = "prs", sender: str = PERSON
) -> int:
    with db.session_scope() as session:
        case = store.open_case(
            session,
            conversation_id=sender,
            channel=sender.split("-")[0],
            language=language,
            organisation=None,
            request="ویزه ام رد شد",
            assistant_answers=[],
            now=NOW,
        )
        queue.take(session, case.id, "farida", NOW)
        return replies.queue_reply(
            session,
            case_id=case.id,
            caseworker="farida",
            text=text,
            language=language,
            now=NOW,
            keep_address=RETENTION,
        ).reply_id


def being_sent(reply_id: int) -> None:
    with db.session_scope() as session:
        session.execute(
            update(CaseReply).where(CaseReply.id == reply_id).values(status=DeliveryStatus.SENDING)
        )


def status_of(reply_id: int) -> tuple[DeliveryStatus, str | None]:
    with db.session_scope() as session:
        reply = session.get(CaseReply, reply_id)
        assert reply is not None
        return reply.status, reply.last_error


async def send(reply_id: int, **tracker: Any) -> list[dict[str, Any]]:
    tracker.setdefault("entities", {"case_reply": str(reply_id)})
    state = conversation(intent="EXTERNAL_case_reply", **tracker)
    state._paused = True  # a case opened while caseworkers work pauses the conversation
    messages, events = await run(ActionSendCaseReply(clock()), state)
    assert events == []  # the conversation stays paused
    return messages


async def test_the_first_reply_to_a_case_that_waited_overnight_pauses_the_conversation() -> None:
    reply = reply_in_a_taken_case()
    being_sent(reply)
    state = conversation(intent="EXTERNAL_case_reply", entities={"case_reply": str(reply)})
    assert not state.is_paused()  # outside the hours the person kept the assistant
    messages, events = await run(ActionSendCaseReply(clock()), state)
    assert len(messages) == 1
    assert events == [
        {"event": "slot", "timestamp": None, "name": "case_waiting", "value": False},
        {"event": "pause", "timestamp": None},
    ]


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("prs", "پیام کارمند شما:"),
        ("ps", "ستاسو د کارکوونکي ځواب:"),
        ("en", "From your caseworker:"),
    ],
)
async def test_a_reply_being_sent_is_written_as_the_caseworker_wrote_it(
    language: str, heading: str
) -> None:
    reply = reply_in_a_taken_case()
    being_sent(reply)
    [message] = await send(reply, language=language)
    assert message["text"] == f"{heading}\nسلام، من فریده هستم."
    assert message["custom"] == {"case_reply": reply}  # the channel claims it by this
    assert message["metadata"] == {"language": language}  # what the channel adds, in it too


async def test_nothing_is_written_for_a_reply_not_being_sent_or_not_this_conversations() -> None:
    reply = reply_in_a_taken_case()
    assert await send(reply) == []  # still queued: the courier has not claimed it
    being_sent(reply)
    assert await send(reply, sender="telegram-" + "f" * 40) == []
    assert await send(reply + 1000) == []
    assert await send(reply, entities=None) == []  # no id at all
    with db.session_scope() as session:
        session.execute(update(CaseReply).values(delivered_at=NOW))
    assert await send(reply) == []  # delivered already: never twice


async def test_on_whatsapp_after_a_day_of_silence_the_reply_is_a_template(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WHATSAPP_CASE_REPLY_TEMPLATE", "caseworker_reply_v2")
    sender = "whatsapp-0123456789abcdef0123456789abcdef01234567"
    reply = reply_in_a_taken_case(sender=sender)
    being_sent(reply)
    [message] = await send(
        reply, sender=sender, channel="whatsapp", language="prs", events=[wrote(hours_ago=25)]
    )
    template = message["custom"]["whatsapp_template"]
    assert template == {
        "name": "caseworker_reply_v2",
        "language": "fa",
        # The finished text; the channel flattens it (tests/channels/test_alerts.py).
        "parameters": ["پیام کارمند شما:\nسلام، من فریده هستم."],
    }
    assert message["custom"]["case_reply"] == reply
    [inside] = await send(reply, sender=sender, channel="whatsapp", events=[wrote(hours_ago=23)])
    assert "whatsapp_template" not in inside["custom"] and inside["text"]


def wrote(hours_ago: float) -> dict[str, Any]:
    """The person's own last message (the trigger itself is not theirs)."""
    return {
        "event": "user",
        "text": "ویزه ام رد شد",
        "timestamp": (NOW - timedelta(hours=hours_ago)).timestamp(),
        "input_channel": "whatsapp",
        "parse_data": {"intent": {"name": "nlu_fallback", "confidence": 0.2}},
    }


def courier(max_attempts: int = 2) -> CaseReplyOutbox:
    return CaseReplyOutbox(NotifierSettings(max_attempts=max_attempts), clock=lambda: NOW)


def test_a_reply_with_no_address_left_fails_at_once_and_is_shown_so() -> None:
    reply = reply_in_a_taken_case()
    outbox = courier()
    [claimed] = outbox.claim("telegram", 10)
    assert claimed.id == reply
    assert outbox.still_to_send(claimed) is False  # no sealed address: nothing to trigger
    assert status_of(reply) == (DeliveryStatus.FAILED, "no stored address")
    with db.session_scope() as session:
        case_id = session.scalar(select(CaseReply.case_id))
        view = queue.case_for(session, int(case_id or 0), "farida", NOW)
    assert view is not None and view.lines[-1].delivery == "reply_not_delivered"


def test_a_provider_refusal_is_retried_then_failed_and_shown() -> None:
    seal_address()
    reply = reply_in_a_taken_case()
    outbox = courier(max_attempts=2)
    refused = Outcome(False, "Rasa HTTP 500, provider HTTP 403")
    [claimed] = outbox.claim("telegram", 10)
    assert outbox.still_to_send(claimed)
    assert outbox.settle(claimed, refused) is DeliveryStatus.QUEUED  # tried again later
    with db.session_scope() as session:
        session.execute(update(CaseReply).values(next_attempt_at=NOW))
    [claimed] = outbox.claim("telegram", 10)
    assert outbox.still_to_send(claimed)
    assert outbox.settle(claimed, refused) is DeliveryStatus.FAILED
    assert status_of(reply) == (DeliveryStatus.FAILED, "Rasa HTTP 500, provider HTTP 403")
    assert queue.DELIVERY_SHOWN[DeliveryStatus.FAILED] == "reply_not_delivered"


def test_a_delivered_reply_is_sent_and_not_claimed_again() -> None:
    seal_address()
    reply = reply_in_a_taken_case()
    outbox = courier()
    [claimed] = outbox.claim("telegram", 10)
    assert outbox.still_to_send(claimed)
    with db.session_scope() as session:  # what Rasa's channel records (deliveries.py)
        session.execute(update(CaseReply).values(rendered_at=NOW, delivered_at=NOW))
    assert outbox.settle(claimed, Outcome(True)) is DeliveryStatus.SENT
    assert outbox.claim("telegram", 10) == []
    assert status_of(reply)[0] is DeliveryStatus.SENT


def test_each_reply_keeps_the_address_for_the_retention_period() -> None:
    seal_address(until=NOW + timedelta(days=1))
    reply_in_a_taken_case()
    assert address_expiry() == NOW + RETENTION


def test_closing_keeps_the_address_only_for_replies_on_their_way_or_the_subscriptions() -> None:
    seal_address()
    reply_in_a_taken_case()
    with db.session_scope() as session:
        case_id = int(session.scalar(select(Case.id)) or 0)
        assert queue.close(session, case_id, "farida", NOW)
    assert address_expiry() == NOW + replies.CLOSED_ADDRESS_GRACE

    other = "telegram-" + "a" * 40
    seal_address(other, until=NOW + RETENTION)
    with db.session_scope() as session:
        subscriptions.subscribe(
            session, other, "telegram", [Wish(Topic.AIRPORT, "KBL")], "prs", NOW, timedelta(days=3)
        )
    reply_in_a_taken_case(sender=other)
    with db.session_scope() as session:
        case_id = int(session.scalar(select(Case.id).where(Case.conversation_id == other)) or 0)
        queue.close(session, case_id, "farida", NOW)
    assert address_expiry(other) == NOW + timedelta(days=3)  # what the alerts still need


async def test_stop_during_a_case_keeps_the_address_for_the_caseworker() -> None:
    seal_address()
    reply_in_a_taken_case()
    with db.session_scope() as session:
        subscriptions.subscribe(
            session, PERSON, "telegram", [Wish(Topic.AIRPORT, "KBL")], "prs", NOW, timedelta(1)
        )
    stop = conversation(sender=PERSON, intent="unsubscribe_alerts", text="stop")
    messages, _ = await run(ActionUnsubscribeAlerts(clock()), stop)
    assert [m["response"] for m in messages] == ["utter_alerts_unsubscribed_case"]
    with db.session_scope() as session:
        assert subscriptions.current(session, PERSON, NOW) == []
    assert address_expiry() is not None
    with db.session_scope() as session:  # without a case, STOP takes it away as before
        session.execute(delete(CaseReply))
        session.execute(delete(CaseMessage))
        session.execute(delete(Case))
    await run(ActionUnsubscribeAlerts(clock()), stop)
    assert address_expiry() is None


def test_delete_my_data_removes_the_sealed_address_the_replies_and_the_case() -> None:
    seal_address()
    reply_in_a_taken_case()
    privacy.forget_conversation(PERSON, NOW)
    assert address_expiry() is None
    with db.session_scope() as session:
        for table in (Case, CaseMessage, CaseReply):
            assert session.scalars(select(table)).all() == []


def test_retention_takes_the_replies_with_their_case() -> None:
    seal_address()
    reply_in_a_taken_case()
    with db.session_scope() as session:
        purged = retention.purge(session, NOW + RETENTION + timedelta(hours=1), RETENTION)
    assert purged.cases == 1 and purged.addresses == 1  # the address expired with the case
    with db.session_scope() as session:
        assert session.scalars(select(CaseReply)).all() == []
