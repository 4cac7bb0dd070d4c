""" "Stop" the provider's way: a person their provider refused for good (blocked the bot, not on
WhatsApp, texted STOP) loses every subscription at once, as a typed STOP ends them, nothing of
theirs is retried, and their caseworker reads that they can no longer be reached. A failure the
provider reports later is retried only when another try can pass."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import Engine, delete, select, update

from actions import publishing
from actions.alerts import subscriptions
from actions.alerts.models import Delivery, DeliveryStatus, StoredAddress, Topic
from actions.alerts.notifier_settings import NotifierSettings
from actions.alerts.outbox_steps import AlertOutbox
from actions.alerts.subscriptions import Wish
from actions.cases import queue
from actions.cases.models import Author, Case, CaseAudit, CaseMessage, CaseReply, CaseStatus
from actions.common.rasa_api import Outcome, refusal
from actions.content import db
from kernel.contract import NotDelivered
from tests.actions.alerts_support import add_subscribers, deliveries
from tests.actions.console_support import invitation, visible
from tests.actions.content_support import NOW
from tests.actions.test_case_replies import PERSON, courier, reply_in_a_taken_case, seal_address
from tests.actions.test_console_cases import browser_for, sign_in_as

pytestmark = pytest.mark.usefixtures("no_alert_subscribers")


def blocked() -> Outcome:
    """Rasa's answer when Telegram said "Forbidden: bot was blocked by the user"."""
    answer = NotDelivered(
        "telegram: provider refused the alert: HTTP 403", permanent=True, provider_status=403
    )
    return refusal(500, json.dumps(answer.body()))


def no_address() -> Outcome:
    """Rasa's answer when no sealed address was left: our doing, not the person's."""
    return refusal(500, json.dumps(NotDelivered("telegram: no stored address", True).body()))


@pytest.fixture(autouse=True)
def no_cases(content_db: Engine) -> Engine:
    with db.session_scope() as session:
        for table in (CaseAudit, CaseReply, CaseMessage, Case, StoredAddress):
            session.execute(delete(table))
    return content_db


def subscribe(conversation_id: str = PERSON) -> None:
    with db.session_scope() as session:
        subscriptions.subscribe(
            session,
            conversation_id,
            "telegram",
            [Wish(Topic.AIRPORT, "KBL"), Wish(Topic.ANNOUNCEMENTS)],
            "prs",
            NOW,
            timedelta(days=30),
        )


def subscribed(conversation_id: str = PERSON) -> int:
    with db.session_scope() as session:
        return len(subscriptions.current(session, conversation_id, NOW))


def case_view() -> queue.CaseView:
    with db.session_scope() as session:
        case_id = int(session.scalar(select(Case.id)) or 0)
        view = queue.case_for(session, case_id, "farida", NOW)
    assert view is not None
    return view


def test_a_person_who_blocked_the_bot_loses_every_subscription_and_the_case_says_so() -> None:
    seal_address()
    subscribe()
    reply = reply_in_a_taken_case()
    outbox = courier(max_attempts=5)
    [claimed] = outbox.claim("telegram", 10)
    assert outbox.still_to_send(claimed)

    assert outbox.settle(claimed, blocked()) is DeliveryStatus.FAILED  # never retried

    assert subscribed() == 0
    with db.session_scope() as session:
        status = session.scalar(select(CaseReply.status).where(CaseReply.id == reply))
    assert status is DeliveryStatus.FAILED
    view = case_view()
    assert view.unreachable
    assert (view.lines[-1].delivery, view.lines[-1].reason) == (
        "reply_not_delivered",
        "undelivered_refused",
    )


def test_writing_again_shows_the_person_can_be_reached_again() -> None:
    seal_address()
    reply_in_a_taken_case()
    outbox = courier()
    [claimed] = outbox.claim("telegram", 10)
    assert outbox.still_to_send(claimed)
    outbox.settle(claimed, blocked())
    with db.session_scope() as session:
        case_id = int(session.scalar(select(Case.id)) or 0)
        session.add(
            CaseMessage(
                case_id=case_id,
                author=Author.PERSON,
                text="بلاک را برداشتم",
                written_at=NOW + timedelta(minutes=1),
            )
        )
    assert not case_view().unreachable


def test_no_stored_address_is_ours_not_the_persons_refusal() -> None:
    seal_address()
    subscribe()
    reply_in_a_taken_case()
    outbox = courier()
    [claimed] = outbox.claim("telegram", 10)
    assert outbox.still_to_send(claimed)

    assert outbox.settle(claimed, no_address()) is DeliveryStatus.FAILED

    assert subscribed() == 2
    assert not case_view().unreachable


def reported(reply: int, code: str, attempts: int = 1) -> None:
    """What Rasa's channel wrote: sent, then the provider's failure status."""
    with db.session_scope() as session:
        session.execute(
            update(CaseReply)
            .where(CaseReply.id == reply)
            .values(
                status=DeliveryStatus.SENT,
                attempts=attempts,
                rendered_at=NOW,
                delivered_at=NOW,
                finished_at=NOW,
                provider_message_id="wamid.HBgLOTM3MDAwMDAyMDEVAgARGBI",
                provider_status="failed",
                provider_error=code,
                status_at=NOW,
            )
        )


def test_not_on_whatsapp_reported_later_ends_subscriptions_and_is_shown() -> None:
    seal_address()
    subscribe()
    reply = reply_in_a_taken_case()
    reported(reply, "131026")
    assert case_view().lines[-1].delivery == "reply_failed"  # before the notifier acts on it

    assert courier().reconcile() == 1

    assert subscribed() == 0
    view = case_view()
    assert view.unreachable
    assert (view.lines[-1].delivery, view.lines[-1].reason) == (
        "reply_not_delivered",
        "provider_not_on_whatsapp",
    )
    assert courier().reconcile() == 0  # acted on once


def test_a_phone_switched_off_is_tried_again_within_the_attempts() -> None:
    seal_address()
    subscribe()
    reply = reply_in_a_taken_case()
    reported(reply, "30003")

    assert courier(max_attempts=3).reconcile() == 1

    with db.session_scope() as session:
        row = session.get(CaseReply, reply)
        assert row is not None
        assert row.status is DeliveryStatus.QUEUED and row.delivered_at is None
        assert row.provider_message_id is None
    assert subscribed() == 2
    assert (case_view().lines[-1].delivery, case_view().lines[-1].reason) == (
        "reply_retrying",
        "provider_phone_off",
    )

    reported(reply, "30003", attempts=3)
    courier(max_attempts=3).reconcile()
    with db.session_scope() as session:
        assert session.scalar(select(CaseReply.status)) is DeliveryStatus.FAILED


def close_airport() -> None:
    with db.session_scope() as session:
        publishing.publish(
            session, "amina", "airport", "KBL",
            {"state": "closed", "advice": {"en": "Closed.", "prs": "بسته است.", "ps": "تړلی دی."}},
            "n", now=NOW + timedelta(minutes=5), close_gates=True, confirm_unchanged=True,
        )  # fmt: skip


def test_the_alert_path_retries_only_what_can_succeed() -> None:
    stopped, off = add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")], channel="twilio_sms")
    close_airport()
    codes = {stopped: "21610", off: "30003"}
    with db.session_scope() as session:
        for delivery in session.scalars(select(Delivery)):
            delivery.status = DeliveryStatus.SENT
            delivery.attempts = 1
            delivery.delivered_at = delivery.finished_at = NOW
            delivery.provider_message_id = f"SM{delivery.id:032d}"
            delivery.provider_status = "failed"
            delivery.provider_error = codes[delivery.conversation_id]

    AlertOutbox(NotifierSettings(max_attempts=3), clock=lambda: NOW).reconcile()

    by_person = {d.conversation_id: d for d in deliveries()}
    assert by_person[stopped].status is DeliveryStatus.FAILED  # texted STOP: never again
    assert by_person[off].status is DeliveryStatus.QUEUED  # phone off: once more
    with db.session_scope() as session:
        assert subscriptions.current(session, stopped, NOW) == []
        assert len(subscriptions.current(session, off, NOW)) == 1


async def test_the_caseworker_reads_that_the_person_can_no_longer_be_reached(
    no_cases: Engine,
) -> None:
    seal_address()
    reply = reply_in_a_taken_case()
    reported(reply, "131026")
    courier().reconcile()
    with db.session_scope() as session:
        case_id = int(session.scalar(select(Case.id)) or 0)

    async with await browser_for(no_cases) as client:
        await sign_in_as(client, invitation(no_cases, "farida", NOW, "caseworker"))
        page = visible(await (await client.get(f"/console/cases/{case_id}")).text())

    assert "This person can no longer be reached" in page
    assert "A reply would not reach this person now." in page  # in the reply box
    assert "not delivered: not on WhatsApp" in page


def test_a_closed_case_no_longer_warns() -> None:
    seal_address()
    reply = reply_in_a_taken_case()
    reported(reply, "131026")
    courier().reconcile()
    with db.session_scope() as session:
        case = session.scalar(select(Case))
        assert case is not None and case.unreachable_at == NOW
        case.status = CaseStatus.CLOSED
    assert not case_view().unreachable
