"""``action_send_case_reply``: a caseworker's reply, sent to the person while the case holds them.

The notifier's courier triggers ``EXTERNAL_case_reply`` with the reply's id (entity
``case_reply``, ``actions/cases/courier.py``); Rasa lets it through the pause
(``bot/paused.py``) and runs this action, which leaves the conversation paused. It:

1. checks the reply is for this conversation, still being sent and not yet delivered;
2. writes it as the caseworker wrote it, after a few words in the person's language saying who
   it is from (``cases.reply``, bot/lang/texts/cases.py), so it is not mistaken for the bot;
3. on WhatsApp, outside the 24-hour window, sends it as the approved template's parameter;
4. tags it with the reply's id (custom payload ``case_reply``): the channel claims it right
   before the provider, so it goes out once however often it is triggered
   (``bot/channels/deliveries.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rasa_sdk import Action, Tracker
from rasa_sdk.executor import CollectingDispatcher
from rasa_sdk.types import DomainDict
from sqlalchemy.exc import SQLAlchemyError

from actions import settings
from actions.alert_delivery import WHATSAPP_LANGUAGE, outside_whatsapp_window, template_parameter
from actions.alerts.models import DeliveryStatus
from actions.cases.models import Case, CaseMessage, CaseReply
from actions.content.answering import latest_entity, utc_now
from actions.content.db import session_scope
from actions.content.localise import language_or_default
from bot.contract import CASE_REPLY, WHATSAPP_TEMPLATE, language_metadata
from bot.lang import texts

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Written:
    text: str
    language: str
    channel: str


def write_reply(conversation_id: str, reply_id: int, slot_language: str | None) -> Written | None:
    """The reply as the person gets it; None when it is not (any more) to be sent here."""
    with session_scope() as session:
        reply = session.get(CaseReply, reply_id)
        if reply is None or reply.conversation_id != conversation_id:
            logger.warning("case reply %s is not for this conversation", reply_id)
            return None
        if reply.status is not DeliveryStatus.SENDING or reply.delivered_at is not None:
            logger.info("case reply %s is not being sent: nothing written", reply_id)
            return None
        line = session.get(CaseMessage, reply.message_id)
        case = session.get(Case, reply.case_id)
        assert line is not None and case is not None  # foreign keys
        language = language_or_default(slot_language or case.language)
        text = texts.render("cases.reply", language, reply=line.text)
        return Written(text, language, reply.channel)


class ActionSendCaseReply(Action):  # type: ignore[misc]  # rasa_sdk ships no type hints
    def __init__(self, clock: Callable[[], datetime] = utc_now) -> None:
        self._clock = clock

    def name(self) -> str:
        return "action_send_case_reply"

    async def run(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: DomainDict
    ) -> list[dict[str, Any]]:
        raw = latest_entity(tracker, CASE_REPLY) or ""
        if not raw.isdigit() or len(raw) > 12:
            logger.warning("EXTERNAL_case_reply without a reply id: nothing sent")
            return []
        try:
            written = await asyncio.to_thread(
                write_reply, tracker.sender_id, int(raw), tracker.get_slot("language")
            )
        except (SQLAlchemyError, OSError):
            # Nothing was sent: the courier sees the reply undelivered and tries again later.
            logger.error("action_send_case_reply: cannot use the content database", exc_info=True)
            return []
        if written is None:
            return []
        tag = {CASE_REPLY: int(raw)}
        if written.channel == "whatsapp" and outside_whatsapp_window(tracker, self._clock()):
            template = {
                "name": settings.whatsapp_case_reply_template(),
                "language": WHATSAPP_LANGUAGE[written.language],
                "parameters": [template_parameter(written.text)],
            }
            dispatcher.utter_message(json_message={WHATSAPP_TEMPLATE: template, **tag})
        else:
            # Named, so that the channel writes what it adds (the SMS MORE hint) in it too.
            metadata = language_metadata(written.language)
            dispatcher.utter_message(text=written.text, json_message=tag, metadata=metadata)
        return []
