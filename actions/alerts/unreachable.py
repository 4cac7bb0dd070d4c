"""A person their provider refused for good: "stop" said the provider's way.

Telegram's "bot was blocked by the user", WhatsApp's "not a WhatsApp user", Twilio's 21610
("the person texted STOP to the carrier"), at send time or in a later delivery status: the
person asked, in their channel's own words, to hear nothing more. Their subscriptions end at
once, as a typed STOP ends them (``subscriptions.unsubscribe``), so nothing is queued or
retried for them; and an open case says so to its caseworker ("this person can no longer be
reached"), who would otherwise write replies that never arrive.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.orm import Session

from actions.alerts.subscriptions import unsubscribe
from actions.cases.models import Case
from bot.contentdb.statuses import OPEN_CASE_STATUSES

logger = logging.getLogger(__name__)


def stop_reaching(session: Session, conversation_id: str, now: datetime) -> None:
    """Ends the conversation's subscriptions and marks its open cases unreachable, in the
    caller's transaction."""
    removed = unsubscribe(session, conversation_id, now)
    marked = session.execute(
        update(Case)
        .where(Case.conversation_id == conversation_id, Case.status.in_(OPEN_CASE_STATUSES))
        .values(unreachable_at=now)
    )
    logger.info(
        "%s refused by their provider: %d subscription(s) ended, %d open case(s) told",
        conversation_id,
        removed,
        int(getattr(marked, "rowcount", 0) or 0),
    )
