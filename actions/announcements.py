"""``action_answer_announcements``: the latest official announcements and how far to trust them."""

from __future__ import annotations

from datetime import datetime

from rasa_sdk import Tracker
from sqlalchemy.orm import Session

from actions.content import format as fmt
from actions.content import queries
from actions.content.answering import ContentAction, Reply

LATEST = 3


class ActionAnswerAnnouncements(ContentAction):
    """Answers "what did the Taliban / the embassy announce?" with the three newest in force."""

    def name(self) -> str:
        return "action_answer_announcements"

    def answer(self, session: Session, tracker: Tracker, language: str, now: datetime) -> Reply:
        announcements = queries.latest_announcements(session, now, LATEST)
        if not announcements:
            return Reply("utter_announcements_none")
        blocks = (fmt.announcement_block(item, now, language) for item in announcements)
        return Reply(
            "utter_announcements", {"announcements": "\n\n".join(blocks)}, current=announcements
        )
