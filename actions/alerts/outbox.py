"""The outbox: which published change alerts whom, written in the editor's own transaction.

:func:`queue_alerts` follows every revision (``actions/publishing.py``). When the change matters
to a topic it adds one :class:`Broadcast` and one queued :class:`Delivery` per current
subscriber, in the same transaction as the change itself: an editor's publish and its alerts
are committed together or not at all, and a notifier that was down sends them when it is back.

What matters (people should not get an alert because someone fixed a typo or re-checked a fact),
as each kind's spec says (``actions/content/records.py``):

* airport status: a new state or new advice; a gate: a new state or note — topic ``airport``;
* a flight: new, or a new status, departure time, eligibility or assembly point — topic
  ``flights`` for its destination (and for "every destination");
* an announcement: new, or its text, title or verification changed — topic ``announcements``.

Re-verifying (``verified_at``, ``valid_until``, ``source``) and withdrawing alert nobody. An
airport alert shows the whole current airport status, so a newer one supersedes alerts still
queued for the same airport; a flight alert supersedes queued alerts for the same flight.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, exists, func, insert, literal, or_, select, update
from sqlalchemy.orm import Session

from actions.alerts.models import (
    EVERYWHERE,
    Broadcast,
    Delivery,
    DeliveryStatus,
    Subscription,
    Topic,
)
from actions.content.models import Revision, RevisionAction
from actions.content.records import SPECS

logger = logging.getLogger(__name__)

ANNOUNCED = (RevisionAction.CREATE, RevisionAction.UPDATE, RevisionAction.ROLLBACK)


@dataclass(frozen=True)
class Subject:
    """Who a change concerns: subscribers of ``topic`` for ``key`` (and for every key)."""

    topic: Topic
    key: str


def subject_of(revision: Revision, row: Any) -> Subject | None:
    """The topic a revision is news for, or None when it is not news to anyone.

    The kind's spec says which fields are news and whom they concern (``Alert``, kinds.py).
    """
    spec = SPECS.get(revision.kind)
    alert = spec.alert if spec is not None else None
    if alert is None or revision.action not in ANNOUNCED:
        return None
    if revision.after.get("withdrawn_at"):
        return None  # rolling back a creation withdraws the record: nothing to announce
    if revision.before is not None and not alert.newsworthy & set(revision.changed_fields()):
        return None
    key = alert.about(revision.record_key, row)
    return Subject(Topic(alert.topic), EVERYWHERE if key is None else key)


def queue_alerts(session: Session, revision: Revision, row: Any) -> Broadcast | None:
    """Add the broadcast and its deliveries for ``revision``; None when nobody is to be told.

    One INSERT … SELECT for all subscribers: 10 000 of them are queued in one statement.
    """
    subject = subject_of(revision, row)
    if subject is None:
        return None
    now = revision.created_at
    wanted = (
        Subscription.topic == subject.topic,
        Subscription.topic_key.in_({subject.key, EVERYWHERE}),
        Subscription.expires_at > now,
    )
    if not session.scalar(select(exists().where(*wanted))):
        return None  # nobody to tell: no broadcast to keep
    broadcast = Broadcast(
        revision_id=revision.id,
        topic=subject.topic,
        topic_key=subject.key,
        editor=revision.editor,
        created_at=now,
    )
    session.add(broadcast)
    session.flush()
    _supersede_queued(session, broadcast, revision)
    subscribers = (
        select(
            literal(broadcast.id),
            Subscription.conversation_id,
            Subscription.channel,
            literal(DeliveryStatus.QUEUED.value),
            literal(0),
            literal(now, type_=Delivery.__table__.c.next_attempt_at.type),
        )
        .where(*wanted)
        .distinct()
    )
    columns = [
        "broadcast_id",
        "conversation_id",
        "channel",
        "status",
        "attempts",
        "next_attempt_at",
    ]
    session.execute(insert(Delivery).from_select(columns, subscribers))
    queued = session.scalar(
        select(func.count()).select_from(Delivery).where(Delivery.broadcast_id == broadcast.id)
    )
    logger.info(
        "alert %s queued for %s subscriber(s) of %s/%s",
        broadcast.id,
        queued,
        subject.topic.value,
        subject.key,
    )
    return broadcast


def _supersede_queued(session: Session, newer: Broadcast, revision: Revision) -> None:
    """Alerts not yet sent that the new one makes stale are not sent at all."""
    same_subject = and_(
        Broadcast.topic == newer.topic,
        Broadcast.topic_key == newer.topic_key,
        Broadcast.id != newer.id,
    )
    if newer.topic is Topic.FLIGHTS:  # other flights to the same place are other news
        same_record = select(Revision.id).where(
            Revision.kind == revision.kind, Revision.record_id == revision.record_id
        )
        same_subject = and_(same_subject, Broadcast.revision_id.in_(same_record))
    elif newer.topic is Topic.ANNOUNCEMENTS:
        return  # every announcement is its own news
    stale = select(Broadcast.id).where(same_subject)
    session.execute(
        update(Delivery)
        .where(Delivery.status == DeliveryStatus.QUEUED, Delivery.broadcast_id.in_(stale))
        .values(status=DeliveryStatus.SUPERSEDED, finished_at=newer.created_at)
    )


def cancel_queued(session: Session, conversation_id: str, now: datetime) -> int:
    """An opt-out takes effect at once: nothing still queued for the conversation goes out."""
    result = session.execute(
        update(Delivery)
        .where(
            Delivery.conversation_id == conversation_id,
            or_(
                Delivery.status == DeliveryStatus.QUEUED, Delivery.status == DeliveryStatus.SENDING
            ),
            Delivery.rendered_at.is_(None),
        )
        .values(status=DeliveryStatus.CANCELLED, finished_at=now)
    )
    return int(getattr(result, "rowcount", 0) or 0)


def progress(session: Session, broadcast_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    """For each broadcast, how many deliveries are in each status (what editors see)."""
    ids = list(broadcast_ids)
    counts: dict[int, dict[str, int]] = {broadcast_id: {} for broadcast_id in ids}
    rows = session.execute(
        select(Delivery.broadcast_id, Delivery.status, func.count())
        .where(Delivery.broadcast_id.in_(ids))
        .group_by(Delivery.broadcast_id, Delivery.status)
    )
    for broadcast_id, status, count in rows:
        counts[broadcast_id][DeliveryStatus(status).value] = count
    return counts


def latest(session: Session, limit: int = 20) -> list[tuple[Broadcast, dict[str, int]]]:
    """The latest broadcasts with their deliveries counted by status (what editors see)."""
    broadcasts = session.scalars(select(Broadcast).order_by(Broadcast.id.desc()).limit(limit)).all()
    counts = progress(session, [broadcast.id for broadcast in broadcasts])
    return [(broadcast, counts[broadcast.id]) for broadcast in broadcasts]


def queued_for(session: Session, revision_id: int) -> int:
    """How many alerts a change queued (its editor is told at once)."""
    count = session.scalar(
        select(func.count(Delivery.id))
        .join(Broadcast, Delivery.broadcast_id == Broadcast.id)
        .where(Broadcast.revision_id == revision_id)
    )
    return int(count or 0)
