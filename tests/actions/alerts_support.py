"""Helpers for the alert tests: conversations on a channel, subscribers, stand-in addresses."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from rasa_sdk import Tracker
from sqlalchemy import delete, select

from actions.alerts.models import (
    Broadcast,
    Delivery,
    StoredAddress,
    Subscription,
)
from actions.alerts.subscriptions import Wish, subscribe
from actions.content import db
from tests.actions.content_support import NOW


def conversation(
    sender: str = "telegram-0123456789abcdef0123456789abcdef01234567",
    channel: str = "telegram",
    language: str | None = "en",
    intent: str = "subscribe_alerts",
    entities: dict[str, str] | list[tuple[str, str]] | None = None,
    text: str = "alerts",
    events: list[dict[str, Any]] | None = None,
    written_at: datetime = NOW,
) -> Tracker:
    """A tracker whose latest message came over ``channel`` with ``intent`` and ``entities``."""
    pairs = list(entities.items()) if isinstance(entities, dict) else list(entities or [])
    latest = {
        "text": text,
        "intent": {"name": intent, "confidence": 1.0},
        "entities": [{"entity": name, "value": value} for name, value in pairs],
    }
    user = {
        "event": "user",
        "text": text,
        "timestamp": written_at.timestamp(),
        "input_channel": channel,
        "parse_data": latest,
    }
    return Tracker.from_dict(
        {
            "sender_id": sender,
            "slots": {"language": language, "language_chosen": False},
            "latest_message": latest,
            "events": [*(events or []), user],
            "paused": False,
            "followup_action": None,
            "active_loop": {},
            "latest_action_name": "action_listen",
        }
    )


def sealed_address(
    conversation_id: str, channel: str, now: datetime, lifetime: timedelta
) -> StoredAddress:
    """The (fake, opaque) sealed address the channel keeps for a person it may write to later."""
    return StoredAddress(
        conversation_id=conversation_id,
        channel=channel,
        key_id="0" * 16,
        sealed="opaque",
        created_at=now,
        expires_at=now + lifetime,
    )


def add_subscribers(
    count: int,
    wishes: list[Wish],
    channel: str = "telegram",
    language: str = "prs",
    with_address: bool = True,
    now: datetime = NOW,
) -> list[str]:
    """``count`` subscribers with a (fake, opaque) sealed address each; their conversation ids."""
    ids = [f"{channel}-{number:040x}" for number in range(count)]
    with db.session_scope() as session:
        for conversation_id in ids:
            if with_address:
                session.add(sealed_address(conversation_id, channel, now, timedelta(days=30)))
            subscribe(session, conversation_id, channel, wishes, language, now, timedelta(days=30))
    return ids


def deliveries() -> list[Delivery]:
    with db.session_scope() as session:
        return list(session.scalars(select(Delivery).order_by(Delivery.id)))


def clear_alerts() -> None:
    """Every subscription, alert and delivery gone: what the tests that count alerts start from."""
    with db.session_scope() as session:
        for model in (Delivery, Broadcast, Subscription, StoredAddress):
            session.execute(delete(model))
