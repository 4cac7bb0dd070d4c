"""The answer a person will get once a change is published, per language, on chat and SMS.

Rendered by the action server's own code: the content action that answers the question this
record is about (``replies``: its data blocks, the freshness warning) and the domain's wording
(``responses.py``, the same files Rasa loads), so the preview cannot drift from
the answer. SMS segments are counted by ``bot/channels/sms_segments.py``, the standard-library
module the SMS channels use (docs/ARCHITECTURE.md lists it as shared).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rasa_sdk import Tracker
from rasa_sdk.executor import CollectingDispatcher
from sqlalchemy.orm import Session

from actions.admin.console.responses import wording
from actions.airport import ActionAnswerAirportStatus
from actions.announcements import ActionAnswerAnnouncements
from actions.common.database_action import Turn
from actions.content.answering import ContentAction
from actions.content.models import GuidanceKind, GuidanceTopic
from actions.content.revision import RecordKind
from actions.documents import ActionAnswerDocuments
from actions.flights import ActionAnswerFlights
from actions.help import ActionAnswerHelp
from actions.settings import FreshnessLimits
from bot.channels.sms_segments import MAX_SEGMENTS, segment_count
from bot.lang.codes import LANGUAGES


@dataclass(frozen=True)
class Answer:
    language: str
    messages: list[str]
    segments: int

    @property
    def cut_on_sms(self) -> bool:
        return self.segments > MAX_SEGMENTS


class Answers:
    """The content actions, made once (they read their settings when created)."""

    def __init__(self, limits: FreshnessLimits) -> None:
        self.airport = ActionAnswerAirportStatus(freshness=limits)
        self.flights = ActionAnswerFlights(freshness=limits)
        self.announcements = ActionAnswerAnnouncements(freshness=limits)
        self.documents = ActionAnswerDocuments(freshness=limits)
        self.help = ActionAnswerHelp(freshness=limits)

    def question(
        self, kind: RecordKind, key: str, row: Any
    ) -> tuple[ContentAction, dict[str, str]] | None:
        """Which action answers about this record, and the entities of the question."""
        if kind in (RecordKind.AIRPORT, RecordKind.AIRPORT_NAME):
            return self.airport, {"airport": key}
        if kind is RecordKind.GATE:
            return self.airport, {"airport": key.split("/", 1)[0]}
        if kind is RecordKind.FLIGHT:
            return self.flights, {"flight_number": key.split("@", 1)[0]}
        if kind is RecordKind.ANNOUNCEMENT:
            return self.announcements, {}
        if kind is RecordKind.GUIDANCE and isinstance(row, GuidanceTopic):
            return (self.help if row.kind is GuidanceKind.CONTACTS else self.documents), {}
        return None  # organisations appear inside other answers

    def render(
        self, session: Session, kind: RecordKind, key: str, row: Any, now: datetime
    ) -> list[Answer]:
        asked = self.question(kind, key, row)
        if asked is None:
            return []
        action, entities = asked
        shown = []
        for language in LANGUAGES:
            tracker = _tracker(language, entities)
            messages = [
                wording().text(reply.response, language, **reply.variables)
                for reply in action.replies(
                    Turn(CollectingDispatcher(), session, tracker, language, now)
                )
            ]
            segments = sum(segment_count(message) for message in messages)
            shown.append(Answer(language, messages, segments))
        return shown


def _tracker(language: str, entities: dict[str, str]) -> Tracker:
    latest = {
        "text": "",
        "intent": {"name": "", "confidence": 1.0},
        "entities": [{"entity": name, "value": value} for name, value in entities.items()],
    }
    return Tracker("console-preview", {"language": language}, latest, [], False, None, {}, None)
