"""The notifier against a stand-in for Rasa's HTTP API that runs the real ``action_send_alert``.

What is checked is what a subscriber would notice: every alert arrives once, in their language,
never faster than the channel allows, not after they opted out, and not twice after a crash.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

import pytest
from aiohttp import ClientSession, web
from prometheus_client import REGISTRY
from rasa_sdk.executor import CollectingDispatcher
from sqlalchemy import update

from actions import publishing
from actions.alerts import subscriptions
from actions.alerts.models import Delivery, DeliveryStatus, Topic
from actions.alerts.notifier_settings import NotifierSettings
from actions.alerts.outbox_steps import AlertOutbox
from actions.alerts.subscriptions import Wish
from actions.chat.alert_delivery import ActionSendAlert
from actions.common.metrics_http import serve_metrics
from actions.common.rasa_api import Outcome, refusal
from actions.content import db
from actions.notifier.loop import Notifier
from actions.settings import RasaSettings, SettingsError
from kernel.contract import NotDelivered
from tests.actions.alerts_support import (
    add_subscribers,
    conversation,
    deliveries,
)
from tests.actions.content_support import NOW

LATER = NOW + timedelta(minutes=5)
ADVICE = {"en": "Closed: do not come.", "prs": "بسته است: نیایید.", "ps": "تړلی دی: مه راځئ."}
FAST = NotifierSettings(
    rates={"telegram": 50.0, "whatsapp": 50.0, "twilio_sms": 50.0, "sms_gateway": 50.0},
    backoff_seconds=0.2,
    claim_lease_seconds=3.0,
    poll_seconds=0.05,
    per_conversation_interval=1.0,
)


def channel_claims(delivery: int) -> bool:
    """What Rasa's alert channel does right before sending (bot/channels/deliveries.py)."""
    with db.session_scope() as session:
        claimed = session.execute(
            update(Delivery)
            .where(
                Delivery.id == delivery,
                Delivery.status == DeliveryStatus.SENDING,
                Delivery.rendered_at.is_(None),
            )
            .values(rendered_at=NOW)
        )
        return bool(getattr(claimed, "rowcount", 0))


def channel_settles(delivery: int, delivered: bool) -> None:
    values: dict[str, Any] = {"delivered_at": NOW} if delivered else {"rendered_at": None}
    with db.session_scope() as session:
        session.execute(update(Delivery).where(Delivery.id == delivery).values(**values))


@dataclass
class FakeRasa:
    """Answers trigger_intent like Rasa: runs the action, then does what the alert channel does
    (claim, send, record) — or refuses like a provider that said 429."""

    sent: list[tuple[str, str, float]] = field(default_factory=list)  # (conversation, text, t)
    triggered: list[int] = field(default_factory=list)
    #: Called with each delivery id before the channel sends; may return (status, body).
    fail: Callable[[int], tuple[int, str] | None] = lambda _: None
    action: ActionSendAlert = field(
        default_factory=lambda: ActionSendAlert(moving(timedelta(minutes=6)))
    )

    async def run_alert(self, conversation_id: str, channel: str, delivery: int) -> list[str]:
        tracker = conversation(
            conversation_id,
            channel=channel,
            language=None,
            intent="EXTERNAL_alert",
            entities={"alert_delivery": str(delivery)},
            text="",
        )
        dispatcher = CollectingDispatcher()
        await self.action.run(dispatcher, tracker, {})
        texts = []
        for message in dispatcher.messages:
            assert message["custom"]["alert_delivery"] == delivery
            template = message["custom"].get("whatsapp_template")
            texts.append(template["parameters"][0] if template else message["text"])
        return texts

    async def trigger(self, request: web.Request) -> web.Response:
        conversation_id = request.match_info["conversation_id"]
        body = await request.json()
        delivery = int(body["entities"]["alert_delivery"])
        self.triggered.append(delivery)
        arrived = time.monotonic()
        texts = await self.run_alert(conversation_id, request.query["output_channel"], delivery)
        # The database work runs off the loop, as the real channel's does: done on it, it would
        # hold back the notifier's next requests and make them arrive bunched.
        for text in texts:
            if not await asyncio.to_thread(channel_claims, delivery):
                continue
            failure = self.fail(delivery)
            if failure is not None:
                await asyncio.to_thread(channel_settles, delivery, False)
                return web.Response(status=failure[0], text=failure[1])
            self.sent.append((conversation_id, text, arrived))
            await asyncio.to_thread(channel_settles, delivery, True)
        return web.json_response({"tracker": None})


@pytest.fixture
async def rasa(unused_tcp_port: int) -> AsyncIterator[tuple[FakeRasa, str]]:
    fake = FakeRasa()
    app = web.Application()
    app.router.add_post("/conversations/{conversation_id}/trigger_intent", fake.trigger)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", unused_tcp_port).start()
    yield fake, f"http://127.0.0.1:{unused_tcp_port}"
    await runner.cleanup()


pytestmark = pytest.mark.usefixtures("no_alert_subscribers")


def moving(offset: timedelta) -> Callable[[], Any]:
    """A clock that starts at NOW + ``offset`` and runs: backoff and leases need time to pass."""
    started = time.monotonic()
    return lambda: NOW + offset + timedelta(seconds=time.monotonic() - started)


def close_airport(when: Any = LATER) -> None:
    with db.session_scope() as session:
        publishing.publish(
            session, "amina", "airport", "KBL", {"state": "closed", "advice": ADVICE}, "n",
            now=when, close_gates=True,
        )  # fmt: skip


async def run_until_settled(notifier: Notifier, timeout: float = 20.0) -> None:
    """Run the notifier until no delivery is queued or being sent."""
    task = asyncio.create_task(notifier.run())
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            pending = [
                d
                for d in deliveries()
                if d.status in (DeliveryStatus.QUEUED, DeliveryStatus.SENDING)
            ]
            if not pending:
                return
        raise AssertionError(f"not settled in {timeout} s: {[d.status for d in deliveries()]}")
    finally:
        notifier.stop()
        await task


def notifier_for(url: str, settings: NotifierSettings = FAST) -> Notifier:
    settings = replace(settings, rasa=RasaSettings(url))
    return Notifier(settings, AlertOutbox(settings, moving(timedelta(minutes=6))))


async def test_every_subscriber_gets_the_alert_once_in_their_language(
    rasa: tuple[FakeRasa, str],
) -> None:
    fake, url = rasa
    dari = add_subscribers(3, [Wish(Topic.AIRPORT, "KBL")], language="prs")
    pashto = add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")], channel="sms_gateway", language="ps")
    close_airport()

    await run_until_settled(notifier_for(url))

    assert sorted(c for c, _, _ in fake.sent) == sorted(dari + pashto)
    texts = {c: text for c, text, _ in fake.sent}
    assert all("بسته" in texts[c] for c in dari)  # Dari "closed"
    assert all("تړلی" in texts[c] for c in pashto)  # Pashto "closed"
    assert {d.status for d in deliveries()} == {DeliveryStatus.SENT}


@pytest.mark.serial
async def test_the_channel_rate_is_never_exceeded(rasa: tuple[FakeRasa, str]) -> None:
    fake, url = rasa
    add_subscribers(45, [Wish(Topic.AIRPORT, "KBL")])
    close_airport()
    settings = replace(FAST, rates={**FAST.rates, "telegram": 15.0})

    await run_until_settled(notifier_for(url, settings))

    times = sorted(t for _, _, t in fake.sent)
    assert len(times) == 45
    # Evenly paced: no second holds more than 15 (+1 for where the window starts).
    assert max(sum(1 for t in times if start <= t < start + 1.0) for start in times) <= 16
    assert times[-1] - times[0] >= 44 / 15 - 0.1


async def test_one_conversation_gets_at_most_one_alert_a_second(rasa: tuple[FakeRasa, str]) -> None:
    fake, url = rasa
    (person,) = add_subscribers(1, [Wish(Topic.AIRPORT, "KBL"), Wish(Topic.ANNOUNCEMENTS)])
    close_airport()
    with db.session_scope() as session:
        publishing.publish(
            session,
            "amina",
            "announcement",
            "taliban-amnesty-2021-08-17",
            {"verification": "disputed"},
            "n",
            now=LATER,
        )

    await run_until_settled(notifier_for(url))

    times = [t for c, _, t in fake.sent if c == person]
    assert len(times) == 2 and times[1] - times[0] >= 0.9


@pytest.mark.serial
async def test_a_broadcast_longer_than_the_lease_is_claimed_once_per_person(
    rasa: tuple[FakeRasa, str], caplog: pytest.LogCaptureFixture
) -> None:
    """20 people at 5 a second take 4 s, the lease is 1.5 s: nothing claimed may wait for the
    pacer past its lease, or it is taken back as if a notifier had died (and the operator's
    log says one did) and claimed a second time."""
    fake, url = rasa
    people = add_subscribers(20, [Wish(Topic.AIRPORT, "KBL")])
    close_airport()
    slow = replace(FAST, rates={**FAST.rates, "telegram": 5.0}, claim_lease_seconds=1.5)

    with caplog.at_level(logging.INFO, logger="actions.alerts"):
        await run_until_settled(notifier_for(url, slow))

    assert sorted(c for c, _, _ in fake.sent) == sorted(people)
    assert len(fake.triggered) == 20
    assert {(d.status, d.attempts) for d in deliveries()} == {(DeliveryStatus.SENT, 1)}
    assert "recovered" not in caplog.text


async def test_opting_out_mid_broadcast_stops_the_rest_at_once(rasa: tuple[FakeRasa, str]) -> None:
    fake, url = rasa
    people = add_subscribers(20, [Wish(Topic.AIRPORT, "KBL")])
    leaver = people[-1]
    close_airport()

    def opt_out_during_the_broadcast(delivery: int) -> None:
        if len(fake.triggered) == 3:
            with db.session_scope() as session:
                subscriptions.unsubscribe(session, leaver, NOW + timedelta(minutes=6))
        return None

    fake.fail = opt_out_during_the_broadcast  # type: ignore[assignment]
    await run_until_settled(notifier_for(url, replace(FAST, rates={**FAST.rates, "telegram": 5.0})))

    assert leaver not in {c for c, _, _ in fake.sent}
    assert len(fake.sent) == 19, [(d.status, d.last_error, d.attempts) for d in deliveries()]
    (left,) = [d for d in deliveries() if d.conversation_id == leaver]
    assert left.status is DeliveryStatus.CANCELLED


async def test_a_refused_alert_is_retried_after_the_providers_delay_and_sent_once(
    rasa: tuple[FakeRasa, str],
) -> None:
    fake, url = rasa
    (person,) = add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")])
    close_airport()
    refused = NotDelivered("telegram: provider refused the alert", False, 1.0, 429)
    refusals = iter([(500, json.dumps(refused.body()))])
    fake.fail = lambda _: next(refusals, None)  # type: ignore[assignment]

    started = time.monotonic()
    await run_until_settled(notifier_for(url))

    assert [c for c, _, _ in fake.sent] == [person]
    assert len(fake.triggered) == 2
    (delivery,) = deliveries()
    assert delivery.status is DeliveryStatus.SENT and delivery.attempts == 2
    assert time.monotonic() - started >= 1.0


async def test_no_stored_address_fails_without_retrying(rasa: tuple[FakeRasa, str]) -> None:
    fake, url = rasa
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")], with_address=False)
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")], channel="whatsapp")
    close_airport()

    await run_until_settled(notifier_for(url))

    failed = [d for d in deliveries() if d.status is DeliveryStatus.FAILED]
    assert len(failed) == 1 and failed[0].last_error == "no stored address"
    assert len(fake.sent) == 1


@pytest.mark.parametrize(
    "gone",
    [
        NotDelivered("telegram: no stored address", permanent=True),  # expired meanwhile
        # The person blocked the bot: Telegram's 403, which the channel reads as for good.
        NotDelivered("telegram: provider refused the alert: HTTP 403", True, None, 403),
    ],
    ids=["no-address", "blocked"],
)
async def test_a_channel_that_gave_up_on_the_person_is_not_retried(
    rasa: tuple[FakeRasa, str], gone: NotDelivered
) -> None:
    fake, url = rasa
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")])
    close_airport()
    fake.fail = lambda _: (500, json.dumps(gone.body()))  # type: ignore[assignment]

    await run_until_settled(notifier_for(url))

    (delivery,) = deliveries()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.FAILED, 1)
    theirs = " (refused by the person)" if gone.person_refused() else ""
    assert delivery.last_error == f"Rasa HTTP 500: {gone.reason}{theirs}"
    assert fake.sent == []
    with db.session_scope() as session:  # their refusal ends every subscription, as STOP does
        left = subscriptions.current(session, delivery.conversation_id, LATER)
    assert len(left) == (0 if gone.person_refused() else 1)


async def test_an_answer_that_is_not_rasas_refusal_is_retried(rasa: tuple[FakeRasa, str]) -> None:
    fake, url = rasa
    (person,) = add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")])
    close_airport()
    page = "<html><body><h1>502 Bad Gateway</h1>" + "no stored address " * 20 + "</body></html>"
    answers = iter([(502, page)])
    fake.fail = lambda _: next(answers, None)  # type: ignore[assignment]

    await run_until_settled(notifier_for(url))

    assert [c for c, _, _ in fake.sent] == [person]
    (delivery,) = deliveries()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENT, 2)
    assert delivery.last_error == f"Rasa HTTP 502: {page[:200]}"[:200]


def test_rasas_refusal_is_read_by_key() -> None:
    later = NotDelivered("whatsapp: provider refused the alert: HTTP 429", False, 30.0, 429)
    assert refusal(500, json.dumps(later.body())) == Outcome(
        False,
        "Rasa HTTP 500: whatsapp: provider refused the alert: HTTP 429",
        retry_after=30.0,
        status=500,
    )
    never = NotDelivered("sms_gateway: no stored address", permanent=True)
    assert refusal(500, json.dumps(never.body())) == Outcome(
        False, "Rasa HTTP 500: sms_gateway: no stored address", permanent=True, status=500
    )


def test_an_answer_in_prose_is_a_failure_to_retry_with_its_start_as_the_reason() -> None:
    # An older Rasa's answer: its "retry after" and "no stored address" are not read.
    prose = (
        '{"version": "3.6.21", "status": "failure", "message": "An unexpected error occurred. '
        'Error: telegram: no stored address, retry after 60 s", "reason": "ConversationError"}'
    )
    outcome = refusal(500, prose * 3)
    assert outcome == Outcome(False, f"Rasa HTTP 500: {(prose * 3)[:200]}", status=500)
    assert refusal(401, "") == Outcome(
        False, "Rasa HTTP 401 (RASA_API_TOKEN does not match Rasa's --auth-token)", status=401
    )


async def test_an_unreachable_rasa_is_retried_then_given_up_visibly(unused_tcp_port: int) -> None:
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")])
    close_airport()
    settings = replace(FAST, max_attempts=3, backoff_seconds=0.05)

    await run_until_settled(notifier_for(f"http://127.0.0.1:{unused_tcp_port}", settings))

    (delivery,) = deliveries()
    assert delivery.status is DeliveryStatus.FAILED and delivery.attempts == 3
    assert delivery.last_error is not None and "Rasa unreachable" in delivery.last_error


async def test_after_a_crash_nothing_is_sent_twice_and_nothing_is_lost(
    rasa: tuple[FakeRasa, str],
) -> None:
    fake, url = rasa
    add_subscribers(10, [Wish(Topic.AIRPORT, "KBL")])
    close_airport()
    settings = replace(FAST, rasa=RasaSettings(url))
    # A notifier claims 6 and dies: 3 of them had been delivered by Rasa (which goes on when
    # the notifier is gone), 2 were written but not yet claimed by the channel, 1 not touched.
    dead = AlertOutbox(settings, moving(timedelta(minutes=6)))
    claimed = dead.claim("telegram", 6)
    for delivery in claimed[:5]:
        (text,) = await fake.run_alert(delivery.conversation_id, "telegram", delivery.id)
        if delivery in claimed[:3]:
            assert channel_claims(delivery.id)
            fake.sent.append((delivery.conversation_id, text, 0.0))
            channel_settles(delivery.id, delivered=True)

    # A new notifier starts after the lease.
    restarted = Notifier(settings, AlertOutbox(settings, moving(timedelta(minutes=7))))
    await run_until_settled(restarted)

    people = [c for c, _, _ in fake.sent]
    assert len(people) == 10 and len(set(people)) == 10
    assert {d.status for d in deliveries()} == {DeliveryStatus.SENT}


def test_settings_come_from_the_environment_and_name_a_wrong_one() -> None:
    settings = NotifierSettings.from_env(
        {"ALERT_RATE_TELEGRAM": "12", "RASA_URL": "http://rasa:5005/", "RASA_API_TOKEN": "t"}
    )
    assert settings.rates["telegram"] == 12 and settings.rates["whatsapp"] == 70
    assert settings.rasa == RasaSettings("http://rasa:5005", "t")
    for name, value in (("ALERT_RATE_WHATSAPP", "fast"), ("ALERT_MAX_ATTEMPTS", "0")):
        with pytest.raises(SettingsError, match=name):
            NotifierSettings.from_env({name: value})


def sends(outcome: str, channel: str = "telegram") -> float:
    """What ``/metrics`` says of the notifier's alerts on ``channel`` that ended in ``outcome``."""
    labels = {"kind": "alert", "channel": channel, "outcome": outcome}
    return REGISTRY.get_sample_value("eia_notifier_sends_total", labels) or 0.0


async def test_metrics_count_a_retry_then_the_alert_sent(rasa: tuple[FakeRasa, str]) -> None:
    fake, url = rasa
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")])
    close_airport()
    refused = NotDelivered("telegram: provider refused the alert", False, 0.2, 429)
    refusals = iter([(500, json.dumps(refused.body()))])
    fake.fail = lambda _: next(refusals, None)  # type: ignore[assignment]
    before = {outcome: sends(outcome) for outcome in ("retry", "sent", "failed")}

    await run_until_settled(notifier_for(url))

    assert sends("retry") - before["retry"] == 1
    assert sends("sent") - before["sent"] == 1
    assert sends("failed") - before["failed"] == 0


async def test_metrics_count_alerts_given_up_on(unused_tcp_port: int) -> None:
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")])
    close_airport()
    settings = replace(FAST, max_attempts=3, backoff_seconds=0.05)
    before = {outcome: sends(outcome) for outcome in ("retry", "sent", "failed")}

    await run_until_settled(notifier_for(f"http://127.0.0.1:{unused_tcp_port}", settings))

    assert sends("retry") - before["retry"] == 2
    assert sends("failed") - before["failed"] == 1
    assert sends("sent") - before["sent"] == 0


async def test_the_notifiers_metrics_server_answers_the_token_only(unused_tcp_port: int) -> None:
    assert await serve_metrics("127.0.0.1", unused_tcp_port, None) is None  # nothing to serve
    runner = await serve_metrics("127.0.0.1", unused_tcp_port, "the-token")
    assert runner is not None
    try:
        # A second notifier on the same port keeps sending alerts, without metrics.
        assert await serve_metrics("127.0.0.1", unused_tcp_port, "the-token") is None
        url = f"http://127.0.0.1:{unused_tcp_port}/metrics"
        async with ClientSession() as session:
            async with session.get(url) as refused:
                assert refused.status == 401
            async with session.get(url, headers={"Authorization": "Bearer nope"}) as wrong:
                assert wrong.status == 401
            headers = {"Authorization": "Bearer the-token"}
            async with session.get(url, headers=headers) as answered:
                assert answered.status == 200
                assert "# TYPE eia_notifier_sends_total counter" in await answered.text()
    finally:
        await runner.cleanup()
