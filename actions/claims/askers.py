"""Telling those who asked: the verdict on a rumour, once, to each asker who wanted it.

Someone asked "is this true?" about a rumour nobody had checked and said yes to "shall I tell
you when we know?" (``wants_answer``, until ``answer_by``, at most 72 hours). When editors
publish the claim for it, or link their ask to a published claim, :func:`tell` queues the
verdict through the alerts' outbox, in the editor's transaction: one :class:`Broadcast` of
topic ``claims`` and one :class:`Delivery` per conversation, sent by the notifier at each
channel's pace and written by ``action_send_alert`` in the ask's language. ``told_at`` is set
as it is queued, so a second publish of the claim tells nobody again.

Nobody is told after ``answer_by``, on a channel that cannot carry an alert (the web chat), after
STOP (``subscriptions.unsubscribe`` clears the wish) or "delete my data" (the ask is deleted).
A claim "being checked" tells nobody yet: the askers wait for what editors found.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Final

from sqlalchemy import ColumnElement, func, insert, select, update
from sqlalchemy.orm import Session

from actions.alerts.models import Broadcast, Delivery, DeliveryStatus, Topic
from actions.alerts.subscriptions import ALERT_CHANNELS
from actions.content.claim_asks import ClaimAsk
from actions.content.models import Claim, ClaimVerdict, RecordKind, Revision

logger = logging.getLogger(__name__)

#: A broadcast's key is at most 16 characters: the claim's slug is cut to it.
KEY_CHARS: Final = 16


def waiting(claim_id: int, now: datetime) -> tuple[ColumnElement[bool], ...]:
    """The asks of the claim still waiting to be told."""
    return (
        ClaimAsk.claim_id == claim_id,
        ClaimAsk.wants_answer.is_(True),
        ClaimAsk.answer_by > now,
        ClaimAsk.told_at.is_(None),
        ClaimAsk.channel.in_(ALERT_CHANNELS),
    )


def tell(session: Session, revision: Revision, now: datetime | None = None) -> Broadcast | None:
    """Queue the claim's verdict for each asker still waiting; None when nobody is.

    ``revision`` is the claim's change that made it worth telling (a publish, or the latest
    revision when asks were linked to a claim already published)."""
    if revision.kind is not RecordKind.CLAIM:
        return None
    now = now or revision.created_at
    claim = session.get(Claim, revision.record_id)
    if claim is None or claim.withdrawn_at is not None:
        return None
    if claim.verdict is ClaimVerdict.BEING_CHECKED:
        return None
    # One delivery per conversation, on the channel of its latest ask.
    latest = (
        select(ClaimAsk.conversation_id, func.max(ClaimAsk.id).label("ask_id"))
        .where(*waiting(claim.id, now))
        .group_by(ClaimAsk.conversation_id)
        .subquery()
    )
    askers = session.execute(
        select(ClaimAsk.conversation_id, ClaimAsk.channel).join(
            latest, ClaimAsk.id == latest.c.ask_id
        )
    ).all()
    if not askers:
        return None
    broadcast = Broadcast(
        revision_id=revision.id,
        topic=Topic.CLAIMS,
        topic_key=claim.slug[:KEY_CHARS],
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
        update(ClaimAsk)
        .where(*waiting(claim.id, now))
        .values(told_at=now)
        .execution_options(synchronize_session=False)
    )
    logger.info("claim %s: verdict queued for %d asker(s)", claim.slug, len(askers))
    return broadcast


def latest_revision(session: Session, claim_id: int) -> Revision | None:
    """The claim's last change, to tell askers linked to a claim published before."""
    return session.scalar(
        select(Revision)
        .where(Revision.kind == RecordKind.CLAIM, Revision.record_id == claim_id)
        .order_by(Revision.id.desc())
        .limit(1)
    )


def tell_linked(session: Session, claim_id: int, now: datetime) -> Broadcast | None:
    """After asks were linked to a claim already published: tell those waiting."""
    revision = latest_revision(session, claim_id)
    return None if revision is None else tell(session, revision, now)


def asked_about(session: Session, conversation_id: str, claim_id: int) -> ClaimAsk | None:
    """The conversation's latest ask about the claim that still wants the answer (its language
    is the alert's); None after "delete my data" (the ask is deleted), STOP or ``answer_by``
    (the wish is cleared), and then nothing is sent even if a delivery was already claimed."""
    return session.scalar(
        select(ClaimAsk)
        .where(
            ClaimAsk.conversation_id == conversation_id,
            ClaimAsk.claim_id == claim_id,
            ClaimAsk.wants_answer.is_(True),
        )
        .order_by(ClaimAsk.asked_at.desc(), ClaimAsk.id.desc())
        .limit(1)
    )


def lapse(session: Session, now: datetime) -> int:
    """Asks past ``answer_by`` no longer want an answer (retention); how many."""
    result = session.execute(
        update(ClaimAsk)
        .where(ClaimAsk.wants_answer.is_(True), ClaimAsk.answer_by <= now)
        .values(wants_answer=False, answer_by=None)
        .execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0)
