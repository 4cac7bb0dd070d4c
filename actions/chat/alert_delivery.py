"""``action_send_alert``: writes one queued alert for its subscriber.

The notifier triggers ``EXTERNAL_alert`` with the delivery's id through Rasa's HTTP API; Rasa
runs this action and sends what it utters through the subscriber's channel. The action:

1. checks the delivery is still being sent and not already delivered, and that the
   subscriber still wants this topic (an opt-out in the middle of a broadcast wins);
2. writes the alert from the content as it is *now* (a flight changed again since the editor
   published is shown as it is), in the conversation's language or, for a conversation the
   retention period has already forgotten, the language the user subscribed in; the verdict
   on a rumour (topic ``claims``) in the language the person asked in (``claim_alert.py``);
3. on WhatsApp, outside the 24-hour window in which WhatsApp allows free text, sends the same
   text as the parameter of the approved template instead;
4. tags the message with the delivery id (custom payload ``alert_delivery``): the channel
   claims the delivery right before it sends, so it goes out once however often it is
   triggered (``bot/channels/deliveries.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from rasa_sdk import Tracker
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from actions import settings
from actions.alerts import subscriptions
from actions.alerts.models import Broadcast, Delivery, DeliveryStatus, Subscription, Topic
from actions.chat import answer_alert, claim_alert
from actions.chat.airport import airport_reply
from actions.claims import askers
from actions.content import format as fmt
from actions.content.answering import Reply, latest_entity, own_messages
from actions.content.database_action import DatabaseAction, Events, Turn
from actions.content.localise import language_or_default
from actions.content.models import Announcement, Flight, RecordKind, Revision
from kernel.contract import ALERT_DELIVERY, WHATSAPP_TEMPLATE, language_metadata
from kernel.lang import texts
from kernel.lang.tags import WHATSAPP_LANGUAGES

logger = logging.getLogger(__name__)

WHATSAPP_WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class Alert:
    text: str
    language: str


def alert_reply(
    session: Session, broadcast: Broadcast, language: str, now: datetime
) -> Reply | None:
    """The alert's body as a catalogue id (``kernel/lang/texts/alerts.py``) and its variables;
    None if nothing is left to say."""
    revision = session.get(Revision, broadcast.revision_id)
    if revision is None:
        return None
    if broadcast.topic is Topic.AIRPORT:
        reply = airport_reply(session, broadcast.topic_key, language, now)
        if reply.response != "utter_airport_status":
            return None  # unknown or out of date by now: a later check will say more
        return Reply("alerts.airport", reply.variables)
    if broadcast.topic is Topic.FLIGHTS:
        flight = session.get(Flight, revision.record_id)
        if flight is None or flight.withdrawn_at is not None:
            return None
        return Reply(
            "alerts.flights",
            {
                "flights": fmt.flight_line(flight, language),
                "provenance": fmt.provenance([flight], now, language),
            },
        )
    announcement = session.get(Announcement, revision.record_id)
    if announcement is None or announcement.withdrawn_at is not None:
        return None
    block = fmt.announcement_block(announcement, now, language)
    return Reply("alerts.announcement", {"announcements": block})


def outside_whatsapp_window(tracker: Tracker, now: datetime) -> bool:
    """Whether the user's last own message (not an alert trigger) is over 24 hours old."""
    own = own_messages(tracker)
    if not own:
        return True  # no message of theirs is kept (retention): assume the window has closed
    sent = datetime.fromtimestamp(float(own[-1].get("timestamp") or 0), timezone.utc)
    return now - sent > WHATSAPP_WINDOW


def utter_out_of_turn(
    turn: Turn,
    channel: str | None,
    text: str,
    language: str,
    tag: dict[str, int],
    template: str,
) -> None:
    """Says ``text`` to a person who did not just write (an alert, a caseworker's reply),
    ``tag`` naming its outbox row for the channel; on WhatsApp outside the 24-hour window as
    the parameter of the approved ``template``, the only message WhatsApp lets through."""
    if channel == "whatsapp" and outside_whatsapp_window(turn.tracker, turn.now):
        message = {
            "name": template,
            # What Meta calls our language (kernel/lang/tags.py).
            "language": WHATSAPP_LANGUAGES[language],
            # The finished text: the WhatsApp channel makes it one line Meta accepts.
            "parameters": [text],
        }
        turn.dispatcher.utter_message(json_message={WHATSAPP_TEMPLATE: message, **tag})
        return
    # Named, so that the channel writes what it adds (the SMS MORE hint) in it too.
    metadata = language_metadata(language)
    turn.dispatcher.utter_message(text=text, json_message=tag, metadata=metadata)


@dataclass(frozen=True)
class AskedWriter:
    """How the alert for those who asked is written: the kind of record they asked about
    (their ask gives the language) and the text (None: the record is gone)."""

    kind: RecordKind
    text: Callable[[Session, Revision, str, datetime, str | None], str | None]


ASKED: dict[Topic, AskedWriter] = {
    Topic.CLAIMS: AskedWriter(RecordKind.CLAIM, claim_alert.claim_alert),
    Topic.ANSWERS: AskedWriter(RecordKind.ANSWER, answer_alert.answer_alert),
}


class ActionSendAlert(DatabaseAction):
    """Writes one alert for the person; when the database cannot be used nothing is sent, and
    the notifier, seeing the delivery undelivered after Rasa's answer, tries again later."""

    def name(self) -> str:
        return "action_send_alert"

    def _write(
        self, session: Session, tracker: Tracker, delivery_id: int, now: datetime
    ) -> Alert | None:
        delivery = session.get(Delivery, delivery_id)
        if delivery is None or delivery.conversation_id != tracker.sender_id:
            logger.warning("alert delivery %s is not for this conversation", delivery_id)
            return None
        broadcast = session.get(Broadcast, delivery.broadcast_id)
        assert broadcast is not None  # a foreign key
        if broadcast.topic in ASKED:
            return self._asked(session, delivery, broadcast, now, ASKED[broadcast.topic])
        if not subscriptions.still_wanted(
            session, delivery.conversation_id, broadcast.topic, broadcast.topic_key, now
        ):
            _finish(session, delivery_id, DeliveryStatus.CANCELLED, now)
            return None
        if delivery.status is not DeliveryStatus.SENDING or delivery.delivered_at is not None:
            logger.info("alert delivery %s is not being sent: nothing written", delivery_id)
            return None
        language = self._language(session, tracker, delivery)
        reply = alert_reply(session, broadcast, language, now)
        if reply is None:
            _finish(session, delivery_id, DeliveryStatus.SUPERSEDED, now)
            return None
        return Alert(texts.render(reply.response, language, **reply.variables), language)

    @staticmethod
    def _asked(
        session: Session,
        delivery: Delivery,
        broadcast: Broadcast,
        now: datetime,
        writer: AskedWriter,
    ) -> Alert | None:
        """The verdict on a rumour or the answer to a question the person asked about, in
        the language they asked in; nothing once their ask is deleted ("delete my data") or
        the record withdrawn."""
        revision = session.get(Revision, broadcast.revision_id)
        assert revision is not None  # a foreign key
        # The language the person asked in; no ask after "delete my data", STOP or its
        # ``answer_by``, and then nothing is sent even if the delivery was already claimed.
        ask = askers.asked_about(session, delivery.conversation_id, revision.record_id, writer.kind)
        if ask is None:
            _finish(session, delivery.id, DeliveryStatus.CANCELLED, now)
            return None
        if delivery.status is not DeliveryStatus.SENDING or delivery.delivered_at is not None:
            logger.info("alert delivery %s is not being sent: nothing written", delivery.id)
            return None
        language = language_or_default(ask.language)
        text = writer.text(session, revision, language, now, delivery.channel)
        if text is None:
            _finish(session, delivery.id, DeliveryStatus.SUPERSEDED, now)
            return None
        return Alert(text, language)

    @staticmethod
    def _language(session: Session, tracker: Tracker, delivery: Delivery) -> str:
        slot = tracker.get_slot("language")
        if slot:
            return language_or_default(slot)
        subscribed_in = session.scalar(
            select(Subscription.language)
            .where(Subscription.conversation_id == delivery.conversation_id)
            .limit(1)
        )
        return language_or_default(subscribed_in)

    def step(self, turn: Turn) -> Events:
        tracker, now = turn.tracker, turn.now
        raw = latest_entity(tracker, ALERT_DELIVERY) or ""
        if not raw.isdigit():
            logger.warning("EXTERNAL_alert without a delivery id: nothing sent")
            return []
        alert = self._write(turn.session, tracker, int(raw), now)
        if alert is None:
            return []
        utter_out_of_turn(
            turn,
            tracker.get_latest_input_channel(),
            alert.text,
            alert.language,
            {ALERT_DELIVERY: int(raw)},
            settings.whatsapp_alert_template(),
        )
        return []


def _finish(session: Session, delivery_id: int, status: DeliveryStatus, now: datetime) -> None:
    session.execute(
        update(Delivery)
        .where(Delivery.id == delivery_id, Delivery.status == DeliveryStatus.SENDING)
        .values(status=status, finished_at=now)
    )
