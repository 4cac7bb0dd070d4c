"""``action_answer_help``: who can help, how to reach them and when, each with its last check."""

from __future__ import annotations

from datetime import datetime

from rasa_sdk import Tracker
from sqlalchemy.orm import Session

from actions.content import format as fmt
from actions.content import queries
from actions.content.answering import ContentAction, Reply
from actions.content.models import GuidanceKind


class ActionAnswerHelp(ContentAction):
    """Answers "who can help?", "UNHCR number?", "I am in danger" with the checked contacts.

    Each contact shows its own verification line: a number is only as good as its last check.
    Without a current contact the reply still tells people what to do (``utter_help_none``);
    it never makes up or recalls a number nobody has checked.
    """

    def name(self) -> str:
        return "action_answer_help"

    def answer(self, session: Session, tracker: Tracker, language: str, now: datetime) -> Reply:
        contacts = queries.current_guidance(session, now, (GuidanceKind.CONTACTS,))
        if not contacts:
            return Reply("utter_help_none")
        blocks = (fmt.contact_block(contact, now, language) for contact in contacts)
        return Reply("utter_help", {"contacts": "\n\n".join(blocks)}, current=contacts)
