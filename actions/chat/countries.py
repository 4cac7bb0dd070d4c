"""Which country a flights question names: "flight to Germany", «طیاره به جرمنی», "jarmani".

The NLU gives a country named as a destination the value of one of its airports' places
(Germany → Ramstein, «ازبکستان» → Tashkent), which is right for the places and wrong for the
flights a country evacuates people on. So the country is read here from the words that named
the destination, with the cross-language senses table (``actions/claims/senses.py``): each of
its forms in every language and script, as people write it. A city listed there under its
country ("doha", «تاشکند») stays a city: names of places keep their answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from rasa_sdk import Tracker

from actions.claims.senses import COUNTRIES
from actions.content.models import Country
from kernel.lang.normalise import normalise

#: The senses table's countries by ISO code (tests keep the two lists whole).
CODES: Final[Mapping[str, Country]] = {
    "canada": Country.CA,
    "germany": Country.DE,
    "united states": Country.US,
    "united kingdom": Country.GB,
    "australia": Country.AU,
    "qatar": Country.QA,
    "pakistan": Country.PK,
    "iran": Country.IR,
    "turkey": Country.TR,
    "uzbekistan": Country.UZ,
    "tajikistan": Country.TJ,
    "india": Country.IN,
    "france": Country.FR,
    "italy": Country.IT,
    "spain": Country.ES,
    "netherlands": Country.NL,
    "sweden": Country.SE,
    "norway": Country.NO,
    "denmark": Country.DK,
    "belgium": Country.BE,
    "switzerland": Country.CH,
    "austria": Country.AT,
    "poland": Country.PL,
    "albania": Country.AL,
    "kosovo": Country.XK,
    "uganda": Country.UG,
    "rwanda": Country.RW,
    "mexico": Country.MX,
    "brazil": Country.BR,
    "emirates": Country.AE,
    "kuwait": Country.KW,
    "bahrain": Country.BH,
    "saudi arabia": Country.SA,
    "china": Country.CN,
    "russia": Country.RU,
    "kazakhstan": Country.KZ,
    "kyrgyzstan": Country.KG,
    "turkmenistan": Country.TM,
    "japan": Country.JP,
    "ireland": Country.IE,
}

#: Cities the senses table lists under their country (a rumour about Doha is about Qatar): a
#: question about flights to one of them is about that city.
CITIES: Final = frozenset(
    normalise(form)
    for form in (
        *("doha", "دوحه"),
        *("islamabad", "peshawar", "quetta", "پېښور", "پیشاور", "کویته"),
        *("tashkent", "termez", "hairatan", "تاشکند", "ترمذ", "حیرتان"),
        *("dushanbe", "dubai", "دبی"),
    )
)


def _forms() -> dict[str, Country]:
    forms: dict[str, Country] = {}
    for sense, listed in COUNTRIES.items():
        for form in normalise(listed).split():
            if form not in CITIES:
                forms[form] = CODES[sense]
    return forms


#: Every form of a country's name (normalised) → its code.
FORMS: Final = _forms()


def country_in(text: str) -> Country | None:
    """The first country ``text`` names, by its words; None when it names none."""
    words: Iterable[str] = normalise(text).lower().split()
    return next((FORMS[word] for word in words if word in FORMS), None)


def _span(message: Mapping[str, Any], entity: Mapping[str, Any]) -> str:
    """The words of the message an entity was found in (its value is already canonical)."""
    start, end = entity.get("start"), entity.get("end")
    text = message.get("text")
    if isinstance(text, str) and isinstance(start, int) and isinstance(end, int):
        return text[start:end]
    return ""


def _named(message: Mapping[str, Any], destination: str | None) -> Country | None:
    """The country the message's destination entity names (of ``destination``, when given)."""
    for entity in message.get("entities") or []:
        if entity.get("entity") != "destination":
            continue
        if destination is None or entity.get("value") == destination:
            return country_in(_span(message, entity))
    return None


def _user_messages(tracker: Tracker) -> Sequence[Mapping[str, Any]]:
    """The person's messages as the NLU read them (its text is the one its spans count in),
    newest first."""
    return [
        {"text": event.get("text"), **(event.get("parse_data") or {})}
        for event in reversed(tracker.events)
        if event.get("event") == "user"
    ]


def asked_country(tracker: Tracker, destination: str | None) -> Country | None:
    """The country the question is about: named as this message's destination, else as the
    destination a follow-up remembers ("and tomorrow?" after "flights to Germany"), else in
    the words of a flights question whose destination the NLU did not find ("flights to
    France"). None for a city, a flight number, or no place at all."""
    latest = tracker.latest_message or {}
    if _has_destination(latest):
        return _named(latest, None)
    if destination is not None:
        for message in _user_messages(tracker):
            if _has_destination(message, destination):
                return _named(message, destination)
        return None
    intent = (latest.get("intent") or {}).get("name")
    text = latest.get("text")
    return country_in(text) if intent == "ask_flights" and isinstance(text, str) else None


def _has_destination(message: Mapping[str, Any], value: str | None = None) -> bool:
    """Whether the message names a destination (``value``, when given)."""
    return any(
        entity.get("entity") == "destination" and value in (None, entity.get("value"))
        for entity in message.get("entities") or []
    )
