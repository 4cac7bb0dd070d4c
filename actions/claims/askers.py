"""Telling those who asked: a rumour's verdict or an editor's answer, once, to each asker who
wanted it.

Someone asked "is this true?" about a rumour nobody had checked, or a question nobody had
answered, and said yes to "shall I tell you when we know?" (``wants_answer``, until
``answer_by``, at most 72 hours). When editors publish the claim or the answer for it, or link
their ask to one already published, :func:`tell` queues it through the alerts' outbox, in the
editor's transaction: one :class:`Broadcast` (topic ``claims`` or ``answers``) and one
:class:`Delivery` per conversation, sent by the notifier at each channel's pace and written by
``action_send_alert`` in the ask's language. ``told_at`` is set as it is queued, so a second
publish tells nobody again.

Nobody is told after ``answer_by``, on a channel that cannot carry an alert (the web chat), after
STOP (``subscriptions.unsubscribe`` clears the wish) or "delete my data" (the ask is deleted).
A claim "being checked" tells nobody yet: the askers wait for what editors found.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import ColumnElement, func, insert, select, update
from sqlalchemy.orm import InstrumentedAttribute, Session

from actions.alerts.models import Broadcast, Delivery, DeliveryStatus, Topic
from actions.alerts.subscriptions import ALERT_CHANNELS
from actions.content.asks import Ask
from actions.content.models import Answer, Claim, ClaimVerdict, RecordKind, Revision

logger = logging.getLogger(__name__)

#: A broadcast's key is at most 16 characters: the record's slug is cut to it.
KEY_CHARS: Final = 16


@dataclass(frozen=True)
class Awaited:
    """A kind of record askers wait for: where an ask names it, the alerts' topic it goes out
    as, and whether a published record is worth telling yet."""

    model: type[Claim] | type[Answer]
    asked: InstrumentedAttribute[int | None]
    topic: Topic
    ready: Callable[[Any], bool]


AWAITED: Final = {
    RecordKind.CLAIM: Awaited(
        Claim,
        Ask.claim_id,
        Topic.CLAIMS,
        lambda claim: claim.verdict is not ClaimVerdict.BEING_CHECKED,
    ),
    RecordKind.ANSWER: Awaited(Answer, Ask.answer_id, Topic.ANSWERS, lambda answer: True),
}
#: The kind a broadcast's topic tells.
BY_TOPIC: Final = {awaited.topic: kind for kind, awaited in AWAITED.items()}


def waiting(awaited: Awaited, record_id: int, now: datetime) -> tuple[ColumnElement[bool], ...]:
    """The asks of the record still waiting to be told."""
    return (
        awaited.asked == record_id,
        Ask.wants_answer.is_(True),
        Ask.answer_by > now,
        Ask.told_at.is_(None),
        Ask.channel.in_(ALERT_CHANNELS),
    )


def tell(session: Session, revision: Revision, now: datetime | None = None) -> Broadcast | None:
    """Queue the claim's verdict or the answer for each asker still waiting; None when nobody
    is.

    ``revision`` is the record's change that made it worth telling (a publish, or the latest
    revision when asks were linked to a record already published)."""
    awaited = AWAITED.get(revision.kind)
    if awaited is None:
        return None
    now = now or revision.created_at
    row = session.get(awaited.model, revision.record_id)
    assert row is None or isinstance(row, Claim | Answer)
    if row is None or row.withdrawn_at is not None or not awaited.ready(row):
        return None
    # One delivery per conversation, on the channel of its latest ask.
    latest = (
        select(Ask.conversation_id, func.max(Ask.id).label("ask_id"))
        .where(*waiting(awaited, row.id, now))
        .group_by(Ask.conversation_id)
        .subquery()
    )
    askers = session.execute(
        select(Ask.conversation_id, Ask.channel).join(latest, Ask.id == latest.c.ask_id)
    ).all()
    if not askers:
        return None
    broadcast = Broadcast(
        revision_id=revision.id,
        topic=awaited.topic,
        topic_key=row.slug[:KEY_CHARS],
        editor=revision.editor,
        created_at=now,
    )
    session.add(broadcast)
    session.flush()
    session.execute(
        insert(Delivery),
        [
            {
                "broadcast_id": broadcast.id,
                "conversation_id": conversation_id,
                "channel": channel,
                "status": DeliveryStatus.QUEUED,
                "attempts": 0,
                "next_attempt_at": now,
            }
            for conversation_id, channel in askers
        ],
    )
    session.execute(
        update(Ask)
        .where(*waiting(awaited, row.id, now))
        .values(told_at=now)
        .execution_options(synchronize_session=False)
    )
    logger.info("%s %s: queued for %d asker(s)", revision.kind.value, row.slug, len(askers))
    return broadcast


def latest_revision(session: Session, kind: RecordKind, record_id: int) -> Revision | None:
    """The record's last change, to tell askers linked to one published before."""
    return session.scalar(
        select(Revision)
        .where(Revision.kind == kind, Revision.record_id == record_id)
        .order_by(Revision.id.desc())
        .limit(1)
    )


def tell_linked(
    session: Session, record_id: int, now: datetime, kind: RecordKind = RecordKind.CLAIM
) -> Broadcast | None:
    """After asks were linked to a record already published: tell those waiting."""
    revision = latest_revision(session, kind, record_id)
    return None if revision is None else tell(session, revision, now)


def asked_about(
    session: Session, conversation_id: str, record_id: int, kind: RecordKind = RecordKind.CLAIM
) -> Ask | None:
    """The conversation's latest ask about the record that still wants the answer (its
    language is the alert's); None after "delete my data" (the ask is deleted), STOP or
    ``answer_by`` (the wish is cleared), and then nothing is sent even if a delivery was
    already claimed."""
    return session.scalar(
        select(Ask)
        .where(
            Ask.conversation_id == conversation_id,
            AWAITED[kind].asked == record_id,
            Ask.wants_answer.is_(True),
        )
        .order_by(Ask.asked_at.desc(), Ask.id.desc())
        .limit(1)
    )


def lapse(session: Session, now: datetime) -> int:
    """Asks past ``answer_by`` no longer want an answer (retention); how many."""
    result = session.execute(
        update(Ask)
        .where(Ask.wants_answer.is_(True), Ask.answer_by <= now)
        .values(wants_answer=False, answer_by=None)
        .execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0)
