"""The answer a person will get once a change is published, per language, on chat and SMS.

Rendered by the action server's own code: the content action that answers the question this
record is about (``replies``: its data blocks, the freshness warning) and the domain's wording
(``responses.py``, the same files Rasa loads), so the preview cannot drift from the answer.

* **The question the change answers first.** A gate's change is previewed as the answer to
  "is Abbey Gate open?", the airport's whole answer (every gate) folded below it; other kinds
  as the answer to their own question.
* **SMS as sent.** The SMS variation of each response, through the SMS channels' own renderer
  (``kernel/sms_render.py``: numbered options, characters for basic phones, three
  segments and "MORE"), with its segments counted by ``sms_segments.py`` — the text a person
  on a cheap phone gets, not a count of the chat answer's segments.
* **What changed.** Each line of the answer that reads differently from the answer before the
  change is marked, per language, so an editor who cannot read Pashto still sees whether the
  Pashto answer changed where she expects it to.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import pkgutil
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from rasa_sdk import Tracker
from rasa_sdk.executor import CollectingDispatcher
from sqlalchemy.orm import Session

from actions import chat
from actions.admin.console.responses import wording
from actions.content import format as fmt
from actions.content import queries
from actions.content.answering import ContentAction, Reply
from actions.content.database_action import Turn
from actions.content.localise import word
from actions.content.models import Claim, GuidanceTopic
from actions.content.records import SPECS
from actions.content.revision import RecordKind
from actions.settings import FreshnessLimits
from kernel.lang.codes import LANGUAGES
from kernel.sms_render import ReplyRenderer
from kernel.sms_segments import MAX_SEGMENTS, segment_count


@dataclass(frozen=True)
class Line:
    """One line of an answer, and whether it reads differently from before the change."""

    text: str
    changed: bool = False


@dataclass(frozen=True)
class Sms:
    """One text message as the SMS channel sends it."""

    text: str
    segments: int


@dataclass
class Answer:
    language: str
    #: The chat messages answering the question the change is about, line by line.
    messages: list[list[Line]]
    #: The same answer as the SMS channels send it.
    sms: list[Sms] = field(default_factory=list)
    #: The whole page the record is part of (a gate's airport), shown folded; often empty.
    full: list[list[Line]] = field(default_factory=list)
    #: The question answered, as a person asks it in this language ("is Abbey Gate open?").
    question: str = ""

    @property
    def segments(self) -> int:
        return sum(message.segments for message in self.sms)

    @property
    def cut_on_sms(self) -> bool:
        return any(message.segments > MAX_SEGMENTS for message in self.sms)

    @property
    def changed(self) -> bool:
        """Whether the answer reads differently, its "verified … ago" lines aside: every
        change renews the record's check, so those lines always read "just now" after it."""
        checked = _check_line(self.language)
        return any(
            line.changed and not checked.fullmatch(line.text.strip())
            for message in self.messages
            for line in message
        )


@dataclass(frozen=True)
class Question:
    """What a person asks that this record answers: the action and the question's entities."""

    action: ContentAction
    entities: dict[str, str]


class Answers:
    """The chat's content actions, made once (they read their settings when created)."""

    def __init__(self, limits: FreshnessLimits) -> None:
        self.actions = content_actions(limits)

    def questions(self, kind: RecordKind, key: str, row: Any) -> list[Question]:
        """The question this record answers first, then the page it is part of (if any)."""
        return [
            Question(self.actions[asked.action], asked.entities)
            for asked in SPECS[kind].asked(key, row)
        ]

    def replies(
        self, session: Session, question: Question, language: str, now: datetime
    ) -> list[Reply]:
        tracker = _tracker(language, question.entities)
        turn = Turn(CollectingDispatcher(), session, tracker, language, now)
        return question.action.replies(turn)

    def chat(self, session: Session, question: Question, language: str, now: datetime) -> list[str]:
        """The chat messages, as the web chat, Telegram and WhatsApp show them."""
        return _chat(self.replies(session, question, language, now), language)

    def before(
        self, session: Session, kind: RecordKind, key: str, row: Any, now: datetime
    ) -> dict[str, list[str]]:
        """The chat answer before the change, per language, to mark what the change alters."""
        asked = self.questions(kind, key, row)
        if not asked or row is None:
            return {}
        return {language: self.chat(session, asked[0], language, now) for language in LANGUAGES}

    def render(
        self,
        session: Session,
        kind: RecordKind,
        key: str,
        row: Any,
        now: datetime,
        before: dict[str, list[str]] | None = None,
    ) -> list[Answer]:
        asked = self.questions(kind, key, row)
        if not asked:
            if kind is RecordKind.CLAIM and row is not None:
                return claim_answers(row, now, queries.official_contact(session, row, now))
            return []
        first, *rest = asked
        shown = []
        for language in LANGUAGES:
            earlier = _lines_of((before or {}).get(language, []))
            replies = self.replies(session, first, language, now)
            messages = [
                _marked(message, earlier, before is not None)
                for message in _chat(replies, language)
            ]
            full = [
                _marked(message, set(), False)
                for question in rest
                for message in self.chat(session, question, language, now)
            ]
            sms = _as_sent(replies, language)
            question = SPECS[kind].preview.question(row, language)
            shown.append(Answer(language, messages, sms, full, question))
        return shown


def claim_answers(claim: Claim, now: datetime, contact: GuidanceTopic | None) -> list[Answer]:
    """A claim as people will read it while no chat answer of its own previews it: its block
    (``format.claim_block``: the rumour, the verdict, what to do, how the real organisation
    reaches people, who checked it), on chat and through the SMS channels' renderer."""
    shown = []
    for language in LANGUAGES:
        block = fmt.claim_block(claim, now, language, contact=contact)
        sms = [Sms(text, segment_count(text)) for text in _sent_as_sms([block], language)]
        question = SPECS[RecordKind.CLAIM].preview.question(claim, language)
        shown.append(Answer(language, [_marked(block, set(), False)], sms, [], question))
    return shown


def content_actions(limits: FreshnessLimits) -> dict[str, ContentAction]:
    """Every content action of the chat (``actions.chat``, what the action server loads), by
    its name: a kind's preview names the action that answers it."""
    for module in pkgutil.iter_modules(chat.__path__):
        importlib.import_module(f"{chat.__name__}.{module.name}")
    found: dict[str, ContentAction] = {}
    classes = list(ContentAction.__subclasses__())
    while classes:
        cls = classes.pop()
        classes += cls.__subclasses__()
        if cls.__module__.startswith(f"{chat.__name__}.") and not inspect.isabstract(cls):
            action = cls(freshness=limits)
            found[action.name()] = action
    return found


def _chat(replies: list[Reply], language: str) -> list[str]:
    words = wording()
    texts = [words.text(reply.response, language, **reply.variables) for reply in replies]
    return [text for text in texts if text.strip()]


def _check_line(language: str) -> re.Pattern[str]:
    """A "verified … ago · source: …" line of ``language``, as ``format.provenance`` writes it."""
    marks = {"ago": "\x00", "source": "\x01"}
    line = re.escape(word("pattern", "verified", language, **marks))
    return re.compile(line.replace("\x00", ".+").replace("\x01", ".+"))


def _lines_of(messages: list[str]) -> set[str]:
    return {line.strip() for message in messages for line in message.splitlines()}


def _marked(message: str, earlier: set[str], compare: bool) -> list[Line]:
    return [
        Line(line, compare and bool(line.strip()) and line.strip() not in earlier)
        for line in message.splitlines()
    ]


def _as_sent(replies: list[Reply], language: str) -> list[Sms]:
    """The replies' SMS variations through the SMS channels' renderer, as they go out."""
    words = wording()
    renderer = ReplyRenderer()

    async def send() -> list[str]:
        sent: list[str] = []
        for reply in replies:
            text, buttons = words.sms(reply.response, language, **reply.variables)
            if text.strip():  # Rasa's output channels send no empty text
                sent += await renderer.outgoing("console-preview", text, buttons, language)
        return sent

    return [Sms(text, segment_count(text)) for text in asyncio.run(send())]


def _sent_as_sms(texts: list[str], language: str) -> list[str]:
    """Finished texts through the SMS channels' renderer, as they go out."""
    renderer = ReplyRenderer()

    async def send() -> list[str]:
        sent: list[str] = []
        for text in texts:
            sent += await renderer.outgoing("console-preview", text, [], language)
        return sent

    return asyncio.run(send())


def _tracker(language: str, entities: dict[str, str]) -> Tracker:
    latest = {
        "text": "",
        "intent": {"name": "", "confidence": 1.0},
        "entities": [{"entity": name, "value": value} for name, value in entities.items()],
    }
    return Tracker("console-preview", {"language": language}, latest, [], False, None, {}, None)
