"""What every action that works on the content database shares: one step, one session, one
worker thread, and failing softly.

A step reads (and may change) what the turn needs in one unit of work and utters its replies on
``turn.dispatcher``. Those replies are collected apart and go out only once the unit of work has
committed: a person must never be told "subscribed" or "deleted" about a change the database did
not keep. When the database cannot be used, the operator gets the traceback in the log and the
person what :meth:`DatabaseAction.unavailable` says (each action's own apology; nothing for the
messages the notifier sends, which it tries again later).

It lives in content, not in ``actions/common``: what it needs is content's (the content
database's unit of work, ``db.session_scope``, and the reader's language,
``localise.language_or_default``), and everything that uses it sits on content (the answering
actions here, the chat's actions, the console's preview), so the shared bottom layer stays free
of the database.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from rasa_sdk import Action, Tracker
from rasa_sdk.executor import CollectingDispatcher
from rasa_sdk.types import DomainDict
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from actions.common.clock import utc_now
from actions.content.db import session_scope
from actions.content.localise import language_or_default

logger = logging.getLogger(__name__)

#: Events an action returns to Rasa (``SlotSet``, ``ConversationPaused`` … as dicts).
Events = list[dict[str, Any]]


@dataclass(frozen=True)
class Turn:
    """What one database step works with: where its replies go, its session, the conversation,
    the language to answer in and the moment the turn happens at (one for the whole step)."""

    dispatcher: CollectingDispatcher
    session: Session
    tracker: Tracker
    language: str
    now: datetime

    @property
    def conversation(self) -> str:
        return str(self.tracker.sender_id)


class DatabaseAction(Action, ABC):  # type: ignore[misc]  # rasa_sdk ships no type hints
    """Runs :meth:`step` in a worker thread, so a slow database does not stall other
    conversations; an unusable database is logged and answered by :meth:`unavailable`."""

    #: The step writes nothing: on SQLite it then need not take turns with the writers.
    reads_only: ClassVar[bool] = False

    def __init__(self, clock: Callable[[], datetime] = utc_now) -> None:
        self._clock = clock

    @abstractmethod
    def step(self, turn: Turn) -> Events:
        """Read and change what the turn needs, utter on ``turn.dispatcher``; the events."""

    def unavailable(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, language: str, now: datetime
    ) -> Events:
        """What the person is told when the database cannot be used; by default nothing."""
        return []

    def in_session(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, language: str, now: datetime
    ) -> Events:
        """:meth:`step` in one unit of work (what the worker thread runs)."""
        with session_scope(self.reads_only) as session:
            return self.step(Turn(dispatcher, session, tracker, language, now))

    async def run(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: DomainDict
    ) -> Events:
        language = language_or_default(tracker.get_slot("language"))
        now = self._clock()
        collected = CollectingDispatcher()
        try:
            events = await asyncio.to_thread(self.in_session, collected, tracker, language, now)
        except (SQLAlchemyError, OSError):
            logger.error("%s: cannot use the content database", self.name(), exc_info=True)
            return self.unavailable(dispatcher, tracker, language, now)
        dispatcher.messages.extend(collected.messages)
        return events
