"""``action_answer_announcements``: the latest official announcements and how far to trust them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import ClassVar

from actions.chat.answers import AnswerFirst
from actions.content import briefs, queries, topics
from actions.content import format as fmt
from actions.content.answering import DETAIL, DETAILED, Reply, Shows, asked_detail, shows
from actions.content.database_action import Turn
from actions.content.keys import same_key
from actions.content.localise import isolate_latin
from actions.content.models import Announcement

LATEST = 3
#: Announcements searched for the topic asked about: all in force, as editors keep few.
ON_TOPIC_SEARCH = 50


class ActionAnswerAnnouncements(AnswerFirst):
    """Answers "what did the Taliban / the embassy announce?" with the three newest in force,
    and "amnesty?", "عفو", "بښنه", "Germany's embassy?" with the one on that topic first and
    one line about the others (topics.py finds it by the announcements' own words)."""

    RESPONSES: ClassVar[Mapping[str, Shows]] = {
        "utter_announcements": shows("announcements", sms=("lead", "checked", "others")),
        "utter_announcement_on_topic": shows(
            "announcement", "others", sms=("lead", "checked", "others")
        ),
        "utter_announcements_none": shows(),
        **DETAILED,
    }

    def name(self) -> str:
        return "action_answer_announcements"

    def answer(self, turn: Turn) -> Reply:
        session, tracker, language, now = turn.session, turn.tracker, turn.language, turn.now
        announcements = queries.latest_announcements(session, now, ON_TOPIC_SEARCH)
        if not announcements:
            return Reply("utter_announcements_none")
        wanted = same_key(asked_detail(tracker) or "")
        chosen = next((item for item in announcements if same_key(item.slug) == wanted), None)
        if chosen is not None:
            return full_text(chosen, now, language)
        lead, others = topics.on_topic(announcements, str(tracker.latest_message.get("text") or ""))
        if lead is not None:
            variables = {
                "announcement": fmt.announcement_block(lead, now, language),
                **short_forms(lead, others, language),
            }
            return Reply("utter_announcement_on_topic", variables, current=[lead])
        latest = announcements[:LATEST]
        blocks = (fmt.announcement_block(item, now, language) for item in latest)
        return Reply(
            "utter_announcements",
            {
                "announcements": "\n\n".join(blocks),
                **short_forms(latest[0], announcements[1:], language),
            },
            current=latest,
            # The SMS form shows the newest alone, with its own check and source.
            listed=latest[:1],
        )


def short_forms(
    lead: Announcement, others: Sequence[Announcement], language: str
) -> dict[str, str]:
    """The SMS variations' parts: the announcement first (title, trust, issuer), the topics
    of the others in one line (not the lead's own: writing it would bring the lead back), and
    the key of the full text offered by number."""
    return {
        "lead": briefs.announcement_brief(lead, language),
        "others": briefs.other_topics(
            [item for item in others if item.kind != lead.kind], language
        ),
        "lead_key": lead.slug,
    }


def full_text(announcement: Announcement, now: datetime, language: str) -> Reply:
    """The text of one announcement, asked for by number after its title."""
    text = isolate_latin(fmt.text(announcement, "text", language), language)
    detail = f"{briefs.trust(announcement, language)}: {text}"
    return Reply(DETAIL, {"detail": detail}, current=[announcement])
