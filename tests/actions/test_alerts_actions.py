"""Subscribe, opt out, list, delete my data, and one alert written — as the user sees them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from rasa_sdk.executor import CollectingDispatcher
from sqlalchemy import func, select, update

from actions import publishing
from actions.alerts.models import (
    EVERYWHERE,
    Delivery,
    DeliveryStatus,
    StoredAddress,
    Subscription,
    Topic,
)
from actions.alerts.subscriptions import Wish
from actions.chat.alert_delivery import ActionSendAlert
from actions.chat.privacy import ActionDeleteMyData
from actions.chat.subscriptions import (
    ActionListSubscriptions,
    ActionSubscribeAlerts,
    ActionUnsubscribeAlerts,
)
from actions.content import db
from tests.actions.alerts_support import add_subscribers, conversation, deliveries
from tests.actions.content_support import NOW, clock, render

PERSON = "telegram-0123456789abcdef0123456789abcdef01234567"
ADVICE = {"en": "Closed: do not come.", "prs": "بسته است: نیایید.", "ps": "تړلی دی: مه راځئ."}


pytestmark = pytest.mark.usefixtures("no_alert_subscribers")


async def run(action: Any, tracker: Any) -> list[dict[str, Any]]:
    dispatcher = CollectingDispatcher()
    await action.run(dispatcher, tracker, {})
    return dispatcher.messages


def subscriptions_of(conversation_id: str = PERSON) -> list[tuple[Topic, str, str]]:
    with db.session_scope() as session:
        rows = session.scalars(
            select(Subscription).where(Subscription.conversation_id == conversation_id)
        )
        return sorted((row.topic, row.topic_key, row.language) for row in rows)


@pytest.mark.parametrize(
    ("entities", "expected"),
    [
        ([("alert_topic", "airport")], [(Topic.AIRPORT, "KBL")]),
        ([("airport", "MZR")], [(Topic.AIRPORT, "MZR")]),
        # Doha is served by Hamad International and the Al Udeid air base: both.
        ([("destination", "Doha")], [(Topic.FLIGHTS, "DOH"), (Topic.FLIGHTS, "XJD")]),
        ([("alert_topic", "flights")], [(Topic.FLIGHTS, EVERYWHERE)]),
        ([("destination", "Atlantis")], [(Topic.FLIGHTS, EVERYWHERE)]),
        (
            [("alert_topic", "announcements"), ("alert_topic", "airport")],
            [(Topic.AIRPORT, "KBL"), (Topic.ANNOUNCEMENTS, EVERYWHERE)],
        ),
    ],
)
async def test_subscribing_stores_the_topic_and_confirms_in_the_users_language(
    entities: list[tuple[str, str]], expected: list[tuple[Topic, str]]
) -> None:
    messages = await run(
        ActionSubscribeAlerts(clock()), conversation(PERSON, language="prs", entities=entities)
    )

    assert subscriptions_of() == [(topic, key, "prs") for topic, key in expected]
    remember, confirmation = messages
    # The channel seals the address until the subscription ends; the user never sees this.
    until = NOW + timedelta(days=30)
    assert remember["custom"] == {"remember_address": {"expires_at": until.isoformat()}}
    assert confirmation["response"] == "utter_alerts_subscribed"
    text = render(confirmation, "prs")
    assert "۲۳ سپتمبر ۲۰۲۱" in text or "سپتامبر" in text or "۲۰۲۱" in text
    assert "توقف" in text


async def test_a_subscription_in_pashto_names_the_destination_in_pashto() -> None:
    messages = await run(
        ActionSubscribeAlerts(clock()),
        conversation(PERSON, language="ps", entities={"destination": "Doha"}),
    )
    text = render(messages[-1], "ps")
    assert "الوتنې" in text and "DOH" in text


async def test_without_a_topic_the_user_is_asked_which() -> None:
    messages = await run(ActionSubscribeAlerts(clock()), conversation(PERSON))
    assert [m["response"] for m in messages] == ["utter_ask_alert_topic"]
    assert subscriptions_of() == []


async def test_the_web_chat_cannot_carry_alerts_and_says_so() -> None:
    tracker = conversation("web-1", channel="webchat", entities={"alert_topic": "airport"})
    messages = await run(ActionSubscribeAlerts(clock()), tracker)
    assert [m["response"] for m in messages] == ["utter_alerts_channel_unsupported"]
    assert subscriptions_of("web-1") == []


async def test_stop_removes_everything_at_once_and_confirms() -> None:
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")])
    (person,) = add_subscribers(1, [Wish(Topic.ANNOUNCEMENTS)], channel="whatsapp")
    tracker = conversation(person, channel="whatsapp", intent="unsubscribe_alerts", text="STOP")

    messages = await run(ActionUnsubscribeAlerts(clock()), tracker)

    assert [m["response"] for m in messages] == ["utter_alerts_unsubscribed"]
    assert subscriptions_of(person) == []
    with db.session_scope() as session:
        assert session.get(StoredAddress, person) is None
        assert session.scalar(select(func.count()).select_from(Subscription)) == 1


async def test_stop_without_subscriptions_says_there_were_none() -> None:
    tracker = conversation(PERSON, intent="unsubscribe_alerts", text="بس", language="ps")
    messages = await run(ActionUnsubscribeAlerts(clock()), tracker)
    assert [m["response"] for m in messages] == ["utter_no_subscriptions"]


async def test_listing_shows_each_topic_in_the_users_language() -> None:
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL"), Wish(Topic.FLIGHTS, "DOH")], language="prs")
    (person,) = [f"telegram-{0:040x}"]
    messages = await run(
        ActionListSubscriptions(clock()),
        conversation(person, language="prs", intent="list_subscriptions"),
    )
    (listing,) = messages
    assert listing["response"] == "utter_subscriptions_list"
    assert "میدان هوایی" in listing["topics"] and "DOH" in listing["topics"]


async def test_listing_without_subscriptions() -> None:
    messages = await run(
        ActionListSubscriptions(clock()), conversation(PERSON, intent="list_subscriptions")
    )
    assert [m["response"] for m in messages] == ["utter_no_subscriptions"]


async def test_a_database_that_is_down_never_confirms(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as down:  # only for this test's body, not its clean-up
        down.setenv(db.URL_ENV, "postgresql+psycopg://postgres@127.0.0.1:1/none")
        subscribing = conversation(PERSON, entities={"alert_topic": "airport"})
        subscribed = await run(ActionSubscribeAlerts(clock()), subscribing)
        deleted = await run(ActionDeleteMyData(), conversation(PERSON, intent="delete_my_data"))
    assert [m["response"] for m in subscribed] == ["utter_alerts_failed"]
    assert [m["response"] for m in deleted] == ["utter_delete_failed"]


async def test_delete_my_data_leaves_nothing_of_the_person_in_the_content_database() -> None:
    (person, other) = add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")])
    with db.session_scope() as session:
        publishing.publish(
            session, "amina", "airport", "KBL", {"state": "closed", "advice": ADVICE}, "n", now=NOW,
            close_gates=True,
        )  # fmt: skip

    messages = await run(ActionDeleteMyData(), conversation(person, intent="delete_my_data"))

    assert [m["response"] for m in messages] == ["utter_data_deleted"]
    with db.session_scope() as session:
        for model in (Subscription, Delivery, StoredAddress):
            column = model.conversation_id  # type: ignore[attr-defined]
            assert session.scalar(select(func.count()).where(column == person)) == 0
            assert session.scalar(select(func.count()).where(column == other)) == 1


def queue_airport_alert(channel: str = "telegram", language: str = "ps") -> Delivery:
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")], channel=channel, language=language)
    with db.session_scope() as session:
        publishing.publish(
            session, "amina", "airport", "KBL", {"state": "closed", "advice": ADVICE}, "n", now=NOW,
            close_gates=True,
        )  # fmt: skip
        session.execute(update(Delivery).values(status=DeliveryStatus.SENDING))
    (delivery,) = deliveries()
    return delivery


def alert_trigger(delivery: Delivery, language: str | None = None, **options: Any) -> Any:
    return conversation(
        delivery.conversation_id,
        channel=delivery.channel,
        language=language,
        intent="EXTERNAL_alert",
        entities={"alert_delivery": str(delivery.id)},
        **options,
    )


async def test_an_alert_is_written_in_the_language_subscribed_in_and_tagged() -> None:
    delivery = queue_airport_alert(language="ps")
    action = ActionSendAlert(clock(timedelta(minutes=1)))

    (message,) = await run(action, alert_trigger(delivery))

    assert "تړلی دی: مه راځئ." in message["text"] and "STOP" not in message["text"]
    # The channel claims the delivery by this tag right before sending: once, however often
    # the alert is triggered (bot/channels/deliveries.py).
    assert message["custom"] == {"alert_delivery": delivery.id}
    # The channel writes what goes around it (a "Choose" label, "MORE") in the same language.
    assert message["metadata"] == {"language": "ps"}


async def test_a_delivered_alert_is_not_written_again() -> None:
    delivery = queue_airport_alert()
    with db.session_scope() as session:
        session.execute(update(Delivery).values(delivered_at=NOW))
    assert await run(ActionSendAlert(clock()), alert_trigger(delivery)) == []


async def test_the_conversations_current_language_wins_over_the_subscription() -> None:
    delivery = queue_airport_alert(language="ps")
    (message,) = await run(ActionSendAlert(clock()), alert_trigger(delivery, language="en"))
    assert "Closed: do not come." in message["text"] and "STOP" in message["text"]
    assert message["metadata"] == {"language": "en"}


async def test_an_alert_for_someone_who_opted_out_is_not_written() -> None:
    delivery = queue_airport_alert()
    with db.session_scope() as session:
        session.execute(update(Subscription).values(expires_at=NOW))
    assert await run(ActionSendAlert(clock()), alert_trigger(delivery)) == []
    (stored,) = deliveries()
    assert stored.status is DeliveryStatus.CANCELLED


async def test_whatsapp_outside_24_hours_gets_the_approved_template() -> None:
    delivery = queue_airport_alert(channel="whatsapp", language="prs")
    old_message = {
        "event": "user",
        "text": "سلام",
        "timestamp": (NOW - timedelta(hours=30)).timestamp(),
        "parse_data": {"intent": {"name": "greet"}},
    }
    tracker = conversation(
        delivery.conversation_id,
        channel="whatsapp",
        language="prs",
        intent="EXTERNAL_alert",
        entities={"alert_delivery": str(delivery.id)},
        events=[old_message],
    )
    (message,) = await run(ActionSendAlert(clock()), tracker)

    template = message["custom"]["whatsapp_template"]
    assert template["name"] == "evacuation_alert" and template["language"] == "fa"
    # The finished text of the alert, as inside the window; the channel flattens it.
    (parameter,) = template["parameters"]
    assert "بسته است" in parameter
    recent = {**old_message, "timestamp": (NOW - timedelta(hours=2)).timestamp()}
    tracker = alert_trigger(delivery, language="prs", events=[recent])
    (inside,) = await run(ActionSendAlert(clock()), tracker)
    assert parameter == inside["text"]


async def test_whatsapp_inside_24_hours_gets_free_text() -> None:
    delivery = queue_airport_alert(channel="whatsapp", language="prs")
    recent = {
        "event": "user",
        "text": "سلام",
        "timestamp": (NOW - timedelta(hours=2)).timestamp(),
        "parse_data": {"intent": {"name": "greet"}},
    }
    tracker = alert_trigger(delivery, language="prs", events=[recent])
    (message,) = await run(ActionSendAlert(clock()), tracker)
    assert "بسته است" in message["text"]
