"""``action_send_case_reply``: a caseworker's reply, sent to the person while the case holds them.

The notifier's courier triggers ``EXTERNAL_case_reply`` with the reply's id (entity
``case_reply``, ``actions/cases/courier.py``); Rasa lets it through the pause
(``bot/paused.py``) and runs this action, which leaves the conversation paused. It:

1. checks the reply is for this conversation, still being sent and not yet delivered;
2. writes it as the caseworker wrote it, after a few words in the person's language saying who
   it is from (``cases.reply``, kernel/lang/texts/cases.py), so it is not mistaken for the bot;
3. on WhatsApp, outside the 24-hour window, sends it as the approved template's parameter;
4. tags it with the reply's id (custom payload ``case_reply``): the channel claims it right
   before the provider, so it goes out once however often it is triggered
   (``bot/channels/deliveries.py``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from rasa_sdk.events import ConversationPaused, SlotSet
from sqlalchemy.orm import Session

from actions import settings
from actions.cases.models import Case, CaseMessage, CaseReply
from actions.chat.alert_delivery import utter_out_of_turn
from actions.common.outbox import DeliveryStatus
from actions.content.answering import latest_entity
from actions.content.database_action import DatabaseAction, Events, Turn
from actions.content.localise import language_or_default
from kernel.contract import CASE_REPLY
from kernel.lang import texts

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Written:
    text: str
    language: str
    channel: str


def write_reply(
    session: Session, conversation_id: str, reply_id: int, slot_language: str | None
) -> Written | None:
    """The reply as the person gets it; None when it is not (any more) to be sent here."""
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


class ActionSendCaseReply(DatabaseAction):
    """Writes a caseworker's reply for the person; when the database cannot be used nothing is
    sent, and the courier, seeing the reply undelivered, tries again later."""

    def name(self) -> str:
        return "action_send_case_reply"

    def step(self, turn: Turn) -> Events:
        tracker = turn.tracker
        raw = latest_entity(tracker, CASE_REPLY) or ""
        if not raw.isdigit() or len(raw) > 12:
            logger.warning("EXTERNAL_case_reply without a reply id: nothing sent")
            return []
        written = write_reply(
            turn.session, tracker.sender_id, int(raw), tracker.get_slot("language")
        )
        if written is None:
            return []
        utter_out_of_turn(
            turn,
            written.channel,
            written.text,
            written.language,
            {CASE_REPLY: int(raw)},
            settings.whatsapp_case_reply_template(),
        )
        if tracker.is_paused():
            return []
        # A case that waited outside the hours: a caseworker now talks with the person, so the
        # assistant steps aside from here on (docs/HANDOFF.md, "Never silent").
        return [SlotSet("case_waiting", False), ConversationPaused()]
