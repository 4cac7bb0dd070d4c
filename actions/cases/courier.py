"""The courier: caseworkers' replies sent by the notifier, the way alerts are.

The notifier process (``python -m actions.alerts serve``) runs this outbox beside the alerts'
one, with the same steps and guarantees (``actions/common/outbox.py``): claimed with
``SKIP LOCKED``, triggered through Rasa's HTTP API as ``EXTERNAL_case_reply`` with the reply's
id in the entity ``case_reply`` and the person's channel as ``output_channel``, claimed again by
Rasa's channel right before the provider (``bot/channels/deliveries.py``), retried with backoff
when the provider refused, ``failed`` when no address is left or every attempt failed — which
the caseworker sees on the case's page. The channels' rates are shared with the alerts.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from actions.alerts import unreachable
from actions.alerts.outbox_steps import NO_ADDRESS, has_address
from actions.cases.models import CaseReply
from actions.common.outbox import DeliveryStatus, Outbox
from actions.content.db import session_scope
from kernel.contract import ALERT_CHANNELS, CASE_REPLY, CASE_REPLY_INTENT

#: The web chat keeps no address: its own connector holds the messages it did not ask for.
WEBCHAT = "webchat"


class CaseReplyOutbox(Outbox):
    """``case_replies`` instead of ``alert_deliveries``; a reply needs only a way to the person."""

    model = CaseReply
    intent = CASE_REPLY_INTENT
    entity = CASE_REPLY
    kind = "case reply"
    channels = ALERT_CHANNELS | {WEBCHAT}

    def unit_of_work(self) -> AbstractContextManager[Session]:
        return session_scope()

    def unsendable(
        self, session: Session, row: Any, now: datetime
    ) -> tuple[DeliveryStatus, str | None] | None:
        if row.channel in ALERT_CHANNELS and not has_address(session, row.conversation_id, now):
            return DeliveryStatus.FAILED, NO_ADDRESS
        return None

    def stop_reaching(self, session: Session, conversation_id: str, now: datetime) -> None:
        """As for an alert: their subscriptions end, and the case says they cannot be reached."""
        unreachable.stop_reaching(session, conversation_id, now)
