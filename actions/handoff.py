"""``action_request_caseworker``: "let me talk to a person" hands the conversation to a caseworker.

The person is told who will answer and when (an organisation's hours and usual wait, from the
content database; outside the hours, when they open and the operator's hotline), asked for one
line about their problem, and the conversation is paused (``ConversationPaused``): from then on
the assistant stays silent, and what the person writes goes to the case (recorded by Rasa's
tracker store, ``bot/case_inbox.py``), until a caseworker closes it. STOP, "delete my data" and
"safety" still answer (``bot/paused.py``). docs/HANDOFF.md has the whole design.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rasa_sdk import Action, Tracker
from rasa_sdk.events import ActionExecuted, ConversationPaused, ConversationResumed
from rasa_sdk.executor import CollectingDispatcher
from rasa_sdk.types import DomainDict

from actions.alerts.subscriptions import ALERT_CHANNELS
from actions.cases import hours, store
from actions.common.database_action import DatabaseAction, Events, Turn
from actions.content import format as fmt
from actions.content.localise import digits, isolate
from actions.settings import conversation_retention, emergency_hotline
from bot.contract import REMEMBER_ADDRESS

logger = logging.getLogger(__name__)

ACTION_LISTEN = "action_listen"
#: How many of the assistant's last answers a caseworker sees before the person's first line.
CONTEXT_ANSWERS = 3


@dataclass(frozen=True)
class Handoff:
    """What the person is told: a response and its variables; ``case_id`` None when no case
    could be opened (nobody takes cases, or the database failed)."""

    response: str
    variables: dict[str, str]
    case_id: int | None
    #: The person's channel, where the caseworker's replies go.
    channel: str = ""


#: Notices said once, after an answer: a caseworker reading the queue needs the answer the
#: person just had, not "For your safety: write 'safety'…" (bot/domain/privacy.yml).
NOTICES = frozenset({"utter_safety_offer"})


def assistant_answers(tracker: Tracker, limit: int = CONTEXT_ANSWERS) -> list[str]:
    """The texts of the assistant's last ``limit`` answers, oldest first (notices left out)."""
    texts = [
        str(event["text"])
        for event in tracker.events
        if event.get("event") == "bot"
        and event.get("text")
        and (event.get("metadata") or {}).get("utter_action") not in NOTICES
    ]
    return texts[-limit:]


def request_caseworker(turn: Turn) -> Handoff:
    """Open (or find) the conversation's case with whoever answers now or next."""
    session, tracker, language, now = turn.session, turn.tracker, turn.language, turn.now
    answerer = hours.who_answers(session, now)
    if answerer is None:
        return Handoff("utter_caseworker_none", {}, None)
    case = store.open_case(
        session,
        conversation_id=tracker.sender_id,
        channel=tracker.get_latest_input_channel() or "unknown",
        language=language,
        organisation=answerer.organisation,
        request=str(tracker.latest_message.get("text") or ""),
        assistant_answers=assistant_answers(tracker),
        now=now,
    )
    organisation = fmt.text(answerer.organisation, "name", language)
    if answerer.open_now:
        minutes = max(1, round(answerer.wait.total_seconds() / 60))
        wait = digits(str(minutes), language)
        return Handoff(
            "utter_caseworker_soon",
            {"organisation": organisation, "wait": wait},
            case.id,
            case.channel,
        )
    variables = {
        "organisation": organisation,
        "opens": fmt.clock(answerer.answers_from, language),
    }
    return Handoff("utter_caseworker_later", variables, case.id, case.channel)


class ActionRequestCaseworker(DatabaseAction):
    """Opens (or finds) the conversation's case and pauses the conversation."""

    def name(self) -> str:
        return "action_request_caseworker"

    def step(self, turn: Turn) -> Events:
        handoff = request_caseworker(turn)
        return self._tell(turn.dispatcher, turn.tracker, turn.language, turn.now, handoff)

    def unavailable(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, language: str, now: datetime
    ) -> Events:
        """No case could be opened: nobody answers soon, so the hotline if there is one."""
        nobody = Handoff("utter_caseworker_none", {}, None)
        return self._tell(dispatcher, tracker, language, now, nobody)

    @staticmethod
    def _tell(
        dispatcher: CollectingDispatcher,
        tracker: Tracker,
        language: str,
        now: datetime,
        handoff: Handoff,
    ) -> Events:
        """Who will answer and when; the hotline when nobody answers soon; then the pause."""
        hotline = emergency_hotline()
        not_soon = handoff.case_id is None or handoff.response == "utter_caseworker_later"
        if not_soon and hotline is not None:
            # Nobody answers soon: the operator's number for what cannot wait.
            handoff = Handoff(
                f"{handoff.response}_hotline",
                {**handoff.variables, "hotline": isolate(hotline, language)},
                handoff.case_id,
                handoff.channel,
            )
        if handoff.case_id is not None and handoff.channel in ALERT_CHANNELS:
            # First the channel seals the address it holds (never shown to the person), so
            # that the caseworker's replies and "I am back" can reach them; kept as long as an
            # untouched case is (retention), renewed by every reply (actions/cases/replies.py).
            until = now + conversation_retention()
            dispatcher.utter_message(
                json_message={REMEMBER_ADDRESS: {"expires_at": until.isoformat()}}
            )
        dispatcher.utter_message(response=handoff.response, **handoff.variables)
        if handoff.case_id is None:
            return []
        logger.info("%s: case %d opened", tracker.sender_id, handoff.case_id)
        dispatcher.utter_message(response="utter_caseworker_ask_problem")
        # Rasa predicts nothing more once paused, so the turn would end without its closing
        # action_listen, and the rules for STOP, "delete my data" and "safety" (which follow an
        # action_listen) would never match in the paused conversation: end the turn here.
        return [ConversationPaused(), ActionExecuted(ACTION_LISTEN)]


class ActionCaseClosed(Action):  # type: ignore[misc]  # rasa_sdk ships no type hints
    """The caseworker closed the case: the assistant takes the conversation back, and says so."""

    def name(self) -> str:
        return "action_case_closed"

    async def run(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: DomainDict
    ) -> list[dict[str, Any]]:
        dispatcher.utter_message(response="utter_caseworker_done")
        return [ConversationResumed()]
