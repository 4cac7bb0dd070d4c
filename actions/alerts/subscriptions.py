"""Subscribing, opting out and forgetting, as the actions and the retention command need them.

Every function takes a Session and leaves committing to the caller (one turn, one transaction).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from actions.alerts.models import (
    EVERYWHERE,
    Delivery,
    StoredAddress,
    Subscription,
    Topic,
)
from actions.alerts.outbox import cancel_queued
from actions.content.asks import Ask
from kernel.contract import (
    ALERT_CHANNELS as ALERT_CHANNELS,  # spelled in the contract, read here too
)


@dataclass(frozen=True, order=True)
class Wish:
    """One thing a user asked to be alerted about."""

    topic: Topic
    key: str = EVERYWHERE


def subscribe(
    session: Session,
    conversation_id: str,
    channel: str,
    wishes: Iterable[Wish],
    language: str,
    now: datetime,
    ttl: timedelta,
) -> datetime:
    """Add or renew the subscriptions; return when they (all of them) expire.

    Subscribing again renews every subscription of the conversation, and the stored address
    with them, so one "alerts" message keeps everything alive for another ``ttl``.
    """
    until = now + ttl
    existing = {
        (row.topic, row.topic_key): row
        for row in session.scalars(
            select(Subscription).where(Subscription.conversation_id == conversation_id)
        )
    }
    for wish in set(wishes):
        row = existing.get((wish.topic, wish.key))
        if row is None:
            session.add(
                Subscription(
                    conversation_id=conversation_id,
                    channel=channel,
                    topic=wish.topic,
                    topic_key=wish.key,
                    language=language,
                    created_at=now,
                    expires_at=until,
                )
            )
    session.execute(
        update(Subscription)
        .where(Subscription.conversation_id == conversation_id)
        .values(expires_at=until, language=language, channel=channel)
    )
    session.execute(
        update(StoredAddress)
        .where(StoredAddress.conversation_id == conversation_id, StoredAddress.expires_at < until)
        .values(expires_at=until)
    )
    session.flush()
    return until


def current(session: Session, conversation_id: str, now: datetime) -> Sequence[Subscription]:
    """The conversation's subscriptions that have not expired, in a stable order."""
    return session.scalars(
        select(Subscription)
        .where(Subscription.conversation_id == conversation_id, Subscription.expires_at > now)
        .order_by(Subscription.topic, Subscription.topic_key)
    ).all()


def unsubscribe(
    session: Session, conversation_id: str, now: datetime, keep_address: bool = False
) -> int:
    """Stop every alert at once: subscriptions, queued alerts, the wish to hear the verdict
    on a rumour and the stored address go.

    Returns how many subscriptions there were. The address is deleted too: without a
    subscription there is no reason to keep a way to reach the person — unless the caller
    says it is still needed (``keep_address``: a caseworker holds their case, whose replies
    need it until it closes, actions/cases/replies.py; the opt-out action knows, the alert
    system does not).
    """
    removed = session.execute(
        delete(Subscription).where(Subscription.conversation_id == conversation_id)
    )
    cancel_queued(session, conversation_id, now)
    # Nor the verdict on a rumour they asked about (actions/claims/askers.py).
    session.execute(
        update(Ask)
        .where(Ask.conversation_id == conversation_id, Ask.wants_answer.is_(True))
        .values(wants_answer=False, answer_by=None)
    )
    if not keep_address:
        session.execute(
            delete(StoredAddress).where(StoredAddress.conversation_id == conversation_id)
        )
    return int(getattr(removed, "rowcount", 0) or 0)


def forget(session: Session, conversation_ids: Sequence[str]) -> None:
    """Remove every trace of these conversations from the content database."""
    if not conversation_ids:
        return
    ids = list(conversation_ids)
    session.execute(delete(Delivery).where(Delivery.conversation_id.in_(ids)))
    session.execute(delete(Subscription).where(Subscription.conversation_id.in_(ids)))
    session.execute(delete(StoredAddress).where(StoredAddress.conversation_id.in_(ids)))
    session.execute(delete(Ask).where(Ask.conversation_id.in_(ids)))


def still_wanted(
    session: Session, conversation_id: str, topic: Topic, key: str, now: datetime
) -> bool:
    """Whether the conversation still wants alerts on ``topic`` for ``key`` (opt-out check)."""
    found = session.scalar(
        select(Subscription.id)
        .where(
            Subscription.conversation_id == conversation_id,
            Subscription.topic == topic,
            Subscription.topic_key.in_({key, EVERYWHERE}),
            Subscription.expires_at > now,
        )
        .limit(1)
    )
    return found is not None
