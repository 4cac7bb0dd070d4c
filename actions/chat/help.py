"""``action_answer_help``: who can help, how to reach them and when, each with its last check."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final

from actions.chat.answers import AnswerFirst
from actions.chat.nearby import NEARBY_SHOWN, answer_near
from actions.content import briefs, queries
from actions.content import format as fmt
from actions.content.answering import DETAIL, DETAILED, Reply, Shows, asked_detail, shows
from actions.content.database_action import Turn
from actions.content.models import GuidanceKind

#: Contacts an SMS answer lists, one line each, with a check line per source (each contact is
#: usually checked by its own organisation, whose name is long): two fit in three segments of
#: English, one of Dari or Pashto. The rest, with hours, on request by number.
SMS_CONTACTS: Final[dict[str, int]] = {"en": 2, "prs": 1, "ps": 1}


class ActionAnswerHelp(AnswerFirst):
    """Answers "who can help?", "UNHCR number?", "I am in danger" with the checked contacts.

    Each contact shows its own verification line: a number is only as good as its last check.
    Without a current contact the reply still tells people what to do (``utter_help_none``);
    it never makes up or recalls a number nobody has checked. A question about a place (a
    shared location, "near Baron Hotel") gets the nearest gates and help points instead
    (nearby.py), or these contacts when nothing is near.
    """

    RESPONSES: ClassVar[Mapping[str, Shows]] = {
        "utter_help": shows("contacts", sms=("contacts_brief", "checked")),
        "utter_help_none": shows(),
        **NEARBY_SHOWN,
        **DETAILED,
    }

    def name(self) -> str:
        return "action_answer_help"

    def answer(self, turn: Turn) -> Reply:
        session, tracker, language, now = turn.session, turn.tracker, turn.language, turn.now
        near = answer_near(session, tracker, language, now)
        if near is not None:
            return near
        contacts = queries.current_guidance(session, now, (GuidanceKind.CONTACTS,))
        if not contacts:
            return Reply("utter_help_none")
        blocks = "\n\n".join(fmt.contact_block(contact, now, language) for contact in contacts)
        if asked_detail(tracker) == "contacts":
            return Reply(DETAIL, {"detail": blocks}, current=contacts)
        shown = contacts[: SMS_CONTACTS.get(language, 1)]
        brief = "\n".join(briefs.contact_brief(contact, language) for contact in shown)
        # The SMS form vouches for the numbers it shows: their check, not the others'.
        return Reply(
            "utter_help",
            {"contacts": blocks, "contacts_brief": brief},
            current=contacts,
            listed=shown,
        )
