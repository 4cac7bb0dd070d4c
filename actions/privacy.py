"""``action_delete_my_data``: forget this person, on their request, everywhere we keep anything.

The content database loses the conversation's subscriptions, alert deliveries, sealed
address and cases handed to caseworkers (with every message in them) here; the conversation
itself (every message in the tracker store) is deleted by the bot runtime's tracker store when
it saves the confirmation ``utter_data_deleted`` (``bot/stores.py``). The confirmation is only
sent once the content database committed, so a user is never told "deleted" about something
that was not.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from rasa_sdk import Action, Tracker
from rasa_sdk.executor import CollectingDispatcher
from rasa_sdk.types import DomainDict
from sqlalchemy.exc import SQLAlchemyError

from actions.alerts import subscriptions
from actions.cases import store as cases
from actions.content.db import session_scope

logger = logging.getLogger(__name__)

#: The response whose sending makes the tracker store delete the conversation (bot/stores.py).
DELETED = "utter_data_deleted"


def forget_conversation(conversation_id: str) -> None:
    with session_scope() as session:
        subscriptions.forget(session, [conversation_id])
        cases.forget(session, [conversation_id])


class ActionDeleteMyData(Action):  # type: ignore[misc]  # rasa_sdk ships no type hints
    def name(self) -> str:
        return "action_delete_my_data"

    async def run(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: DomainDict
    ) -> list[dict[str, Any]]:
        try:
            await asyncio.to_thread(forget_conversation, tracker.sender_id)
        except (SQLAlchemyError, OSError):
            logger.error("action_delete_my_data: cannot use the content database", exc_info=True)
            dispatcher.utter_message(response="utter_delete_failed")
            return []
        logger.info("%s: data deleted on request", tracker.sender_id)
        dispatcher.utter_message(response=DELETED)
        return []
