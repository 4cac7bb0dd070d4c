"""Subscribing to alerts, opting out and listing them: ``action_subscribe_alerts``,
``action_unsubscribe_alerts``, ``action_list_subscriptions``.

An opt-out ("STOP", "توقف", "بس") takes effect in this very turn: the subscriptions, every alert
still queued and the sealed address are gone before the confirmation is sent, even in the
middle of a broadcast (the notifier and ``action_send_alert`` check again before sending).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from rasa_sdk import Tracker
from rasa_sdk.executor import CollectingDispatcher
from sqlalchemy import select
from sqlalchemy.orm import Session

from actions import settings
from actions.alerts import subscriptions
from actions.alerts.models import EVERYWHERE, Subscription, Topic
from actions.alerts.subscriptions import Wish
from actions.cases.models import Case, CaseStatus
from actions.chat.airport import DEFAULT_AIRPORT
from actions.content import format as fmt
from actions.content import queries
from actions.content.database_action import DatabaseAction, Events, Turn
from actions.content.localise import isolate_latin, word
from kernel.contract import ALERT_CHANNELS, REMEMBER_ADDRESS
from kernel.lang import texts

logger = logging.getLogger(__name__)

FAILED = "utter_alerts_failed"
#: Statuses of a case that still holds the conversation (actions/cases/store.py).
OPEN_CASE = (CaseStatus.WAITING, CaseStatus.TAKEN)
#: Told to the bot runtime's channel, which seals the address it holds (bot/channels/addresses.py).


def wishes_in(session: Session, tracker: Tracker) -> list[Wish]:
    """What the latest message asks to be alerted about, from its entities.

    ``alert_topic`` names the topic; an ``airport`` entity means that airport's status, a
    ``destination`` flights to the airports serving it (all flights if none serves it).
    """
    entities = (tracker.latest_message or {}).get("entities") or []
    values: dict[str, list[str]] = {}
    for entity in entities:
        value = entity.get("value")
        if isinstance(value, str) and value.strip():
            values.setdefault(str(entity.get("entity")), []).append(value.strip())
    topics = set(values.get("alert_topic", []))
    wishes: list[Wish] = []
    if "airport" in topics or values.get("airport"):
        wishes += [Wish(Topic.AIRPORT, iata.upper()) for iata in values.get("airport", [])]
        if not values.get("airport"):
            wishes.append(Wish(Topic.AIRPORT, DEFAULT_AIRPORT))
    if "flights" in topics or values.get("destination"):
        airports = [
            airport
            for place in values.get("destination", [])
            for airport in queries.airports_at(session, place)
        ]
        wishes += [Wish(Topic.FLIGHTS, airport.iata) for airport in airports]
        if not airports:
            wishes.append(Wish(Topic.FLIGHTS, EVERYWHERE))
    if "announcements" in topics:
        wishes.append(Wish(Topic.ANNOUNCEMENTS))
    return sorted(set(wishes))


def topic_names(session: Session, rows: Sequence[Subscription], language: str) -> str:
    """The subscriptions in words, one per line: "airport status", "flights to Doha (DOH)"."""
    names: list[str] = []
    for row in rows:
        if row.topic is Topic.AIRPORT:
            name = texts.render("alerts.topic_airport", language)
            if row.topic_key != DEFAULT_AIRPORT:
                name += f" ({isolate_latin(row.topic_key, language)})"
        elif row.topic is Topic.FLIGHTS and row.topic_key == EVERYWHERE:
            name = texts.render("alerts.topic_flights_all", language)
        elif row.topic is Topic.FLIGHTS:
            airport = queries.airport_with_status(session, row.topic_key)
            place = fmt.place(airport, language) if airport else row.topic_key
            name = texts.render("alerts.topic_flights", language, destination=place)
        else:
            name = texts.render("alerts.topic_announcements", language)
        names.append(f"• {name}")
    return "\n".join(names) or word("label", "none", language)


class SubscriptionAction(DatabaseAction):
    """One subscription step; an unusable database is apologised for."""

    def unavailable(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, language: str, now: datetime
    ) -> Events:
        dispatcher.utter_message(response=FAILED)
        return []


class ActionSubscribeAlerts(SubscriptionAction):
    """ "Alert me when the airport opens", "flights to Doha", menu 7, or a topic button."""

    def name(self) -> str:
        return "action_subscribe_alerts"

    def step(self, turn: Turn) -> Events:
        channel = turn.tracker.get_latest_input_channel()
        if channel not in ALERT_CHANNELS:
            turn.dispatcher.utter_message(response="utter_alerts_channel_unsupported")
            return []
        wishes = wishes_in(turn.session, turn.tracker)
        if not wishes:
            listed = subscriptions.current(turn.session, turn.conversation, turn.now)
            if listed:
                _list(turn, listed)
            turn.dispatcher.utter_message(response="utter_ask_alert_topic")
            return []
        until = subscriptions.subscribe(
            turn.session,
            turn.conversation,
            channel,
            wishes,
            turn.language,
            turn.now,
            settings.subscription_ttl(),
        )
        rows = subscriptions.current(turn.session, turn.conversation, turn.now)
        # First the channel seals the address it holds (never shown to the user), then the
        # confirmation: the user is told only after the address was handed over.
        remember = {REMEMBER_ADDRESS: {"expires_at": until.isoformat()}}
        turn.dispatcher.utter_message(json_message=remember)
        turn.dispatcher.utter_message(
            response="utter_alerts_subscribed",
            topics=topic_names(turn.session, rows, turn.language),
            until=fmt.calendar_date(until, turn.language),
        )
        logger.info("%s subscribed to %d topic(s)", turn.conversation, len(rows))
        return []


class ActionUnsubscribeAlerts(SubscriptionAction):
    """ "STOP", "unsubscribe", "توقف", "بس": everything stops in this turn."""

    def name(self) -> str:
        return "action_unsubscribe_alerts"

    def step(self, turn: Turn) -> Events:
        opt_out(turn)
        return []


def opt_out(turn: Turn) -> None:
    """Ends every subscription now, and says so truthfully: while a case is open the
    caseworker's reply still comes to this chat (only "delete my data" stops that)."""
    case_open = turn.session.scalar(
        select(Case.id)
        .where(Case.conversation_id == turn.conversation, Case.status.in_(OPEN_CASE))
        .limit(1)
    )
    # A caseworker's replies still need the address while the case is open.
    removed = subscriptions.unsubscribe(
        turn.session, turn.conversation, turn.now, keep_address=case_open is not None
    )
    if removed:
        logger.info("%s unsubscribed from %d topic(s)", turn.conversation, removed)
    response = "utter_alerts_unsubscribed" if removed else "utter_no_subscriptions"
    turn.dispatcher.utter_message(response=f"{response}_case" if case_open else response)


class ActionListSubscriptions(SubscriptionAction):
    """ "Which alerts do I get?"."""

    def name(self) -> str:
        return "action_list_subscriptions"

    def step(self, turn: Turn) -> Events:
        listed = subscriptions.current(turn.session, turn.conversation, turn.now)
        if listed:
            _list(turn, listed)
        else:
            turn.dispatcher.utter_message(response="utter_no_subscriptions")
        return []


def _list(turn: Turn, rows: Sequence[Subscription]) -> None:
    until = min(row.expires_at for row in rows)
    turn.dispatcher.utter_message(
        response="utter_subscriptions_list",
        topics=topic_names(turn.session, rows, turn.language),
        until=fmt.calendar_date(until, turn.language),
    )
