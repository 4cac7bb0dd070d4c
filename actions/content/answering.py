"""What every content action shares: language, clock, one session per run, failing softly.

An action only decides *which* response to send and fills its variables from the database;
the wording is in the domain. If the database cannot be read the user still gets an answer
(``utter_content_unavailable``; ``utter_content_unavailable_hotline`` with the operator's
``EMERGENCY_HOTLINE`` when that is set) and the operator gets the traceback in the log. Every
reply names the facts it presents as current; when one of them was last checked longer ago than
its kind's freshness limit (freshness.py), ``utter_content_may_be_outdated`` goes just before it.
"""

from __future__ import annotations

import logging
from abc import abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, ClassVar, Final

from rasa_sdk import Tracker
from rasa_sdk.executor import CollectingDispatcher

from actions.common.clock import utc_now
from actions.content import briefs
from actions.content import format as fmt
from actions.content.database_action import DatabaseAction, Events, Turn
from actions.content.freshness import stalest_check
from actions.content.localise import isolate
from actions.content.models import Provenance
from actions.settings import FreshnessLimits, emergency_hotline
from kernel.contract import is_external

logger = logging.getLogger(__name__)

UNAVAILABLE = "utter_content_unavailable"
UNAVAILABLE_HOTLINE = "utter_content_unavailable_hotline"
MAY_BE_OUTDATED = "utter_content_may_be_outdated"
#: A detail asked for by number on SMS ("1 = who may board RCH871"), in full.
DETAIL = "utter_detail"


@dataclass(frozen=True)
class Shows:
    """What a response shows of the variables its action fills: in its chat variations, and in
    its SMS variations (``channel: sms_gateway``/``twilio_sms``) when it has them (None: it has
    none). Declared beside the code that sends the response, so that the domain's wording is
    checked against the code (tests/actions/test_content_wiring.py), not against a copy."""

    chat: frozenset[str] = frozenset()
    sms: frozenset[str] | None = None


def shows(*chat: str, sms: Iterable[str] | None = None) -> Shows:
    """``Shows`` of the chat variables ``chat`` and the SMS variables ``sms``."""
    return Shows(frozenset(chat), None if sms is None else frozenset(sms))


#: What an answer that lists its facts sends when one is asked for by number.
DETAILED: Final[Mapping[str, Shows]] = {DETAIL: shows("detail", "checked")}


@dataclass(frozen=True)
class Reply:
    """The response to send, the data blocks it shows and the facts it presents as current."""

    response: str
    variables: dict[str, str] = field(default_factory=dict)
    #: Shown as current: their checks decide whether a freshness warning goes first.
    current: Sequence[Provenance] = ()
    #: What the SMS form lists, when that is fewer than ``current`` (three flights of five, the
    #: gate without its airport): its ``{checked}`` lines vouch for these and no others.
    listed: Sequence[Provenance] | None = None
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


class ContentAction(DatabaseAction):
    """Base of the actions that answer from the content database."""

    reads_only = True
    #: The responses the action may send, each with what it shows; a class declares its own,
    #: and ``responses`` adds its bases'. What every content action may send is declared here.
    RESPONSES: ClassVar[Mapping[str, Shows]] = {
        MAY_BE_OUTDATED: shows("checked_ago", "checked_at", sms=()),
        UNAVAILABLE: shows(),
        UNAVAILABLE_HOTLINE: shows("hotline"),
    }

    @classmethod
    def responses(cls) -> dict[str, Shows]:
        """Every response the action may send: its own ``RESPONSES`` and its bases'."""
        merged: dict[str, Shows] = {}
        for klass in reversed(cls.__mro__):
            merged.update(vars(klass).get("RESPONSES", {}))
        return merged

    def __init__(
        self,
        clock: Callable[[], datetime] = utc_now,
        freshness: FreshnessLimits | None = None,
    ) -> None:
        super().__init__(clock)
        # Read once, when the action server creates its actions: a bad value stops the start.
        self._freshness = freshness if freshness is not None else FreshnessLimits.from_env()
        self._hotline = emergency_hotline()

    @abstractmethod
    def answer(self, turn: Turn) -> Reply:
        """Read what the question needs and choose the reply (runs in a worker thread)."""

    def replies(self, turn: Turn) -> list[Reply]:
        """Everything the answer sends, in order; also what the editors' console previews."""
        return self.completed(self.answer(turn), turn)

    def completed(self, reply: Reply, turn: Turn) -> list[Reply]:
        """A reply with what every answer adds: its freshness warning, its SMS check line."""
        warning = self._freshness_warning(reply, turn.language, turn.now)
        listed = reply.current if reply.listed is None else reply.listed
        if listed and "checked" not in reply.variables:
            # The SMS forms carry the shortest provenance, and the warning in a few words.
            checked = briefs.checked(listed, turn.now, turn.language, self.is_stale(turn.now))
            reply = replace(reply, variables={**reply.variables, "checked": checked})
        return [*reply.preface, *warning, reply]

    def step(self, turn: Turn) -> Events:
        send(turn.dispatcher, self.replies(turn))
        return []

    def unavailable(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, language: str, now: datetime
    ) -> Events:
        """The apology, with the operator's hotline if one is configured (kept whole in RTL)."""
        if self._hotline is None:
            send(dispatcher, [Reply(UNAVAILABLE)])
        else:
            hotline = isolate(self._hotline, language)
            send(dispatcher, [Reply(UNAVAILABLE_HOTLINE, {"hotline": hotline})])
        return []

    def is_stale(self, now: datetime) -> Callable[[Provenance], bool]:
        """Whether a fact was last checked longer ago than its kind's freshness limit."""
        return lambda fact: stalest_check([fact], now, self._freshness) is not None

    def _freshness_warning(self, reply: Reply, language: str, now: datetime) -> list[Reply]:
        """Chat shows it as a message of its own; SMS variations of it are empty (docs/SMS.md)."""
        checked = stalest_check(reply.current, now, self._freshness)
        if checked is None:
            return []
        return [Reply(MAY_BE_OUTDATED, fmt.last_checked(checked, now, language))]


def send(dispatcher: CollectingDispatcher, replies: Sequence[Reply]) -> None:
    for reply in replies:
        dispatcher.utter_message(response=reply.response, **reply.variables)
