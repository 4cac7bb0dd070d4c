"""The nearest gates, airports and help points to where a person is, each with its state.

Reached by the help question: a shared location pin (Telegram, WhatsApp) arrives as
``/ask_help`` with ``metadata.location`` (kernel/contract.py LOCATION), and an SMS reader can name
a landmark instead ("near Baron Hotel"). The answer lists the nearest places
(actions/content/nearby.py), each with whether it is open and its own check, and the distance
in a straight line. It never repeats the coordinates, and nothing here logs them: a position is
the most dangerous thing a person in Kabul can send.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Final

from rasa_sdk import Tracker
from sqlalchemy.orm import Session

from actions.content import briefs, nearby
from actions.content import format as fmt
from actions.content.answering import Reply, Shows, shows
from actions.content.localise import digits, isolate_latin, word
from actions.content.models import Airport, AirportStatus, Gate, GuidanceTopic
from actions.content.nearby import Nearby, Point
from kernel.contract import LOCATION
from kernel.lang.sms_lists import SMS_PLACES
from kernel.sms_segments import fits

NEARBY: Final = "utter_nearby"
#: What ``nearby_reply`` sends (``ContentAction.RESPONSES``).
NEARBY_SHOWN: Final[Mapping[str, Shows]] = {
    NEARBY: shows("places", sms=("places_brief", "checked"))
}
#: What the SMS template says around the list (guidance.yml utter_nearby), with room for a
#: "may be out of date" in the check line: the list must fit beside it.
SMS_FRAME_UNITS: Final = 80
#: Closer than this is "right here": the published positions are good to tens of metres.
HERE_M: Final = 50.0
#: The Arabic decimal separator, as Dari and Pashto write "1.4".
DECIMAL_SEPARATOR: Final = "\u066b"


def shared_point(tracker: Tracker) -> Point | None:
    """The place the latest message shared, as the channel checked it; None without one."""
    metadata = (tracker.latest_message or {}).get("metadata") or {}
    location = metadata.get(LOCATION) if isinstance(metadata, dict) else None
    if not isinstance(location, dict):
        return None
    lat, lon = location.get("lat"), location.get("lon")
    numbers = [n for n in (lat, lon) if isinstance(n, int | float) and not isinstance(n, bool)]
    if len(numbers) != 2 or not all(math.isfinite(n) for n in numbers):
        return None
    if not (-90 <= numbers[0] <= 90 and -180 <= numbers[1] <= 180):
        return None
    return Point(float(numbers[0]), float(numbers[1]))


def named_point(session: Session, tracker: Tracker, now: datetime) -> Point | None:
    """Where a landmark the latest message names "near" is ("near Baron Hotel")."""
    text = (tracker.latest_message or {}).get("text") or ""
    if not isinstance(text, str) or text.startswith("/") or not nearby.says_near(text):
        return None
    place = nearby.named_place(session, now, text)
    return None if place is None else nearby.point_of(place)


def asked_point(session: Session, tracker: Tracker, now: datetime) -> Point | None:
    """The point a question is about: a shared location first, else a landmark named."""
    return shared_point(tracker) or named_point(session, tracker, now)


def nearby_reply(session: Session, point: Point, language: str, now: datetime) -> Reply | None:
    """The nearest places to ``point``; None when none is near (the caller answers as usual)."""
    places = nearby.nearest(session, now, point)
    if not places:
        return None
    shown = sms_places(places, now, language)
    return Reply(
        NEARBY,
        {
            "places": "\n\n".join(place_block(item, now, language) for item in places),
            "places_brief": "\n".join(place_brief(item, now, language) for item in shown),
        },
        current=nearby.around(places),
        listed=nearby.around(shown),
    )


def sms_places(places: Sequence[Nearby], now: datetime, language: str) -> Sequence[Nearby]:
    """The nearest places whose SMS lines and check lines fit in three segments, at most the
    language's ``SMS_PLACES`` (kernel/lang/sms_lists.py) and at least one: the nearest is the
    answer."""
    for count in range(min(SMS_PLACES[language], len(places)), 1, -1):
        shown = places[:count]
        lines = "\n".join(place_brief(item, now, language) for item in shown)
        checks = briefs.checked(nearby.around(shown), now, language)
        if fits("-" * SMS_FRAME_UNITS + f"\n{lines}\n{checks}"):
            return shown
    return places[:1]


def distance(metres: float, language: str) -> str:
    """ "650 m away", «به فاصلهٔ ۱٫۴ کیلومتر», «۶۵۰ متره لرې»; "right here" when closer than
    the positions are precise."""
    if metres < HERE_M:
        return word("distance", "here", language)
    if metres < 1000:
        n, unit = f"{round(metres, -1):.0f}", "metres"
    elif metres < 10_000:
        n, unit = f"{metres / 1000:.1f}", "kilometres"
    else:
        n, unit = f"{metres / 1000:.0f}", "kilometres"
    n = digits(n, language)
    if language != "en":
        n = n.replace(".", DECIMAL_SEPARATOR)
    return word("distance", "away", language, distance=word("distance", unit, language, n=n))


def _state(item: Nearby, now: datetime, language: str) -> str:
    """Whether one can go there now: a gate's state (or that it is out of date), an airport's."""
    fact = item.fact
    if isinstance(fact, Gate):
        if not fact.is_current(now):
            return word("gate", "outdated", language)
        return word("gate", fact.state.value, language)
    if isinstance(fact, AirportStatus):
        if not fact.is_current(now):
            return word("gate", "outdated", language)
        return word("status", fact.state.value, language)
    return ""


def _name(item: Nearby, language: str) -> str:
    place = item.place
    if isinstance(place, Gate | Airport):
        return fmt.text(place, "name", language)
    return ""


def place_block(item: Nearby, now: datetime, language: str) -> str:
    """One place for chat: its name and distance, its state and note, its own check."""
    away = distance(item.metres, language)
    if isinstance(item.fact, GuidanceTopic):
        first, _, rest = fmt.contact_block(item.fact, now, language).partition("\n")
        return f"{first} — {away}\n{rest}"
    lines = [f"{fmt.BULLET} {_name(item, language)} — {away}"]
    state = _state(item, now, language)
    fact = item.fact
    if isinstance(fact, Gate) and fact.is_current(now):
        state = f"{state} — {fmt.text(fact, 'note', language)}"
    lines += [f"  {state}", f"  {fmt.verified(fact, now, language)}"]
    return isolate_latin("\n".join(lines), language)


def place_brief(item: Nearby, now: datetime, language: str) -> str:
    """One SMS line: "Abbey Gate, 650 m away: closed"; a help point with one way to reach it."""
    comma = "، " if language != "en" else ", "
    away = distance(item.metres, language)
    if isinstance(item.fact, GuidanceTopic):
        return f"{briefs.contact_brief(item.fact, language)}{comma}{away}"
    name = fmt.short_name(_name(item, language))
    return isolate_latin(f"{name}{comma}{away}: {_state(item, now, language)}", language)


def answer_near(session: Session, tracker: Tracker, language: str, now: datetime) -> Reply | None:
    """The nearby answer when the question is about a place, else None."""
    point = asked_point(session, tracker, now)
    return None if point is None else nearby_reply(session, point, language, now)
