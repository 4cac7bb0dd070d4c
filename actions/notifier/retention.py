"""Forgetting on schedule: what the content database keeps about people, it keeps for a while only.

* subscriptions and sealed addresses: until they expire (``ALERT_SUBSCRIPTION_TTL`` after the
  user last subscribed);
* alert deliveries (which conversation was sent which alert): ``CONVERSATION_RETENTION`` after
  they finished — the same period conversations themselves are kept (``bot/stores.py``);
* cases handed to caseworkers and their messages: ``CONVERSATION_RETENTION`` after anything
  was last written to them, a closed one ``CLOSED_CASE_RETENTION`` after it closed when that is
  shorter (``actions/cases/store.py``);
* the question log (turn counts and the masked messages not answered, ``bot/question_log.py``):
  ``CONVERSATION_RETENTION`` after the hour or the message;
* what people asked about rumours (``actions/content/asks.py``): the wish to be told ends at
  ``answer_by`` (72 hours at most), the ask itself ``CONVERSATION_RETENTION`` after it was
  asked, as the question log's messages.

Broadcasts stay: they say which change alerted how many people, not who. It sits in the
notifier, above the alert system, the cases and the question log, because it forgets from all
three and none of them need know of the others.
Run by the notifier every hour and by ``make purge`` (``python -m actions.alerts purge``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.orm import Session

from actions.alerts.models import FINAL_STATUSES, Delivery, StoredAddress, Subscription
from actions.cases import store
from actions.cases.models import CaseEvent
from actions.claims import askers
from actions.content.asks import Ask
from actions.questions import report

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Purged:
    subscriptions: int
    addresses: int
    deliveries: int
    cases: int = 0
    questions: int = 0
    claim_asks: int = 0

    def __str__(self) -> str:
        return (
            f"{self.subscriptions} expired subscription(s), {self.addresses} expired "
            f"address(es), {self.deliveries} old alert delivery record(s), {self.cases} old "
            f"case(s), {self.questions} old question log row(s), {self.claim_asks} old "
            f"ask(s) about rumours"
        )


def _count(result: object) -> int:
    return int(getattr(result, "rowcount", 0) or 0)


def purge(
    session: Session, now: datetime, retention: timedelta, closed_cases: timedelta | None = None
) -> Purged:
    """Delete what has expired or is older than ``retention`` (closed cases: than
    ``closed_cases``, when shorter); the caller commits."""
    subscriptions = session.execute(delete(Subscription).where(Subscription.expires_at <= now))
    addresses = session.execute(delete(StoredAddress).where(StoredAddress.expires_at <= now))
    deliveries = session.execute(
        delete(Delivery).where(
            Delivery.status.in_(FINAL_STATUSES), Delivery.finished_at < now - retention
        )
    )
    # A case.deleted the helpdesk never took: the case it names is long gone.
    session.execute(
        delete(CaseEvent).where(CaseEvent.case_id.is_(None), CaseEvent.created_at < now - retention)
    )
    cases = store.purge_inactive(session, now - retention)
    if closed_cases is not None and closed_cases < retention:
        cases += store.purge_closed(session, now - closed_cases)
    questions = report.purge(session, now - retention)
    askers.lapse(session, now)
    asks = session.execute(delete(Ask).where(Ask.asked_at < now - retention))
    purged = Purged(
        _count(subscriptions),
        _count(addresses),
        _count(deliveries),
        cases,
        questions,
        _count(asks),
    )
    logger.info("retention: deleted %s", purged)
    return purged
