"""Those who asked about a rumour and wanted to be told get the verdict once, in the language
they asked in, through the alerts' outbox — not after 72 hours, not after STOP or "delete my
data", and not again when the claim is published a second time."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import pytest
from rasa_sdk.executor import CollectingDispatcher
from sqlalchemy import select, update

from actions import publishing
from actions.alerts import subscriptions
from actions.alerts.models import Broadcast, Delivery, DeliveryStatus, Topic
from actions.alerts.outbox_steps import AlertOutbox
from actions.chat.alert_delivery import ActionSendAlert
from actions.claims import asked, askers
from actions.content import db
from actions.content.asks import AskAbout
from actions.content.models import Claim
from actions.notifier import retention
from actions.notifier.loop import Notifier
from actions.settings import RasaSettings
from kernel.sms_render import for_basic_phones
from kernel.sms_segments import segment_count
from tests.actions.alerts_support import conversation, deliveries, sealed_address
from tests.actions.claims_support import GATES, ask, asks, no_asks, person
from tests.actions.content_support import NOW, clock
from tests.actions.test_alerts_notifier import FAST, FakeRasa, moving, rasa, run_until_settled
from tests.actions.test_claims_kind import RUMOUR

__all__ = ["no_asks", "rasa"]

pytestmark = pytest.mark.usefixtures("no_asks")

SLUG = "canada-takes-everyone"
LATER = NOW + timedelta(hours=2)
DARI = person("telegram", 1)
PASHTO = person("sms_gateway", 2)
LONG_EXPLANATION = {
    "en": RUMOUR["explanation"]["en"] + " Do not pay anyone who says they can add you." * 4,
    "prs": RUMOUR["explanation"]["prs"] + " به کسی که می‌گوید نام شما را اضافه می‌کند پول ندهید." * 4,
    "ps": RUMOUR["explanation"]["ps"] + " هغه چا ته پیسې مه ورکوئ چې وايي ستاسو نوم ور زیاتوي." * 4,
}


def publish(changes: dict[str, Any], now: datetime = LATER) -> int:
    with db.session_scope() as session:
        revision = publishing.publish(session, "amina", "claim", SLUG, changes, "n", now=now)
        assert revision is not None
        return revision.record_id


def link_and_tell(now: datetime = LATER) -> None:
    """What the console does when a verdict is published from the rumour's group."""
    with db.session_scope() as session:
        claim_id = session.scalar(select(Claim.id).where(Claim.slug == SLUG))
        assert claim_id is not None
        asked.link_group(session, AskAbout.CLAIM, GATES, claim_id)
        askers.tell_linked(session, claim_id, now)


async def written(delivery: Delivery) -> list[dict[str, Any]]:
    """What action_send_alert writes for the delivery, as the notifier's trigger runs it."""
    with db.session_scope() as session:
        session.execute(
            update(Delivery).where(Delivery.id == delivery.id).values(status=DeliveryStatus.SENDING)
        )
    tracker = conversation(
        delivery.conversation_id,
        channel=delivery.channel,
        language=None,
        intent="EXTERNAL_alert",
        entities={"alert_delivery": str(delivery.id)},
    )
    dispatcher = CollectingDispatcher()
    await ActionSendAlert(clock(timedelta(hours=2, minutes=1))).run(dispatcher, tracker, {})
    return dispatcher.messages


def two_ask() -> None:
    ask(DARI, "kanada hama ra ba tazkira mebara?", language="prs")
    ask(PASHTO, "کاناډا ټول په تذکره وړي؟", language="ps", channel="sms_gateway")


async def test_each_asker_is_told_once_in_the_language_they_asked_in() -> None:
    two_ask()
    publish({**RUMOUR, "explanation": LONG_EXPLANATION})
    link_and_tell()

    by_person = {d.conversation_id: d for d in deliveries()}
    assert set(by_person) == {DARI, PASHTO}
    with db.session_scope() as session:
        (broadcast,) = session.scalars(select(Broadcast))
        assert (broadcast.topic, broadcast.editor) == (Topic.CLAIMS, "amina")
    assert all(row.told_at == LATER for row in asks())

    (dari,) = await written(by_person[DARI])
    assert dari["text"].startswith("جوابی که خواسته بودید:")
    assert "کانادا هر کسی را که تذکره دارد می‌برد" in dari["text"] and "نادرست" in dari["text"]
    assert LONG_EXPLANATION["prs"] in dari["text"]  # a chat message is not cut
    # How the embassy the fake list names really reaches people, from its contacts record.
    assert "+93 700 000 131" in dari["text"] and "us-evacuation@example.org" in dari["text"]
    assert dari["metadata"] == {"language": "prs"}

    (pashto,) = await written(by_person[PASHTO])
    text = pashto["text"]
    assert text.startswith("هغه ځواب چې غوښتی مو و:")
    assert "کاناډا هر هغه څوک وړي چې تذکره لري" in text and "ناسم" in text
    assert "US Embassy" in text or "سفارت" in text  # who checked it stays
    assert segment_count(for_basic_phones(text)) <= 3  # whole in three SMS, explanation cut
    assert "…" in text
    assert "+93 700 000 131" in text  # the number is kept before the rest of the explanation


async def test_the_notifier_brings_the_verdict_to_askers_who_subscribe_to_nothing(
    rasa: tuple[FakeRasa, str],
) -> None:
    fake, url = rasa
    two_ask()
    with db.session_scope() as session:  # as the channel keeps it when they accept the offer
        for asker, channel in ((DARI, "telegram"), (PASHTO, "sms_gateway")):
            session.add(sealed_address(asker, channel, NOW, timedelta(hours=72)))
    publish(RUMOUR)
    link_and_tell()

    settings = replace(FAST, rasa=RasaSettings(url))
    sending = moving(timedelta(hours=2, minutes=1))
    await run_until_settled(Notifier(settings, AlertOutbox(settings, sending)))

    told = {conversation: text for conversation, text, _ in fake.sent}
    assert sorted(told) == sorted([DARI, PASHTO]) and len(fake.sent) == 2
    assert "نادرست" in told[DARI] and "ناسم" in told[PASHTO]
    assert {d.status for d in deliveries()} == {DeliveryStatus.SENT}


async def test_a_second_publish_does_not_tell_again() -> None:
    two_ask()
    publish(RUMOUR)
    link_and_tell()
    assert len(deliveries()) == 2
    publish({"verdict": "misleading"}, now=LATER + timedelta(minutes=5))
    link_and_tell(now=LATER + timedelta(minutes=5))
    assert len(deliveries()) == 2


async def test_an_ask_linked_to_a_published_claim_is_told_when_it_is_published_again() -> None:
    claim_id = publish({**RUMOUR, "verdict": "being_checked"})
    ask(DARI, "kanada hama ra mebara?", claim_id=claim_id)
    assert deliveries() == []
    link_and_tell()
    assert deliveries() == []  # "being checked" is not what they wait for
    publish({"verdict": "false"}, now=LATER + timedelta(minutes=5))
    assert [d.conversation_id for d in deliveries()] == [DARI]


def test_nobody_is_told_after_72_hours_nor_on_the_web_chat() -> None:
    ask(DARI, "kanada?", asked_at=LATER - timedelta(hours=73))
    ask(person("socketio", 3), "kanada?", channel="socketio")
    ask(person("telegram", 4), "kanada?", wants_answer=False)
    publish(RUMOUR)
    link_and_tell()
    assert deliveries() == []
    assert all(row.told_at is None for row in asks())


async def test_stop_ends_the_wish_and_a_queued_verdict() -> None:
    two_ask()
    with db.session_scope() as session:
        subscriptions.unsubscribe(session, DARI, NOW + timedelta(minutes=30))
    publish(RUMOUR)
    link_and_tell()
    assert [d.conversation_id for d in deliveries()] == [PASHTO]

    with db.session_scope() as session:  # STOP after it was queued, before it went out
        subscriptions.unsubscribe(session, PASHTO, LATER)
    (cancelled,) = deliveries()
    assert cancelled.status is DeliveryStatus.CANCELLED
    assert await written(cancelled) == []


async def test_delete_my_data_deletes_the_ask_and_the_verdict_is_not_written() -> None:
    two_ask()
    publish(RUMOUR)
    link_and_tell()
    by_person = {d.conversation_id: d for d in deliveries()}
    with db.session_scope() as session:
        # Left in the outbox, as a delivery another notifier claimed a moment before.
        subscriptions.forget(session, [DARI])
    assert {row.conversation_id for row in asks()} == {PASHTO}
    with db.session_scope() as session:
        session.add(Delivery(**_copy(by_person[PASHTO], DARI)))
    kept = {d.conversation_id: d for d in deliveries()}[DARI]
    assert await written(kept) == []
    assert {d.conversation_id: d for d in deliveries()}[DARI].status is DeliveryStatus.CANCELLED


def _copy(delivery: Delivery, conversation_id: str) -> dict[str, Any]:
    return {
        "broadcast_id": delivery.broadcast_id,
        "conversation_id": conversation_id,
        "channel": "telegram",
        "status": DeliveryStatus.QUEUED,
        "attempts": 0,
        "next_attempt_at": LATER,
    }


def test_the_purge_ends_old_wishes_and_deletes_old_asks() -> None:
    ask(DARI, "kanada?", asked_at=NOW)
    ask(PASHTO, "کاناډا؟", asked_at=NOW - timedelta(days=40), wants_answer=False)
    with db.session_scope() as session:
        purged = retention.purge(session, NOW + timedelta(hours=73), timedelta(days=30))
    assert purged.claim_asks == 1
    (kept,) = asks()
    assert (kept.conversation_id, kept.wants_answer, kept.answer_by) == (DARI, False, None)
