"""A person their provider refused for good: "stop" said the provider's way.

Telegram's "bot was blocked by the user", WhatsApp's "not a WhatsApp user", Twilio's 21610
("the person texted STOP to the carrier"), at send time or in a later delivery status: the
person asked, in their channel's own words, to hear nothing more. Their subscriptions end at
once, as a typed STOP ends them (``subscriptions.unsubscribe``), so nothing is queued or
retried for them; and an open case says so to its caseworker ("this person can no longer be
reached"), who would otherwise write replies that never arrive.

Both of the notifier's outboxes call this, the alerts' and the caseworkers' replies' (the outbox
kernel's ``stop_reaching`` hook, ``actions/common/outbox.py``). The cases are marked through the
shared table (``kernel/contentdb/tables.py``), not the cases' models: the alert system sits below
the cases and needs nothing of theirs.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.orm import Session

from actions.alerts.subscriptions import unsubscribe
from kernel.contentdb import tables
from kernel.contentdb.statuses import OPEN_CASE_STATUSES

logger = logging.getLogger(__name__)


def stop_reaching(session: Session, conversation_id: str, now: datetime) -> None:
    """Ends the conversation's subscriptions and marks its open cases unreachable, in the
    caller's transaction. An open case keeps the stored address: what the person writes next
    shows they can be reached again, and the caseworker's replies need it then."""
    cases = tables.cases.c
    marked = session.execute(
        update(tables.cases)
        .where(cases.conversation_id == conversation_id, cases.status.in_(OPEN_CASE_STATUSES))
        .values(unreachable_at=now)
    )
    told = int(getattr(marked, "rowcount", 0) or 0)
    removed = unsubscribe(session, conversation_id, now, keep_address=told > 0)
    logger.info(
        "%s refused by their provider: %d subscription(s) ended, %d open case(s) told",
        conversation_id,
        removed,
        told,
    )
