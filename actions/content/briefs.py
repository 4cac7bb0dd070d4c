"""Short forms of the content, for answers that must fit in three SMS.

The domain's SMS variations (``channel: sms_gateway`` / ``twilio_sms``) show these variables
where chat shows the full blocks of format.py: one line per flight (number, day and time,
status), a gate's state and note without its bullet, an announcement's title and trust, and
the shortest provenance, "checked 40 min ago, US Embassy Kabul". Every action sends both sets of
variables; Rasa picks the variation for the channel, so nothing here knows the channel. English
stays within the GSM-7 alphabet (no bullets, dashes or middle dots): one such character would
turn a 459-character budget into 201.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime, timedelta
from typing import Final

from actions.common.kabul_time import KABUL
from actions.content.format import (
    ago,
    clock_words,
    country_name,
    organisation,
    short_name,
    text,
)
from actions.content.format import clock as format_clock
from actions.content.localise import (
    digits,
    isolate,
    isolate_latin,
    word,
)
from actions.content.models import (
    Announcement,
    Country,
    Flight,
    Gate,
    GuidanceTopic,
    Provenance,
)
from actions.content.records import spec_of
from kernel.lang.calendar import after_midnight, month, night, reckoned_day, weekday

#: A night this many days away or more is dated: its weekday alone could be this week's.
WEEK: Final = 7


def day_and_time(moment: datetime, now: datetime, language: str) -> str:
    """ "today 15:50", «فردا ۳:۵۰ بعد از چاشت», «پنجشنبه ۲۶ د سهار ۹ بجې»: Kabul time, short.

    Dari and Pashto say the hour with the part of the day, as the chat does (format.clock):
    «۰۳:۰۰» alone is easily taken for three in the afternoon. A time after midnight they name
    by its night (``night_time``).
    """
    local = moment.astimezone(KABUL)
    day = calendar_day(local.date(), now.astimezone(KABUL).date(), language)
    if after_midnight(local.hour):
        return night_time(local, now, day, language)
    return f"{day} {format_clock(moment, language, 'brief.time')}"


def calendar_day(day: date, today: date, language: str) -> str:
    """ "today", "tomorrow" or "Thu 26": a Kabul day as an SMS names it."""
    if day == today:
        return word("brief", "today", language)
    if day == today + timedelta(days=1):
        return word("brief", "tomorrow", language)
    return f"{weekday(day.isoweekday(), language)} {digits(str(day.day), language)}"


def night_time(local: datetime, now: datetime, day: str, language: str) -> str:
    """A Kabul time after midnight: «امشب ۱:۳۵ بعد از نیمه‌شب», «د یکشنبې شپه ۱:۳۵ له نیمې
    شپې وروسته»; English "tomorrow 01:35" (``day``).

    In Kabul «فردا شب» / «سبا شپه» is the night after tomorrow's day: said of 01:35 on the
    night coming, it sends the reader a day late.
    """
    return word(
        "brief",
        "night_time",
        language,
        day=day,
        night=night_of(local, now, language),
        **clock_words(local, language),
    )


def night_of(local: datetime, now: datetime, language: str) -> str:
    """The night a time after midnight falls in, counted as the reader at ``now`` counts:
    «امشب» from the morning before until that night's 04:00, then the evening's weekday
    («یکشنبه شب»), with its date when it is a week or more away."""
    evening, reader = reckoned_day(local), reckoned_day(now.astimezone(KABUL))
    if evening == reader:
        return word("brief", "tonight", language)
    named = night(evening.isoweekday(), language)
    if abs((evening - reader).days) < WEEK:
        return named
    return word(
        "brief",
        "night_dated",
        language,
        night=named,
        day=digits(str(evening.day), language),
        month=month(evening.month, language),
    )


def flight_brief(
    flight: Flight, now: datetime, language: str, country: Country | None = None
) -> str:
    """One line: "RCH871 today 15:50, Boarding"; for a question naming a country, where it
    goes and why it answers: "GAF612 today 13:00, Scheduled, to Tashkent, evacuates for
    Germany"."""
    status = word("status", flight.status.value, language)
    comma = "، " if language != "en" else ", "
    line = f"{flight.flight_number} {day_and_time(flight.departs_at, now, language)}{comma}{status}"
    if country is not None:
        line += comma + for_country_brief(flight, country, language)
    return isolate_latin(line, language)


def for_country_brief(flight: Flight, country: Country, language: str) -> str:
    """ "to Ramstein" (in the country asked for), "to Tashkent, evacuates for Germany"."""
    city = text(flight.destination, "city", language)
    reason = "evacuates_brief" if flight.evacuates_for == country else "lands_brief"
    return word("for_country", reason, language, city=city, country=country_name(country, language))


def flights_brief(
    flights: Iterable[Flight], now: datetime, language: str, country: Country | None = None
) -> str:
    return "\n".join(flight_brief(flight, now, language, country) for flight in flights)


def later_flights(flights: Sequence[Flight], language: str) -> str:
    """The numbers of the flights after those an SMS lists: "Later: RCH618, GAF614" (each is
    one question away: its number)."""
    separator = word("label", "list_separator", language)
    numbers = separator.join(dict.fromkeys(flight.flight_number for flight in flights))
    return isolate_latin(word("brief", "later", language, numbers=numbers), language)


def gate_brief(gate: Gate, now: datetime, language: str) -> str:
    """ "Abbey Gate: closed. Closed because of …", or that it is out of date."""
    name = text(gate, "name", language)
    if not gate.is_current(now):
        return isolate_latin(f"{name}: {word('gate', 'outdated', language)}", language)
    state = word("gate", gate.state.value, language)
    return isolate_latin(f"{name}: {state}. {text(gate, 'note', language)}", language)


def trust(announcement: Announcement, language: str) -> str:
    """How far to trust it, in two words: "UNVERIFIED claim", "تایید نشده"."""
    return word("brief", announcement.verification.value, language)


def announcement_brief(announcement: Announcement, language: str) -> str:
    """ "General amnesty announced … (UNVERIFIED claim, Taliban spokesman …)"."""
    issuer = text(announcement.issuer, "name", language)
    comma = "، " if language != "en" else ", "
    title = text(announcement, "title", language)
    return isolate_latin(f"{title} ({trust(announcement, language)}{comma}{issuer})", language)


#: Up to this many items listed, every check line names its items when there are several.
NAMED_ITEMS = 3


def checked(
    facts: Sequence[Provenance],
    now: datetime,
    language: str,
    stale: Callable[[Provenance], bool] = lambda fact: False,
) -> str:
    """The shortest provenance of what an SMS lists: one line per source, with its oldest check.

    "checked 40 min ago, US Embassy Kabul" when one source stands behind everything listed;
    from several, each line names its own items first: "RCH871, RCH618: checked 3 h ago, US
    Embassy Kabul" / "QR8010: checked 15 min ago, Qatar Airways". A list of more than
    ``NAMED_ITEMS`` (an airport and its gates) names only the exceptions: the line of the
    largest group comes first, without names, and stands for the rest. The oldest, as in
    format.provenance: a group is only as fresh as its stalest item. A group with a check
    older than its kind's freshness limit (``stale``) says so in a few words.
    """
    by_source: dict[int, list[Provenance]] = {}
    for fact in facts:
        by_source.setdefault(fact.source_id, []).append(fact)
    groups = list(by_source.values())
    unnamed: list[Provenance] | None = None
    if len(facts) > NAMED_ITEMS:
        unnamed = max(groups, key=len)  # the first of the largest
        groups.remove(unnamed)
        groups.insert(0, unnamed)
    lines = []
    for group in groups:
        oldest = min(group, key=lambda fact: fact.verified_at)
        line = word(
            "brief",
            "checked",
            language,
            ago=ago(oldest.verified_at, now, language),
            source=organisation(oldest.source, language),
        )
        if any(stale(fact) for fact in group):
            line = word("brief", "may_be_old", language, checked=line)
        if len(groups) > 1 and group is not unnamed:
            names = dict.fromkeys(label(fact, language) for fact in group)
            separator = word("label", "list_separator", language)
            line = word("brief", "items", language, items=separator.join(names), checked=line)
        lines.append(line)
    return isolate_latin("\n".join(lines), language)


def label(fact: Provenance, language: str) -> str:
    """What an SMS calls an item in its check line: "RCH871", "Abbey Gate", "airport"."""
    spec = spec_of(fact)
    if spec is None or spec.sms_label is None:
        raise TypeError(f"no label for {type(fact).__name__}")
    return spec.sms_label(fact, language)


def gates_brief(
    gates: Iterable[Gate], now: datetime, language: str, source_id: int | None = None
) -> str:
    """One short line per gate with current information: its name and state, no note
    ("Abbey Gate: closed"), named without the gloss in brackets the full answer gives. A gate
    known only from old information is left out: the SMS answer vouches for what it lists,
    and the full answer says which are out of date. With ``source_id``, only the gates that
    source checked (the others go on lines of their own, ``gates_elsewhere``)."""
    lines = [
        gate_state(gate, language)
        for gate in gates
        if gate.is_current(now) and source_id in (None, gate.source_id)
    ]
    return isolate_latin("\n".join(lines), language)


def gates_elsewhere(
    gates: Iterable[Gate],
    now: datetime,
    language: str,
    source_id: int,
    stale: Callable[[Provenance], bool] = lambda fact: False,
) -> str:
    """The current gates another source than ``source_id`` checked, one line per source with
    its check: "Baron Hotel side: open; checked 1 h ago, UK Foreign Office (FCDO)". Each line
    stands alone, so an SMS cut at a line never shows a gate without its source."""
    by_source: dict[int, list[Gate]] = {}
    for gate in gates:
        if gate.is_current(now) and gate.source_id != source_id:
            by_source.setdefault(gate.source_id, []).append(gate)
    separator = word("label", "list_separator", language)
    lines = [
        word(
            "brief",
            "with_check",
            language,
            items=separator.join(gate_state(gate, language) for gate in group),
            checked=checked(group, now, language, stale),
        )
        for group in by_source.values()
    ]
    return isolate_latin("\n".join(lines), language)


def gate_state(gate: Gate, language: str) -> str:
    """ "Abbey Gate: closed"."""
    return f"{short_name(text(gate, 'name', language))}: " + word(
        "gate", gate.state.value, language
    )


def contact_brief(contact: GuidanceTopic, language: str) -> str:
    """ "Protection information line +93 700 000 101": what it is and one way to reach it."""
    reach = contact.phone or contact.whatsapp or contact.email or ""
    title = isolate_latin(text(contact, "title", language), language)
    return f"{title} {isolate(reach, language)}".strip()


def titles(topics: Sequence[GuidanceTopic], language: str, most: int) -> str:
    """The first ``most`` guidance titles on one line, "…" when there are more:
    "Passport or tazkira, Visa and SIV papers, Documents for children…"."""
    separator = word("label", "list_separator", language)
    joined = separator.join(text(topic, "title", language) for topic in topics[:most])
    return isolate_latin(joined + ("…" if len(topics) > most else ""), language)


def other_topics(others: Sequence[Announcement], language: str) -> str:
    """One line on the announcements not shown: their kinds, to write back ("amnesty")."""
    if not others:
        return ""
    kinds = dict.fromkeys(word("kind", item.kind.value, language) for item in others)
    separator = word("label", "list_separator", language)
    return word("brief", "others", language, topics=separator.join(kinds))
