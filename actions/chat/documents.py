"""``action_answer_documents``: which documents to bring and who may board, as operators say."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import ClassVar

from actions.chat.airport import AIRPORT_STATUS, DEFAULT_AIRPORT, airport_reply
from actions.chat.answers import AnswerFirst
from actions.chat.claim_verdicts import RumourFirst
from actions.content import briefs, queries
from actions.content import format as fmt
from actions.content.answering import DETAIL, DETAILED, Reply, Shows, asked_detail, shows
from actions.content.database_action import Turn
from actions.content.models import GuidanceKind, GuidanceTopic
from kernel.lang.gate_words import names_a_gate
from kernel.lang.sms_lists import SMS_TITLES

KINDS = (GuidanceKind.DOCUMENTS, GuidanceKind.ELIGIBILITY)
#: Details an SMS answer offers by number: the advice of each part in full.
DETAILS = {"documents": GuidanceKind.DOCUMENTS, "eligibility": GuidanceKind.ELIGIBILITY}


def checked_lines(topics: Sequence[GuidanceTopic], now: datetime, language: str) -> str:
    """One "• title: advice" line per topic, each followed by its own check, as flights and
    gates have: checks gathered at the end of a part say which source vouches for the part,
    not for which item, and the reader cannot tell a fresh item from one checked hours ago."""
    if not topics:
        return fmt.guidance_lines(topics, language)
    return "\n".join(
        f"{fmt.guidance_lines([topic], language)}\n  {fmt.verified(topic, now, language)}"
        for topic in topics
    )


class ActionAnswerDocuments(AnswerFirst, RumourFirst):
    """Answers "which documents?", "is a tazkira enough?", "can my parents come too?"; a
    question that also asks for a gate ("which gate for SIV holders?") gets the gates too."""

    RESPONSES: ClassVar[Mapping[str, Shows]] = {
        "utter_documents": shows(
            "documents", "eligibility", sms=("document_titles", "eligibility_titles", "checked")
        ),
        "utter_documents_none": shows(),
        **AIRPORT_STATUS,
        **DETAILED,
    }

    def name(self) -> str:
        return "action_answer_documents"

    def replies(self, turn: Turn) -> list[Reply]:
        answer = super().replies(turn)
        if not names_a_gate(str((turn.tracker.latest_message or {}).get("text") or "")):
            return answer
        stale = self.is_stale(turn.now)
        gates = airport_reply(turn.session, DEFAULT_AIRPORT, turn.language, turn.now, stale)
        return [*answer, *self.completed(gates, turn)]

    def answer(self, turn: Turn) -> Reply:
        session, tracker, language, now = turn.session, turn.tracker, turn.language, turn.now
        topics = queries.current_guidance(session, now, KINDS)
        if not topics:
            return Reply("utter_documents_none")
        # Both parts always: half the answer (documents without who may board) would mislead.
        documents = [topic for topic in topics if topic.kind is GuidanceKind.DOCUMENTS]
        eligibility = [topic for topic in topics if topic.kind is GuidanceKind.ELIGIBILITY]
        wanted = DETAILS.get(asked_detail(tracker) or "")
        if wanted is not None:
            part = documents if wanted is GuidanceKind.DOCUMENTS else eligibility
            detail = fmt.guidance_lines(part, language)
            return Reply(DETAIL, {"detail": detail}, current=part)
        # The titles an SMS answer names of each part (per language: kernel/lang/sms_lists.py);
        # the advice itself is a detail offered by number.
        titles = SMS_TITLES[language]
        return Reply(
            "utter_documents",
            {
                "documents": checked_lines(documents, now, language),
                "eligibility": checked_lines(eligibility, now, language),
                "document_titles": briefs.titles(documents, language, titles),
                "eligibility_titles": briefs.titles(eligibility, language, titles),
            },
            current=topics,
            # The SMS form names only the first titles of each part: it vouches for those.
            listed=[*documents[:titles], *eligibility[:titles]],
        )
