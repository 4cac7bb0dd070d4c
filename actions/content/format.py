"""Turns database rows into the data blocks the domain's responses show.

Every database text goes through :func:`text`, so that a text not yet translated into the
reader's language is never blank: it shows in the language they most likely read, with a note.
Times are stored in UTC and shown in Kabul time (Asia/Kabul, UTC+04:30). Dari and Pashto get
Persian digits and isolated Latin runs (flight numbers, IATA codes, Latin names), see localise.py.
Phone numbers and e-mail addresses stay as written, ASCII digits included, so that phones offer
to call or write to them; in Dari and Pashto each is isolated whole so that it is not reordered.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime

from actions.common.kabul_time import KABUL, kabul_day_bounds
from actions.content.columns import Base, in_language
from actions.content.localise import (
    PASHTO_O_CLOCK,
    digits,
    isolate,
    isolate_foreign,
    isolate_latin,
    not_translated,
    word,
)
from actions.content.models import (
    Airport,
    Announcement,
    Claim,
    Country,
    Flight,
    Gate,
    GuidanceTopic,
    Organisation,
    Provenance,
)
from kernel.lang.calendar import after_midnight, day_part, month, night, reckoned_day, weekday

BULLET = "•"
SEPARATOR = " · "


def text(row: Base, field: str, language: str) -> str:
    """A database text for a reader of ``language``; never blank while any language has it.

    A text not yet translated into their language shows in the one they most likely read
    (``READING_ORDER``, kernel/lang/names.py) with a note saying so, isolated if it runs in the
    other direction.
    """
    value, shown_in = in_language(row, field, language)
    if shown_in == language:
        return value
    return f"{isolate_foreign(value, shown_in, language)} {not_translated(language, shown_in)}"


def short_name(name: str) -> str:
    """ "Baron Hotel side" of "Baron Hotel side (UK processing centre)": what an SMS calls it."""
    return name.split(" (")[0]


def _date_parts(moment: datetime, language: str) -> dict[str, str]:
    local = moment.astimezone(KABUL)
    return {
        "weekday": weekday(local.isoweekday(), language),
        "day": digits(str(local.day), language),
        "month": month(local.month, language),
        "year": digits(str(local.year), language),
        "time": clock(local, language),
    }


def clock_words(local: datetime, language: str) -> dict[str, str]:
    """What a pattern says a Kabul time ``local`` with: {hh_mm} "01:35", {hour} "1:35" on the
    12-hour clock, {part} of the day, Pashto's {o_clock}, and {after_midnight} (at 00:00,
    "midnight") for the night patterns."""
    hour = local.hour % 12 or 12
    midnight = "midnight" if local.hour == local.minute == 0 else "after_midnight"
    return {
        "hh_mm": digits(local.strftime("%H:%M"), language),
        "hour": digits(f"{hour}:{local.minute:02d}" if local.minute else str(hour), language),
        "part": day_part(local.hour, language),
        "o_clock": PASHTO_O_CLOCK[0 if hour == 1 else 1],
        "after_midnight": word("pattern", midnight, language),
    }


def clock(moment: datetime, language: str, pattern: str = "pattern.time") -> str:
    """A Kabul time as people there say it: "ساعت ۳ بعد از چاشت (۱۵:۰۰)", "د ماښام ۷ بجې (۱۹:۰۰)".

    Dari and Pashto readers count on the 12-hour clock with the part of the day; "۰۳:۰۰" alone
    is easily read as the afternoon. English keeps the 24-hour clock of tickets and call-ups.
    ``pattern`` "brief.time" is the SMS form, without the 24-hour time in brackets: «۳ بعد از
    چاشت». Without a day, a night time («ساعت ۲ شب») is the coming one; with a day, use
    ``departure`` or ``briefs.day_and_time``, which name the night.
    """
    group, key = pattern.split(".")
    return word(group, key, language, **clock_words(moment.astimezone(KABUL), language))


def departure(moment: datetime, language: str) -> str:
    """Kabul time as "Tue 24 Aug, 15:00" / "سه‌شنبه ۲۴ اگست، ساعت ۳ بعد از چاشت (۱۵:۰۰)".

    A time after midnight is named by the night it falls in, «یکشنبه شب، ساعت ۱:۳۵ بعد از
    نیمه‌شب (دوشنبه ۷ دسمبر، ۰۱:۳۵)»: in Kabul «دوشنبه … شب» is Monday evening, a day late.
    """
    local = moment.astimezone(KABUL)
    parts = _date_parts(local, language)
    if not after_midnight(local.hour):
        return word("pattern", "departure", language, **parts)
    evening = night(reckoned_day(local).isoweekday(), language)
    return word(
        "pattern",
        "departure_night",
        language,
        night=evening,
        **parts,
        **clock_words(local, language),
    )


def calendar_date(moment: datetime, language: str) -> str:
    """The Kabul-time day as "17 Aug 2021" / "۱۷ اگست ۲۰۲۱"."""
    return word("pattern", "date", language, **_date_parts(moment, language))


def kabul_day(day: date, language: str) -> str:
    """A Kabul calendar day as a user asked for it: "Tue 24 Aug"."""
    parts = _date_parts(kabul_day_bounds(day)[0], language)
    return f"{parts['weekday']} {parts['day']} {parts['month']}"


def ago(moment: datetime, now: datetime, language: str) -> str:
    """How long ago, coarse on purpose: "just now", "40 min ago", "2 h ago", "3 days ago"."""
    seconds = max((now - moment).total_seconds(), 0)
    if seconds < 60:
        return word("label", "just_now", language)
    minutes = int(seconds // 60)
    if minutes < 60:
        unit, count = "minutes", minutes
    elif minutes < 48 * 60:
        unit, count = "hours", minutes // 60
    else:
        unit, count = "days", minutes // (24 * 60)
    number = "one" if count == 1 else "many"
    return word("ago", f"{unit}.{number}", language, n=digits(str(count), language))


def organisation(org: Organisation, language: str) -> str:
    return isolate_latin(text(org, "name", language), language)


def verified(fact: Provenance, now: datetime, language: str) -> str:
    """One fact's check, "verified 40 min ago · source: US Embassy Kabul", said beside it."""
    return _verified(fact.source, fact.verified_at, now, language)


def _verified(source: Organisation, moment: datetime, now: datetime, language: str) -> str:
    return word(
        "pattern",
        "verified",
        language,
        ago=ago(moment, now, language),
        source=organisation(source, language),
    )


def provenance(facts: Iterable[Provenance], now: datetime, language: str) -> str:
    """One "verified … ago · source: …" line per source, with that source's oldest check.

    For a block that stands for several facts at once (an airport and its advice, documents
    and who may board); a list of items gives each its own line (``verified``). The oldest,
    not the newest: a block is only as fresh as its stalest part.
    """
    oldest: dict[int, tuple[Organisation, datetime]] = {}
    for fact in facts:
        seen = oldest.get(fact.source_id)
        if seen is None or fact.verified_at < seen[1]:
            oldest[fact.source_id] = (fact.source, fact.verified_at)
    return "\n".join(
        _verified(org, verified_at, now, language) for org, verified_at in oldest.values()
    )


def place(airport: Airport, language: str) -> str:
    """The city and code: "Doha (XJD)"."""
    return f"{text(airport, 'city', language)} ({airport.iata})"


def places(airports: Sequence[Airport], language: str) -> str:
    """A list of destination names, or the word for "none"."""
    if not airports:
        return word("label", "none", language)
    names = dict.fromkeys(text(airport, "city", language) for airport in airports)
    return isolate_latin(word("label", "list_separator", language).join(names), language)


def country_name(country: Country, language: str) -> str:
    return word("country", country.value, language)


def lands_in(flight: Flight, country: Country) -> bool:
    return flight.destination.country == country


def for_country(flight: Flight, country: Country, language: str) -> str:
    """Why a flight answers a question naming ``country``: "Lands in Germany", "Evacuates
    people for Germany", or both (a German flight to Frankfurt)."""
    name = country_name(country, language)
    reasons = [
        word("for_country", reason, language, country=name)
        for reason, holds in (
            ("lands", lands_in(flight, country)),
            ("evacuates", flight.evacuates_for == country),
        )
        if holds
    ]
    return SEPARATOR.join(reasons)


def flight_line(flight: Flight, language: str, country: Country | None = None) -> str:
    """One flight as a user needs it: when, where to, who runs it, who may board, where to meet;
    for a question naming a country, first why the flight answers it."""
    lines = [
        f"{BULLET} {flight.flight_number} — {departure(flight.departs_at, language)}",
        *([f"  {for_country(flight, country, language)}"] if country else []),
        "  "
        + SEPARATOR.join(
            (
                f"{word('label', 'destination', language)}: {place(flight.destination, language)}",
                text(flight.operator, "name", language),
                word("status", flight.status.value, language),
            )
        ),
        f"  {word('label', 'eligibility', language)}: {text(flight, 'eligibility', language)}",
        f"  {word('label', 'assembly_point', language)}: "
        f"{text(flight, 'assembly_point', language)}",
    ]
    return isolate_latin("\n".join(lines), language)


def flight_lines(
    flights: Iterable[Flight], now: datetime, language: str, country: Country | None = None
) -> str:
    """One block per flight, each ending with its own check: chat shows each block as a
    message of its own, so a check in a block apart would belong to no flight."""
    return "\n\n".join(
        f"{flight_line(flight, language, country)}\n  {verified(flight, now, language)}"
        for flight in flights
    )


def gate_line(gate: Gate, now: datetime, language: str) -> str:
    """A gate's state and note, or that what we know about it is out of date; then its own
    check, which is often not the airport's (a gate closes while the airport's status stays)."""
    name = text(gate, "name", language)
    if gate.is_current(now):
        state = word("gate", gate.state.value, language)
        line = f"{BULLET} {name}: {state} — {text(gate, 'note', language)}"
    else:
        line = f"{BULLET} {name}: {word('gate', 'outdated', language)}"
    return isolate_latin(f"{line}\n  {verified(gate, now, language)}", language)


def announcement_block(announcement: Announcement, now: datetime, language: str) -> str:
    """An announcement with its date, issuer, kind, verification status, text and source."""
    heading = SEPARATOR.join(
        (
            calendar_date(announcement.published_at, language),
            text(announcement.issuer, "name", language),
            word("kind", announcement.kind.value, language),
        )
    )
    lines = [
        f"{BULLET} {heading}",
        word("verification", announcement.verification.value, language),
        text(announcement, "title", language),
        text(announcement, "text", language),
        provenance([announcement], now, language),
    ]
    return isolate_latin("\n".join(lines), language)


def verdict(claim: Claim, language: str) -> str:
    """What editors found a claim to be, as a word: "False", "Being checked"."""
    return word("verdict", claim.verdict.value, language)


def claim_block(
    claim: Claim,
    now: datetime,
    language: str,
    explanation: str | None = None,
    contact: GuidanceTopic | None = None,
    *,
    briefly: bool = False,
) -> str:
    """A rumour with its verdict, what to do instead, how the real organisation reaches
    people (``contact``, ``queries.official_contact``) and who checked it when:

    «Abbey Gate is open to everyone» — False
    It is closed; do not go there.
    US Embassy Kabul reaches people only through its own contacts: +93 700 000 131
    verified 2 h ago · source: US Embassy Kabul

    ``explanation``: a shorter one in its place, and ``briefly`` the contact's one way (an SMS
    that must fit three segments).
    """
    lines = [
        f"{BULLET} {word('label', 'claim', language, claim=text(claim, 'claim', language))}"
        f" — {verdict(claim, language)}",
        text(claim, "explanation", language) if explanation is None else explanation,
        real_contact(contact, language, briefly=briefly),
        verified(claim, now, language),
    ]
    return isolate_latin("\n".join(line for line in lines if line), language)


def real_contact(contact: GuidanceTopic | None, language: str, *, briefly: bool = False) -> str:
    """ "US Embassy Kabul reaches people only through its own contacts: +93 700 000 131,
    us-evacuation@example.org" ("" without a contact); ``briefly`` (SMS, whose check line
    names the organisation): "Its real contact: +93 700 000 131", one way only."""
    if contact is None or contact.organisation is None:
        return ""
    ways = [value for value in (contact.phone, contact.whatsapp, contact.email) if value]
    if briefly:
        ways = ways[:1]
    reach = word("label", "list_separator", language).join(
        isolate(value, language) for value in dict.fromkeys(ways)
    )
    who = text(contact.organisation, "name", language)
    key = "real_contact_brief" if briefly else "real_contact"
    return isolate_latin(word("label", key, language, organisation=who, reach=reach), language)


def guidance_lines(topics: Sequence[GuidanceTopic], language: str) -> str:
    """One "• title: advice" line per topic, or that there is no current guidance."""
    if not topics:
        return word("label", "no_current_guidance", language)
    lines = (
        f"{BULLET} {text(topic, 'title', language)}: {text(topic, 'body', language)}"
        for topic in topics
    )
    return isolate_latin("\n".join(lines), language)


def contact_block(contact: GuidanceTopic, now: datetime, language: str) -> str:
    """A help contact: who answers and for what, how to reach them and when, when checked."""
    who = text(contact, "title", language)
    if contact.organisation is not None:
        who = f"{text(contact.organisation, 'name', language)} — {who}"
    channels = (("phone", contact.phone), ("whatsapp", contact.whatsapp), ("email", contact.email))
    reach = SEPARATOR.join(
        f"{word('contact', channel, language)}: {isolate(value, language)}"
        for channel, value in channels
        if value
    )
    lines = [f"{BULLET} {who}", reach]
    hours = text(contact, "hours", language)
    if hours:
        lines.append(f"{word('contact', 'hours', language)}: {hours}")
    lines += [text(contact, "body", language), provenance([contact], now, language)]
    return isolate_latin("\n".join(lines), language)


def query(
    destination: Airport | str | None, day: date | None, flight_number: str | None, language: str
) -> str:
    """What the user asked for, in their language: "Doha · Tue 24 Aug · QR8010"."""
    parts: list[str] = []
    if isinstance(destination, Airport):
        parts.append(text(destination, "city", language))
    elif destination:
        parts.append(destination)
    if day is not None:
        parts.append(kabul_day(day, language))
    if flight_number and flight_number.isdigit():
        parts.append(number_ending(flight_number, language))
    elif flight_number:
        parts.append(flight_number)
    asked = SEPARATOR.join(parts) if parts else word("label", "any_destination", language)
    return isolate_latin(asked, language)


def number_ending(digits_typed: str, language: str) -> str:
    """The digits a user typed for a flight number: "numbers ending in 871"."""
    return word("label", "number_ending", language, digits=digits(digits_typed, language))


def flight_numbers(flights: Iterable[Flight], language: str) -> str:
    """The distinct numbers of these flights in order: "RCH871, QR1871"."""
    numbers = dict.fromkeys(flight.flight_number for flight in flights)
    return isolate_latin(word("label", "list_separator", language).join(numbers), language)


def last_checked(moment: datetime, now: datetime, language: str) -> dict[str, str]:
    """When a fact was last checked, relative and in Kabul time (a message may be read later)."""
    return {"checked_ago": ago(moment, now, language), "checked_at": departure(moment, language)}
