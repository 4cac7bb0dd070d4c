"""What every content action shares: language, clock, one session per run, failing softly.

An action only decides *which* response to send and fills its variables from the database;
the wording is in the domain. If the database cannot be read the user still gets an answer
(``utter_content_unavailable``; ``utter_content_unavailable_hotline`` with the operator's
``EMERGENCY_HOTLINE`` when that is set) and the operator gets the traceback in the log. Every
reply names the facts it presents as current; when one of them was last checked longer ago than
its kind's freshness limit (freshness.py), ``utter_content_may_be_outdated`` goes just before it.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from rasa_sdk import Action, Tracker
from rasa_sdk.executor import CollectingDispatcher
from rasa_sdk.types import DomainDict
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from actions.common.clock import utc_now
from actions.content import briefs
from actions.content import format as fmt
from actions.content.db import session_scope
from actions.content.freshness import stalest_check
from actions.content.localise import isolate, language_or_default
from actions.content.models import Provenance
from actions.settings import FreshnessLimits, emergency_hotline
from bot.contract import is_external

logger = logging.getLogger(__name__)

UNAVAILABLE = "utter_content_unavailable"
UNAVAILABLE_HOTLINE = "utter_content_unavailable_hotline"
MAY_BE_OUTDATED = "utter_content_may_be_outdated"


@dataclass(frozen=True)
class Reply:
    """The response to send, the data blocks it shows and the facts it presents as current."""

    response: str
    variables: dict[str, str] = field(default_factory=dict)
    #: Shown as current: their checks decide whether a freshness warning goes first.
    current: Sequence[Provenance] = ()
    #: Sent before everything else, e.g. which flights a number without letters matched.
    preface: tuple[Reply, ...] = ()


def latest_entity(tracker: Tracker, entity: str) -> str | None:
    """The first value of ``entity`` in the latest user message, stripped; None if absent."""
    for value in tracker.get_latest_entity_values(entity):
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def detail(tracker: Tracker, name: str) -> str | None:
    """A detail of the question being answered: its slot, which holds what this message named
    and, for a follow-up, what the questions before it named (bot/domain/followups.yml); the
    latest message's entity when the slot is empty."""
    value = tracker.get_slot(name)
    if isinstance(value, str) and value.strip():
        return value.strip()
    return latest_entity(tracker, name)


def asked_detail(tracker: Tracker) -> str | None:
    """Which detail an SMS reader asked for by number ("1 = who may board RCH871"): the
    ``detail`` entity of the option's payload, never typed, never extracted by the NLU."""
    return latest_entity(tracker, "detail")


def own_messages(tracker: Tracker) -> list[dict[str, Any]]:
    """The user events the person wrote, oldest first, as far as the tracker keeps them:
    alert triggers (``EXTERNAL_…`` intents, sent by the notifier) are not theirs."""
    return [
        event
        for event in tracker.events
        if event.get("event") == "user"
        and not is_external(((event.get("parse_data") or {}).get("intent") or {}).get("name"))
    ]


class ContentAction(Action, ABC):  # type: ignore[misc]  # rasa_sdk ships no type hints
    """Base of the actions that answer from the content database."""

    def __init__(
        self,
        clock: Callable[[], datetime] = utc_now,
        freshness: FreshnessLimits | None = None,
    ) -> None:
        self._clock = clock
        # Read once, when the action server creates its actions: a bad value stops the start.
        self._freshness = freshness if freshness is not None else FreshnessLimits.from_env()
        self._hotline = emergency_hotline()

    @abstractmethod
    def answer(self, session: Session, tracker: Tracker, language: str, now: datetime) -> Reply:
        """Read what the question needs and choose the reply (runs in a worker thread)."""

    def replies(
        self, session: Session, tracker: Tracker, language: str, now: datetime
    ) -> list[Reply]:
        """Everything the answer sends, in order; also what the editors' console previews."""
        reply = self.answer(session, tracker, language, now)
        warning = self._freshness_warning(reply, language, now)
        if reply.current and "checked" not in reply.variables:
            # The SMS forms carry the shortest provenance, and the warning in a few words.
            checked = briefs.checked(reply.current, now, language, stale=bool(warning))
            reply = replace(reply, variables={**reply.variables, "checked": checked})
        return [*reply.preface, *warning, reply]

    def _read(self, tracker: Tracker, language: str, now: datetime) -> list[Reply]:
        with session_scope() as session:
            return self.replies(session, tracker, language, now)

    def _freshness_warning(self, reply: Reply, language: str, now: datetime) -> list[Reply]:
        """Chat shows it as a message of its own; SMS variations of it are empty (docs/SMS.md)."""
        checked = stalest_check(reply.current, now, self._freshness)
        if checked is None:
            return []
        return [Reply(MAY_BE_OUTDATED, fmt.last_checked(checked, now, language))]

    def _unavailable(self, language: str) -> Reply:
        """The apology, with the operator's hotline if one is configured (kept whole in RTL)."""
        if self._hotline is None:
            return Reply(UNAVAILABLE)
        return Reply(UNAVAILABLE_HOTLINE, {"hotline": isolate(self._hotline, language)})

    async def run(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: DomainDict
    ) -> list[dict[str, Any]]:
        language = language_or_default(tracker.get_slot("language"))
        now = self._clock()
        try:
            # A worker thread, so a slow database does not stall other conversations.
            replies = await asyncio.to_thread(self._read, tracker, language, now)
        except (SQLAlchemyError, OSError):
            logger.error("%s: cannot read the content database", self.name(), exc_info=True)
            replies = [self._unavailable(language)]
        for reply in replies:
            dispatcher.utter_message(response=reply.response, **reply.variables)
        return []
