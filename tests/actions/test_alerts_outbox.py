"""Which published change alerts whom: queued in the editor's transaction, at most once each."""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, insert, select

from actions import publishing
from actions.alerts import subscriptions
from actions.alerts.models import (
    EVERYWHERE,
    Broadcast,
    Delivery,
    DeliveryStatus,
    StoredAddress,
    Subscription,
    Topic,
)
from actions.alerts.outbox import latest
from actions.alerts.subscriptions import Wish
from actions.content import db, editing
from actions.content.models import Revision
from actions.content.outgoing import ProviderMessage
from actions.notifier import retention
from tests.actions.alerts_support import add_subscribers, deliveries
from tests.actions.content_support import NOW

LATER = NOW + timedelta(minutes=5)
ADVICE = {
    "en": "Closed: do not come.",
    "prs": "بسته است: نیایید.",
    "ps": "تړلی دی: مه راځئ.",
}


pytestmark = pytest.mark.usefixtures("no_alert_subscribers")


def publish(kind: str, key: str, changes: dict[str, Any], when: Any = LATER) -> Revision | None:
    with db.session_scope() as session:
        return publishing.publish(
            session, "amina", kind, key, changes, "note", now=when,
            close_gates=True, confirm_unchanged=True,
        )  # fmt: skip


def broadcasts() -> list[Broadcast]:
    with db.session_scope() as session:
        return list(session.scalars(select(Broadcast).order_by(Broadcast.id)))


def test_airport_change_queues_one_alert_per_subscriber_in_the_same_transaction() -> None:
    add_subscribers(3, [Wish(Topic.AIRPORT, "KBL")])
    add_subscribers(2, [Wish(Topic.ANNOUNCEMENTS)], channel="whatsapp")

    revision = publish("airport", "KBL", {"state": "closed", "advice": ADVICE})

    assert revision is not None
    (broadcast,) = broadcasts()
    assert (broadcast.topic, broadcast.topic_key, broadcast.revision_id, broadcast.editor) == (
        Topic.AIRPORT,
        "KBL",
        revision.id,
        "amina",
    )
    queued = deliveries()
    assert len(queued) == 3
    assert {d.status for d in queued} == {DeliveryStatus.QUEUED}
    assert {d.channel for d in queued} == {"telegram"}


def test_a_change_that_fails_validation_queues_nothing() -> None:
    add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")])
    with pytest.raises(editing.ContentError):
        publish("airport", "KBL", {"state": "shut"})
    assert broadcasts() == [] and deliveries() == []


def test_re_verifying_alerts_nobody_and_no_subscribers_means_no_broadcast() -> None:
    publish("airport", "KBL", {"state": "closed", "advice": ADVICE})
    assert broadcasts() == []  # nobody subscribed: nothing to keep

    add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")])
    assert publish(
        "airport",
        "KBL",
        {"verified_at": LATER + timedelta(minutes=1)},
        LATER + timedelta(minutes=1),
    )
    assert broadcasts() == []


def test_gate_change_is_airport_news_for_its_airport_only() -> None:
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")])
    add_subscribers(1, [Wish(Topic.AIRPORT, "MZR")], channel="sms_gateway")
    publish("gate", "KBL/east-gate", {"state": "closed"})
    (delivery,) = deliveries()
    assert delivery.channel == "telegram"


def test_flight_change_reaches_its_destination_and_every_destination_subscribers() -> None:
    doha = add_subscribers(2, [Wish(Topic.FLIGHTS, "DOH")])
    everywhere = add_subscribers(1, [Wish(Topic.FLIGHTS, EVERYWHERE)], channel="whatsapp")
    add_subscribers(1, [Wish(Topic.FLIGHTS, "XJD")], channel="sms_gateway")

    publish("flight", "QR8010@2021-08-24", {"status": "cancelled"})

    assert {d.conversation_id for d in deliveries()} == {*doha, *everywhere}
    assert broadcasts()[0].topic_key == "DOH"


def test_both_a_destination_and_every_destination_still_alerts_once() -> None:
    add_subscribers(1, [Wish(Topic.FLIGHTS, "DOH"), Wish(Topic.FLIGHTS, EVERYWHERE)])
    publish("flight", "QR8010@2021-08-24", {"status": "cancelled"})
    assert len(deliveries()) == 1


def test_a_newer_airport_change_supersedes_alerts_not_yet_sent() -> None:
    add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")])
    publish("airport", "KBL", {"state": "closed", "advice": ADVICE})
    publish("airport", "KBL", {"state": "open"}, LATER + timedelta(minutes=1))

    statuses = [(d.broadcast_id, d.status) for d in deliveries()]
    first, second = (b.id for b in broadcasts())
    assert sorted(statuses) == [
        (first, DeliveryStatus.SUPERSEDED),
        (first, DeliveryStatus.SUPERSEDED),
        (second, DeliveryStatus.QUEUED),
        (second, DeliveryStatus.QUEUED),
    ]


def test_every_new_announcement_is_its_own_alert() -> None:
    add_subscribers(1, [Wish(Topic.ANNOUNCEMENTS)])
    for slug in ("us-embassy-gates-2021-08-21", "taliban-amnesty-2021-08-17"):
        publish("announcement", slug, {"verification": "disputed"})
    assert [d.status for d in deliveries()] == [DeliveryStatus.QUEUED] * 2


def test_expired_subscriptions_are_not_alerted() -> None:
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")], now=NOW - timedelta(days=31))
    publish("airport", "KBL", {"state": "closed", "advice": ADVICE})
    assert deliveries() == []


def test_opting_out_cancels_queued_alerts_and_deletes_the_address() -> None:
    (leaver, stayer) = add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")])
    publish("airport", "KBL", {"state": "closed", "advice": ADVICE})

    with db.session_scope() as session:
        assert subscriptions.unsubscribe(session, leaver, LATER) == 1
    with db.session_scope() as session:
        assert session.get(StoredAddress, leaver) is None
        assert session.get(StoredAddress, stayer) is not None
    by_person = {d.conversation_id: d.status for d in deliveries()}
    assert by_person == {leaver: DeliveryStatus.CANCELLED, stayer: DeliveryStatus.QUEUED}


def test_subscribing_again_renews_everything_and_adds_the_new_topic() -> None:
    (person,) = add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")], now=NOW - timedelta(days=20))
    with db.session_scope() as session:
        until = subscriptions.subscribe(
            session, person, "telegram", [Wish(Topic.ANNOUNCEMENTS)], "ps", NOW, timedelta(days=30)
        )
    with db.session_scope() as session:
        rows = subscriptions.current(session, person, NOW)
        address = session.get(StoredAddress, person)
        assert [(r.topic, r.language, r.expires_at) for r in rows] == [
            (Topic.AIRPORT, "ps", until),
            (Topic.ANNOUNCEMENTS, "ps", until),
        ]
        assert address is not None and address.expires_at == until


def test_forgetting_removes_subscriptions_deliveries_and_address() -> None:
    (person, other) = add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")])
    publish("airport", "KBL", {"state": "closed", "advice": ADVICE})
    with db.session_scope() as session:
        # Each alert went out in two parts; a WhatsApp message id holds the person's number.
        for delivery in session.scalars(select(Delivery)):
            session.add(
                ProviderMessage(
                    message_id=f"wamid.{delivery.conversation_id}", alert_delivery_id=delivery.id
                )
            )
    with db.session_scope() as session:
        subscriptions.forget(session, [person])
    with db.session_scope() as session:
        for model in (Subscription, Delivery, StoredAddress):
            column = model.conversation_id  # type: ignore[attr-defined]
            assert session.scalar(select(func.count()).where(column == person)) == 0
            assert session.scalar(select(func.count()).where(column == other)) == 1
        assert session.scalars(select(ProviderMessage.message_id)).all() == [f"wamid.{other}"]


def test_retention_deletes_expired_and_old_and_keeps_the_rest() -> None:
    (old,) = add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")], now=NOW - timedelta(days=31))
    (fresh,) = add_subscribers(1, [Wish(Topic.AIRPORT, "MZR")], channel="whatsapp")
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")], channel="sms_gateway")
    publish("airport", "KBL", {"state": "closed", "advice": ADVICE})
    with db.session_scope() as session:
        delivery = session.scalars(select(Delivery)).one()
        delivery.status, delivery.finished_at = DeliveryStatus.SENT, NOW - timedelta(days=8)

    with db.session_scope() as session:
        purged = retention.purge(session, NOW, timedelta(days=7))

    assert (purged.subscriptions, purged.addresses, purged.deliveries) == (1, 1, 1)
    with db.session_scope() as session:
        assert session.get(StoredAddress, old) is None
        assert session.get(StoredAddress, fresh) is not None
    assert len(broadcasts()) == 1  # who changed what stays; who was told does not


def test_editors_see_progress_by_status() -> None:
    add_subscribers(3, [Wish(Topic.AIRPORT, "KBL")])
    publish("airport", "KBL", {"state": "closed", "advice": ADVICE})
    with db.session_scope() as session:
        first = session.scalars(select(Delivery)).first()
        assert first is not None
        first.status = DeliveryStatus.SENT
    with db.session_scope() as session:
        ((broadcast, counts),) = latest(session)
    assert counts == {"queued": 2, "sent": 1}
    assert broadcast.topic is Topic.AIRPORT


def test_ten_thousand_subscribers_are_queued_in_one_publish() -> None:
    rows = [
        {
            "conversation_id": f"telegram-{number:040x}",
            "channel": "telegram",
            "topic": Topic.AIRPORT,
            "topic_key": "KBL",
            "language": "prs",
            "created_at": NOW,
            "expires_at": NOW + timedelta(days=30),
        }
        for number in range(10_000)
    ]
    with db.session_scope() as session:
        session.execute(insert(Subscription), rows)
    publish("airport", "KBL", {"state": "closed", "advice": ADVICE})
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(Delivery)) == 10_000


def test_a_loaded_content_file_alerts_for_what_it_changes(demo_document: Any) -> None:
    add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")])
    document = copy.deepcopy(demo_document)
    (kabul,) = [status for status in document["airport_statuses"] if status["airport"] == "KBL"]
    kabul["state"] = "open"  # closing it would need its gates closed in the file too
    with db.session_scope() as session:
        summary = publishing.load(session, document, NOW, editor="amina")

    assert summary.changes().startswith("0 created, 1 changed")
    (broadcast,) = broadcasts()
    assert (broadcast.topic, broadcast.topic_key, broadcast.editor) == (
        Topic.AIRPORT,
        "KBL",
        "amina",
    )
    assert broadcast.revision_id == summary.revisions[0]
    assert len(deliveries()) == 2
