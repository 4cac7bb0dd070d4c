"""Which gates, airports and help points are nearest a place a person shared or named.

Distances are great-circle distances (haversine) computed here, from the positions editors
published (models.Placed): no map service is asked, so a person's position never leaves the
assistant, and nothing here logs it. A landmark is found by its name in the records, in any of
the languages ("near Baron Hotel", «نزدیک هوتل بارون», «د بارون هوټل ته نږدې»; the words for
"near" and those every place name has: kernel/lang/near_words.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from actions.content import queries
from actions.content.format import short_name
from actions.content.models import (
    Airport,
    AirportStatus,
    Gate,
    GuidanceKind,
    Placed,
    Provenance,
)
from kernel.lang import near_words
from kernel.lang.codes import LANGUAGES, every_word
from kernel.lang.normalise import normalise

#: The mean radius of the Earth, in kilometres.
EARTH_RADIUS_KM: Final = 6371.0088
#: Places farther than this are no help to someone on foot in a city under curfew: a person
#: elsewhere gets the usual answer (who can help), not a gate a day's drive away.
NEARBY_KM: Final = 30.0
#: How many places an answer lists.
NEAREST: Final = 3

#: Words that say "near", and words of place names that name no place by themselves ("gate",
#: «دروازه», «د»: a name is matched by its other words), in every language (normalised; the
#: tables: kernel/lang/near_words.py).
NEAR_WORDS: Final = frozenset(normalise(word) for word in every_word(near_words.NEAR_WORDS))
GENERIC_WORDS: Final = frozenset(normalise(word) for word in every_word(near_words.GENERIC_WORDS))
_WORD: Final = re.compile(r"\w+")


@dataclass(frozen=True)
class Point:
    """A position in WGS 84 decimal degrees."""

    lat: float
    lon: float


@dataclass(frozen=True)
class Nearby:
    """A place near the point: the record people go to, the fact that says whether they can
    (a gate itself, an airport's status, a help point's contact) and how far it is."""

    place: Placed
    fact: Provenance
    metres: float


def distance_m(a: Point, b: Point) -> float:
    """The great-circle distance in metres (haversine): within 0.5 % of the true distance."""
    lat1, lat2 = math.radians(a.lat), math.radians(b.lat)
    dlat, dlon = lat2 - lat1, math.radians(b.lon - a.lon)
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * EARTH_RADIUS_KM * 1000 * math.asin(min(1.0, math.sqrt(h)))


def point_of(place: Placed) -> Point | None:
    if place.latitude is None or place.longitude is None:
        return None
    return Point(place.latitude, place.longitude)


def _places(session: Session, now: datetime) -> list[tuple[Placed, Provenance]]:
    """Every place with a position and a current fact that says whether one can go there.

    A gate or airport whose check lapsed is left out, as an airport without a status: three
    lines are precious on SMS, and "no current information" is no help to someone on foot.
    """
    gates = session.scalars(
        select(Gate)
        .where(Gate.withdrawn_at.is_(None), Gate.latitude.is_not(None))
        .options(joinedload(Gate.source), joinedload(Gate.airport))
    ).all()
    airports = session.scalars(
        select(Airport)
        .where(Airport.withdrawn_at.is_(None), Airport.latitude.is_not(None))
        .options(joinedload(Airport.status).joinedload(AirportStatus.source))
    ).all()
    contacts = queries.current_guidance(session, now, (GuidanceKind.CONTACTS,))
    found: list[tuple[Placed, Provenance]] = [(g, g) for g in gates if g.is_current(now)]
    found += [
        (airport, airport.status)
        for airport in airports
        if airport.status is not None
        and airport.status.withdrawn_at is None
        and airport.status.is_current(now)
    ]
    found += [(c, c) for c in contacts if c.latitude is not None]
    return found


def nearest(session: Session, now: datetime, point: Point, limit: int = NEAREST) -> list[Nearby]:
    """The ``limit`` places nearest ``point`` within ``NEARBY_KM``, nearest first."""
    near: list[Nearby] = []
    for place, fact in _places(session, now):
        at = point_of(place)
        if at is None:
            continue
        metres = distance_m(point, at)
        if metres <= NEARBY_KM * 1000:
            near.append(Nearby(place, fact, metres))
    return sorted(near, key=lambda item: item.metres)[:limit]


def _words(text: str) -> set[str]:
    return set(_WORD.findall(normalise(text)))


def _names(place: Placed) -> Iterable[str]:
    for language in LANGUAGES:
        name = getattr(place, f"name_{language}", None) or getattr(place, f"title_{language}", "")
        if name:
            yield short_name(name)


def says_near(text: str) -> bool:
    """Whether a message asks about the surroundings of a place ("near …", «نزدیک …»)."""
    return bool(_words(text) & NEAR_WORDS)


def named_place(session: Session, now: datetime, text: str) -> Placed | None:
    """The place whose name a message contains, in any language: every distinctive word of
    one of its names is in the text. The name with the most such words wins ("Baron Hotel"
    over a place called "Hotel")."""
    said = _words(text)
    best: tuple[int, Placed] | None = None
    for place, _fact in _places(session, now):
        for name in _names(place):
            distinctive = _words(name) - GENERIC_WORDS
            if distinctive and distinctive <= said and (best is None or len(distinctive) > best[0]):
                best = (len(distinctive), place)
    return best[1] if best else None


def around(places: Sequence[Nearby]) -> list[Provenance]:
    """The facts an answer about these places presents as current."""
    return [item.fact for item in places]
