"""``action_delete_my_data``: forget this person, on their request, everywhere we keep anything.

The content database loses the conversation's subscriptions, alert deliveries, sealed
address, rumours asked about (``claim_asks``) and cases handed to caseworkers (with every
message in them) here, and an organisation's helpdesk that heard of a case is asked to delete
its copy (``case.deleted``); the conversation
itself (every message in the tracker store) is deleted by the bot runtime's tracker store when
it saves the confirmation ``utter_data_deleted`` (``bot/stores.py``). The confirmation is only
sent once the content database committed, so a user is never told "deleted" about something
that was not.

One wrong digit («۸») must not end a person's open case or their alerts: when there is either,
the first request is answered with what would be lost (``utter_delete_confirm``), and only the
same request right after it deletes. With nothing but the conversation it deletes at once.
"""

from __future__ import annotations

import logging
from datetime import datetime

from rasa_sdk import Tracker
from rasa_sdk.executor import CollectingDispatcher
from rasa_sdk.types import DomainDict
from sqlalchemy import delete
from sqlalchemy.orm import Session

from actions.alerts import subscriptions
from actions.cases import store as cases
from actions.cases import webhooks
from actions.common.previous_turn import previous_turn
from actions.content.asks import Ask
from actions.content.database_action import DatabaseAction, Events, Turn
from actions.content.db import session_scope

logger = logging.getLogger(__name__)

#: The response whose sending makes the tracker store delete the conversation (bot/stores.py).
DELETED = "utter_data_deleted"
CONFIRM = "utter_delete_confirm"


def confirmed(tracker: Tracker) -> bool:
    """Whether the assistant's last message before this one asked to confirm the deletion."""
    for event in previous_turn(tracker):
        if event.get("event") == "bot":
            return (event.get("metadata") or {}).get("utter_action") == CONFIRM
    return False


def more_than_the_conversation(session: Session, conversation_id: str, now: datetime) -> bool:
    """Whether deleting would also end an open case or alert subscriptions."""
    return (
        cases.open_case_of(session, conversation_id) is not None
        or len(subscriptions.current(session, conversation_id, now)) > 0
    )


def forget_conversation(conversation_id: str, now: datetime) -> None:
    """Everything the content database keeps about the conversation, deleted in one unit of work."""
    with session_scope() as session:
        forget(session, conversation_id, now)


def forget(session: Session, conversation_id: str, now: datetime) -> None:
    subscriptions.forget(session, [conversation_id])
    session.execute(delete(Ask).where(Ask.conversation_id == conversation_id))
    webhooks.cases_deleted(session, conversation_id, now)  # the helpdesk is asked to delete too
    cases.forget(session, [conversation_id])


class ActionDeleteMyData(DatabaseAction):
    def name(self) -> str:
        return "action_delete_my_data"

    def step(self, turn: Turn) -> Events:
        if not confirmed(turn.tracker) and more_than_the_conversation(
            turn.session, turn.conversation, turn.now
        ):
            turn.dispatcher.utter_message(response=CONFIRM)
            return []
        forget(turn.session, turn.conversation, turn.now)
        # Sent only once this has committed (the base sends a step's replies after it).
        turn.dispatcher.utter_message(response=DELETED)
        return []

    def unavailable(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, language: str, now: datetime
    ) -> Events:
        dispatcher.utter_message(response="utter_delete_failed")
        return []

    async def run(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: DomainDict
    ) -> Events:
        events = await super().run(dispatcher, tracker, domain)
        if any(message.get("response") == DELETED for message in dispatcher.messages):
            logger.info("%s: data deleted on request", tracker.sender_id)
        return events
