"""``action_request_caseworker``: "let me talk to a person" hands the conversation to a caseworker.

The person is told who will answer and when (an organisation's hours and usual wait, from the
content database; outside the hours, when they open and the operator's hotline) and asked for
one line about their problem. While caseworkers work the conversation is paused
(``ConversationPaused``): the assistant only says "received", and what the person writes goes to
the case (recorded by Rasa's tracker store, ``bot/case_inbox.py``) until a caseworker closes it.
Outside the hours the case waits and the person keeps the assistant: what is not a question for
it goes to the case (``action_add_to_case``, routed by ``bot/policies/cases.py``), with the
numbers that answer day and night for an urgent line; the first caseworker reply pauses the
conversation. "cancel" withdraws the request (``action_withdraw_case``); STOP, "delete my
data" and "safety" always answer (``bot/paused.py``). docs/HANDOFF.md has the whole design.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from rasa_sdk import Action, Tracker
from rasa_sdk.events import ActionExecuted, ConversationPaused, ConversationResumed, SlotSet
from rasa_sdk.executor import CollectingDispatcher
from rasa_sdk.types import DomainDict
from sqlalchemy.orm import Session

from actions.cases import hours, store
from actions.cases.models import Case
from actions.chat.subscriptions import opt_out
from actions.content import briefs, queries
from actions.content import format as fmt
from actions.content.database_action import DatabaseAction, Events, Turn
from actions.content.localise import digits, isolate, isolate_latin
from actions.content.models import GuidanceKind, GuidanceTopic, Organisation
from actions.settings import conversation_retention, emergency_hotline
from kernel.case_hours import Hours, staffed
from kernel.case_urgency import is_urgent
from kernel.contract import ALERT_CHANNELS, REMEMBER_ADDRESS, organisation_in
from kernel.lang import texts

logger = logging.getLogger(__name__)

ACTION_LISTEN = "action_listen"
#: How many of the assistant's last answers a caseworker sees before the person's first line.
CONTEXT_ANSWERS = 3
#: Cases one conversation may open within ``CASES_WINDOW`` (withdrawn ones count): a person
#: never needs more, and a script that opens and cancels cases cannot fill the queue.
CASES_PER_HOUR: Final = 3
CASES_WINDOW: Final = timedelta(hours=1)
CASE_WAITING: Final = "case_waiting"
RECEIVED: Final = "utter_case_received"
#: At most one "received" in this many seconds (as bot/paused.py in a paused conversation).
RECEIPT_SECONDS: Final = 10.0
#: A contact without open hours answers day and night when its English hours say so (the
#: content's own words: "Day and night, every day"; "24 hours"; "24/7"; "round the clock").
ROUND_THE_CLOCK: Final = re.compile(r"day and night|24\s*(hours|h\b|/\s*7)|round the clock", re.I)


@dataclass(frozen=True)
class Handoff:
    """What the person is told: a response and its variables; ``case_id`` None when no case
    could be opened (nobody takes cases, or the database failed)."""

    response: str
    variables: dict[str, str]
    case_id: int | None
    #: The person's channel, where the caseworker's replies go.
    channel: str = ""
    #: When the caseworkers start, for a case that waits for them.
    opens_at: datetime | None = None


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


def own_words(tracker: Tracker) -> str:
    """The person's latest message as they wrote it (the parse result holds the normalised
    text: Latin digits, no half-spaces; a caseworker reads what the person typed)."""
    for event in reversed(tracker.events):
        if event.get("event") == "user":
            return str(event.get("text") or "")
    return str((tracker.latest_message or {}).get("text") or "")


def request_caseworker(turn: Turn, urgent: bool = False) -> Handoff:
    """Open (or find) the conversation's case with whoever answers now or next; ``urgent`` when
    the request spoke of danger (``kernel/danger.py``)."""
    session, tracker, language, now = turn.session, turn.tracker, turn.language, turn.now
    site = organisation_in((tracker.latest_message or {}).get("metadata"))
    urgent = urgent or is_urgent(own_words(tracker))
    answerer = hours.who_answers(session, now, site, urgent)
    if answerer is None:
        return Handoff("utter_caseworker_none", {}, None)
    if store.open_case_of(session, tracker.sender_id) is None and (
        store.opened_since(session, tracker.sender_id, now - CASES_WINDOW) >= CASES_PER_HOUR
    ):
        logger.info("%s: too many cases within the hour, none opened", tracker.sender_id)
        return Handoff("utter_caseworker_too_many", {}, None)
    case = store.open_case(
        session,
        conversation_id=tracker.sender_id,
        channel=tracker.get_latest_input_channel() or "unknown",
        language=language,
        organisation=answerer.organisation,
        request=own_words(tracker),
        assistant_answers=assistant_answers(tracker),
        now=now,
        urgent=urgent,
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
    return Handoff(
        "utter_caseworker_later", variables, case.id, case.channel, answerer.answers_from
    )


def remember_address(dispatcher: CollectingDispatcher, channel: str, now: datetime) -> None:
    """Before a case's first words: the channel seals the address it holds (never shown to the
    person), so that the caseworker's replies and "I am back" can reach them; kept as long as an
    untouched case is (retention), renewed by every reply (actions/cases/replies.py)."""
    if channel in ALERT_CHANNELS:
        until = now + conversation_retention()
        dispatcher.utter_message(json_message={REMEMBER_ADDRESS: {"expires_at": until.isoformat()}})


class ActionRequestCaseworker(DatabaseAction):
    """Opens (or finds) the conversation's case and pauses the conversation."""

    def name(self) -> str:
        return "action_request_caseworker"

    def step(self, turn: Turn) -> Events:
        handoff = request_caseworker(turn)
        events = self._tell(turn.dispatcher, turn.tracker, turn.language, turn.now, handoff)
        if handoff.response.startswith("utter_caseworker_later") and is_urgent(
            own_words(turn.tracker)
        ):
            tell_day_and_night_contacts(turn)  # "my child is bleeding" cannot wait till 08:00
        return events

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
        not_soon = handoff.response in ("utter_caseworker_none", "utter_caseworker_later")
        if not_soon and hotline is not None:
            # Nobody answers soon: the operator's number for what cannot wait.
            handoff = Handoff(
                f"{handoff.response}_hotline",
                {**handoff.variables, "hotline": isolate(hotline, language)},
                handoff.case_id,
                handoff.channel,
            )
        if handoff.case_id is not None:
            remember_address(dispatcher, handoff.channel, now)
        dispatcher.utter_message(response=handoff.response, **handoff.variables)
        if handoff.case_id is None:
            return []
        logger.info("%s: case %d opened", tracker.sender_id, handoff.case_id)
        if handoff.response.startswith("utter_caseworker_later"):
            # Nobody works now: the case waits and the person keeps the assistant until a
            # caseworker answers (docs/HANDOFF.md, "Never silent").
            dispatcher.utter_message(response="utter_caseworker_ask_problem_later")
            return [SlotSet(CASE_WAITING, True)]
        dispatcher.utter_message(response="utter_caseworker_ask_problem")
        # Rasa predicts nothing more once paused, so the turn would end without its closing
        # action_listen, and the rules for STOP, "delete my data" and "safety" (which follow an
        # action_listen) would never match in the paused conversation: end the turn here.
        waited = [SlotSet(CASE_WAITING, False)] if tracker.get_slot(CASE_WAITING) else []
        return [*waited, ConversationPaused(), ActionExecuted(ACTION_LISTEN)]


class ActionCaseClosed(Action):  # type: ignore[misc]  # rasa_sdk ships no type hints
    """The caseworker closed the case: the assistant takes the conversation back, and says so."""

    def name(self) -> str:
        return "action_case_closed"

    async def run(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: DomainDict
    ) -> list[dict[str, Any]]:
        dispatcher.utter_message(response="utter_caseworker_done")
        return [ConversationResumed(), SlotSet(CASE_WAITING, False)]


def receipt_due(tracker: Tracker, now: float) -> bool:
    """Whether a message for the case gets a "received": none was sent within
    ``RECEIPT_SECONDS`` (a burst of lines gets one)."""
    for event in reversed(tracker.events):
        if now - float(event.get("timestamp") or 0.0) > RECEIPT_SECONDS:
            return True
        metadata = event.get("metadata") or {}
        if event.get("event") == "bot" and metadata.get("utter_action") == RECEIVED:
            return False
    return True


def hours_of(contact: GuidanceTopic) -> Hours | None:
    """When a contact answers: its open hours; for one published before they existed, day and
    night when the English text editors give every contact says so; None when unknown."""
    if contact.open_hours:
        return Hours.parse(contact.open_hours)
    if ROUND_THE_CLOCK.search(fmt.text(contact, "hours", "en") or ""):
        return Hours.parse("00:00-00:00")
    return None


def day_and_night(contacts: Sequence[GuidanceTopic]) -> list[GuidanceTopic]:
    """The contacts that answer at any hour."""
    return [c for c in contacts if (hours := hours_of(c)) is not None and hours.round_the_clock]


def nobody_works(session: Session, case: Case, now: datetime) -> bool:
    """Whether no caseworker of the case's organisation works at ``now``."""
    if case.organisation_id is None:
        return True
    organisation = session.get(Organisation, case.organisation_id)
    return organisation is None or not staffed(organisation.case_hours, now)


def contact_line(contact: GuidanceTopic, language: str) -> str:
    """ "ICRC — Lost family members and the wounded +93 700 000 121": who, for what, a number."""
    brief = briefs.contact_brief(contact, language)
    if contact.organisation is None:
        return brief
    who = isolate_latin(fmt.text(contact.organisation, "name", language), language)
    return f"{who} — {brief}"


def tell_day_and_night_contacts(turn: Turn) -> None:
    """The current contacts that answer at any hour, one line each, when there are any."""
    current = queries.current_guidance(turn.session, turn.now, (GuidanceKind.CONTACTS,))
    contacts = day_and_night(current)
    if contacts:
        lines = "\n".join(contact_line(c, turn.language) for c in contacts)
        turn.dispatcher.utter_message(response="utter_case_urgent_contacts", contacts=lines)


class ActionAddToCase(DatabaseAction):
    """A message for the waiting case (outside caseworker hours, not paused): it goes into the
    case, the person is told "received" (once in a burst), and an urgent line or a plea for help
    while nobody works gets the numbers that answer day and night."""

    def name(self) -> str:
        return "action_add_to_case"

    def step(self, turn: Turn) -> Events:
        session, tracker, now = turn.session, turn.tracker, turn.now
        case = store.open_case_of(session, turn.conversation)
        if case is None:
            # Closed meanwhile (from the console, or deleted): the assistant's usual answer.
            turn.dispatcher.utter_message(response="utter_fallback")
            return [SlotSet(CASE_WAITING, False)]
        message = tracker.latest_message or {}
        urgent = store.add_line(session, case, own_words(tracker), now)
        if receipt_due(tracker, now.timestamp()):
            turn.dispatcher.utter_message(response=RECEIVED)
        asked_help = (message.get("intent") or {}).get("name") == "ask_help"
        if (urgent or asked_help) and nobody_works(session, case, now):
            tell_day_and_night_contacts(turn)
        return []


class ActionWithdrawCase(DatabaseAction):
    """ "cancel" / «لغو» / «لغوه یې کړه»: the request for a person is withdrawn (the case closes
    with a line saying so, the assistant is back); without an open case it stops alerts, as
    STOP does (carriers honour "cancel" as an opt-out)."""

    def name(self) -> str:
        return "action_withdraw_case"

    def step(self, turn: Turn) -> Events:
        case = store.open_case_of(turn.session, turn.conversation)
        if case is None:
            opt_out(turn)
            return []
        note = texts.render("cases.line_withdrawn", case.language)
        store.withdraw(turn.session, case, note, turn.now)
        logger.info("%s: case %d withdrawn by the person", turn.conversation, case.id)
        turn.dispatcher.utter_message(response="utter_case_withdrawn")
        return [ConversationResumed(), SlotSet(CASE_WAITING, False)]

    def unavailable(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, language: str, now: datetime
    ) -> Events:
        dispatcher.utter_message(response="utter_alerts_failed")
        return []
