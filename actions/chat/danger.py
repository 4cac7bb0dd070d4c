"""``action_answer_danger``: a person in danger gets the line that answers now, then a person.

Routed by ``bot/policies/danger.py`` before anything else answers a message that speaks of a lost
child or relative, a wound or a medical emergency, or a threat (``kernel/danger.py``). In one
message, so that on SMS the number comes first:

1. for each kind of danger, the current contacts whose ``dangers`` name it and whose
   ``open_hours`` say they answer now — day-and-night lines first, the nearest first when the
   person shared where they are or named a place; when none answers now, that is said, then
   the best there is (the lines that open next, the operator's ``EMERGENCY_HOTLINE``) — never
   an office-hours line as the answer at night;
2. what to do now (kernel/lang/texts/danger.py);
3. one line about the **urgent case**: opened (or the open one marked urgent), seen first by a
   caseworker, and when; "cancel" withdraws it. The conversation is not paused, so the question
   the message may also ask is answered next, and a caseworker's first reply pauses it as
   outside the hours (docs/HANDOFF.md).

The lines last read are kept in this process: when the content database cannot be read, a
person in danger still gets them (and the hotline), never only an apology.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from rasa_sdk import Tracker
from rasa_sdk.events import SlotSet
from rasa_sdk.executor import CollectingDispatcher
from sqlalchemy.orm import Session

from actions.cases import store
from actions.chat import handoff
from actions.chat.nearby import distance, shared_point
from actions.content import format as fmt
from actions.content import nearby, queries
from actions.content.database_action import DatabaseAction, Events, Turn
from actions.content.localise import isolate
from actions.content.models import GuidanceKind, GuidanceTopic
from actions.content.nearby import Point
from actions.settings import emergency_hotline
from kernel.case_hours import KABUL, Hours
from kernel.danger import Danger, dangers
from kernel.lang import texts
from kernel.lang.codes import LANGUAGES

logger = logging.getLogger(__name__)

RESPONSE: Final = "utter_danger"
#: Lines shown per kind of danger on chat; an SMS shows the first.
LINES_PER_KIND: Final = 2
NO_BREAK_SPACE: Final = "\u00a0"
ABBREVIATION: Final = re.compile(r"\(([A-Z]{2,8})\)\s*$")


@dataclass(frozen=True)
class DangerLine:
    """A contact that answers some dangers, as read from the content database."""

    dangers: frozenset[Danger]
    #: "ICRC — Lost family members and the wounded +93 700 000 121", per language.
    names: Mapping[str, str]
    #: "+93 700 000 121 ICRC", per language: the SMS form, number first.
    briefs: Mapping[str, str]
    #: When it answers; None when its editors gave no hours we can read.
    hours: Hours | None
    point: Point | None

    @property
    def day_and_night(self) -> bool:
        return self.hours is not None and self.hours.round_the_clock

    def answers_at(self, now: datetime) -> bool:
        return self.hours is not None and self.hours.is_open(now)


def _abbreviation(contact: GuidanceTopic) -> str:
    """ "ICRC" of "International Committee of the Red Cross (ICRC)": who answers, in the few
    characters an SMS has; "" when the name has no abbreviation."""
    if contact.organisation is None:
        return ""
    found = ABBREVIATION.search(contact.organisation.name_en)
    return found.group(1) if found else ""


def _line(contact: GuidanceTopic) -> DangerLine:
    kinds = frozenset(Danger(name) for name in (contact.dangers or "").split(",") if name)
    reach = contact.phone or contact.whatsapp or contact.email or ""
    briefs: dict[str, str] = {
        language: " ".join(filter(None, (isolate(reach, language), _abbreviation(contact))))
        for language in LANGUAGES
    }
    # On chat the number never breaks across lines (a right-to-left bubble would show its
    # groups out of order); SMS keeps plain spaces, which cost no UCS-2.
    unbroken = reach.replace(" ", NO_BREAK_SPACE)
    return DangerLine(
        kinds,
        {
            language: handoff.contact_line(contact, language).replace(reach, unbroken)
            for language in LANGUAGES
        },
        briefs,
        handoff.hours_of(contact),
        nearby.point_of(contact),
    )


class LastRead:
    """The danger lines the content database gave last, for when it cannot be read."""

    def __init__(self) -> None:
        self._lines: tuple[DangerLine, ...] = ()
        self._lock = threading.Lock()

    def keep(self, lines: Sequence[DangerLine]) -> None:
        with self._lock:
            self._lines = tuple(lines)

    @property
    def lines(self) -> tuple[DangerLine, ...]:
        with self._lock:
            return self._lines


LAST_READ: Final = LastRead()


def danger_lines(session: Session, now: datetime) -> list[DangerLine]:
    """Every current contact that answers a danger, in the editors' order (and kept)."""
    contacts = queries.current_guidance(session, now, (GuidanceKind.CONTACTS,))
    lines = [_line(contact) for contact in contacts if contact.dangers]
    LAST_READ.keep(lines)
    return lines


@dataclass(frozen=True)
class Help:
    """What one kind of danger gets: the lines to show, and whether they answer now."""

    kind: Danger
    lines: list[DangerLine]
    now_open: bool


def help_for(kind: Danger, lines: Sequence[DangerLine], now: datetime, point: Point | None) -> Help:
    """The lines that answer ``kind`` now — day and night first, then the nearest — or, when
    none does, the ones that open next."""
    serving = [line for line in lines if kind in line.dangers]

    def order(line: DangerLine) -> tuple[bool, float]:
        far = nearby.distance_m(point, line.point) if point and line.point else float("inf")
        return (not line.day_and_night, far)

    open_now = sorted((line for line in serving if line.answers_at(now)), key=order)
    if open_now:
        return Help(kind, open_now[:LINES_PER_KIND], True)
    later = sorted(
        (line for line in serving if line.hours is not None),
        key=lambda line: line.hours.next_opening(now) if line.hours else now,
    )
    return Help(kind, later[:LINES_PER_KIND], False)


def _when(line: DangerLine, now: datetime, language: str, pattern: str = "pattern.time") -> str:
    """When the line answers: day and night, until when today, or from when; ``pattern``
    "brief.time" is the SMS form of the time («۸ صبح»)."""
    if line.day_and_night:
        return texts.render("danger.day_and_night", language)
    assert line.hours is not None
    if line.answers_at(now):
        closes = datetime.combine(now.astimezone(KABUL).date(), line.hours.closes, KABUL)
        until = fmt.clock(closes, language, pattern)
        return texts.render("danger.open_until", language, closes=until)
    opens = fmt.clock(line.hours.next_opening(now), language, pattern)
    return texts.render("danger.opens_at", language, opens=opens)


def _far(line: DangerLine, point: Point | None, language: str) -> str:
    if point is None or line.point is None:
        return ""
    return f", {distance(nearby.distance_m(point, line.point), language)}"


def chat_block(
    found: Help, now: datetime, language: str, point: Point | None, hotline: str | None
) -> str:
    """Heading, lines (with when they answer), the hotline, what to do now."""
    parts = [texts.render(f"danger.title_{found.kind.value}", language)]
    if not found.now_open:
        parts.append(texts.render("danger.none_now", language))
    parts += [
        f"• {line.names[language]} ({_when(line, now, language)}{_far(line, point, language)})"
        for line in found.lines
    ]
    if hotline and not _listed(hotline, found):
        parts.append(texts.render("danger.hotline", language, hotline=isolate(hotline, language)))
    elif not found.lines:
        parts.append(texts.render("danger.none_known", language))
    parts.append(texts.render(f"danger.advice_{found.kind.value}", language))
    return "\n".join(parts)


def _listed(hotline: str, found: Help) -> bool:
    """Whether the hotline's number is one of the lines already given (the demo's hotline is
    the ICRC's line): said twice, it only costs the reader a line."""
    number = re.sub(r"\D", "", hotline)
    return bool(number) and any(
        number in re.sub(r"\D", "", name) for line in found.lines for name in line.names.values()
    )


def sms_block(found: Help, now: datetime, language: str, hotline: str | None) -> str:
    """The number first: "+93 700 000 121 ICRC, day and night: lost family. Stay …"."""
    what = texts.render(f"danger.sms_{found.kind.value}", language)
    if found.lines:
        line = found.lines[0]
        comma = texts.render("danger.comma", language)
        when = _when(line, now, language, "brief.time")
        return f"{line.briefs[language]}{comma}{when}: {what}"
    if hotline:
        return f"{isolate(hotline, language)}: {what}"
    return f"{texts.render('danger.sms_none', language)} {what}"


@dataclass(frozen=True)
class CaseNotice:
    """What the person is told of their urgent case: the catalogue's id and its variables."""

    said: str
    variables: Mapping[str, str]
    #: The same for the SMS form (a shorter time).
    sms_variables: Mapping[str, str]
    #: A case was opened by this message (the conversation now waits for a caseworker).
    opened: bool = False


NO_CASE: Final = CaseNotice("case_none", {}, {})


def urgent_case(turn: Turn) -> CaseNotice:
    """Opens an urgent case for the message, or adds it to the open one and marks it urgent."""
    session, tracker, now = turn.session, turn.tracker, turn.now
    words = handoff.own_words(tracker)
    case = store.open_case_of(session, turn.conversation)
    if case is not None:
        store.add_line(session, case, words, now, urgent=True)
        logger.info("%s: case %d marked urgent", turn.conversation, case.id)
        return CaseNotice("case_marked", {}, {})
    opened = handoff.request_caseworker(turn, urgent=True)
    if opened.case_id is None:
        return NO_CASE
    handoff.remember_address(turn.dispatcher, opened.channel, now)
    logger.info("%s: urgent case %d opened", turn.conversation, opened.case_id)
    if opened.opens_at is None:
        wait = {"wait": opened.variables["wait"]}
        return CaseNotice("case_soon", wait, wait, opened=True)
    sms_opens = fmt.clock(opened.opens_at, turn.language, "brief.time")
    return CaseNotice(
        "case_later", {"opens": opened.variables["opens"]}, {"opens": sms_opens}, opened=True
    )


def tell(
    dispatcher: CollectingDispatcher,
    found: Sequence[Help],
    notice: CaseNotice,
    language: str,
    now: datetime,
    point: Point | None,
) -> None:
    """The help, then the case, in one message (on SMS, the number first)."""
    hotline = emergency_hotline()
    dispatcher.utter_message(
        response=RESPONSE,
        help="\n\n".join(chat_block(h, now, language, point, hotline) for h in found),
        case=texts.render(f"danger.{notice.said}", language, **notice.variables),
        help_brief="\n".join(sms_block(h, now, language, hotline) for h in found),
        case_brief=texts.render(f"danger.sms_{notice.said}", language, **notice.sms_variables),
    )


def _point(session: Session, tracker: Tracker, now: datetime, text: str) -> Point | None:
    """Where the person is, when they shared it or named a place ("near abbey gate")."""
    point = shared_point(tracker)
    if point is not None:
        return point
    place = nearby.named_place(session, now, text)
    return None if place is None else nearby.point_of(place)


class ActionAnswerDanger(DatabaseAction):
    """Help first for a person in danger: the lines that answer now, what to do, a person."""

    def name(self) -> str:
        return "action_answer_danger"

    def step(self, turn: Turn) -> Events:
        text = handoff.own_words(turn.tracker)
        kinds = dangers(text)
        if not kinds:  # routed on a message that no longer speaks of danger: nothing to add
            return []
        lines = danger_lines(turn.session, turn.now)
        point = _point(turn.session, turn.tracker, turn.now, text)
        found = [help_for(kind, lines, turn.now, point) for kind in kinds]
        notice = urgent_case(turn)
        tell(turn.dispatcher, found, notice, turn.language, turn.now, point)
        return [SlotSet(handoff.CASE_WAITING, True)] if notice.opened else []

    def unavailable(
        self, dispatcher: CollectingDispatcher, tracker: Tracker, language: str, now: datetime
    ) -> Events:
        """The database is down: the lines last read, the hotline, what to do — no case."""
        kinds = dangers(handoff.own_words(tracker))
        found = [help_for(kind, LAST_READ.lines, now, None) for kind in kinds]
        tell(dispatcher, found, NO_CASE, language, now, None)
        return []
