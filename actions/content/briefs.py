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

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from actions.common.kabul_time import KABUL
from actions.content.format import ago, organisation, text
from actions.content.localise import (
    digits,
    isolate,
    isolate_latin,
    word,
)
from actions.content.models import Announcement, Flight, Gate, GuidanceTopic, Provenance
from bot.lang.calendar import weekday


def day_and_time(moment: datetime, now: datetime, language: str) -> str:
    """ "today 15:50", "tomorrow 09:20", "Thu 3 Dec"-less "Thu 3 15:50": Kabul time, short."""
    local, today = moment.astimezone(KABUL), now.astimezone(KABUL).date()
    clock = digits(local.strftime("%H:%M"), language)
    if local.date() == today:
        day = word("brief", "today", language)
    elif local.date() == today + timedelta(days=1):
        day = word("brief", "tomorrow", language)
    else:
        day = f"{weekday(local.isoweekday(), language)} {digits(str(local.day), language)}"
    return f"{day} {clock}"


def flight_brief(flight: Flight, now: datetime, language: str) -> str:
    """One line: "RCH871 today 15:50, Boarding"."""
    status = word("status", flight.status.value, language)
    comma = "، " if language != "en" else ", "
    line = f"{flight.flight_number} {day_and_time(flight.departs_at, now, language)}{comma}{status}"
    return isolate_latin(line, language)


def flights_brief(flights: Iterable[Flight], now: datetime, language: str) -> str:
    return "\n".join(flight_brief(flight, now, language) for flight in flights)


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


def checked(facts: Sequence[Provenance], now: datetime, language: str, stale: bool) -> str:
    """The shortest provenance: the oldest check among ``facts`` and who was checked then.

    The oldest, as in format.provenance: an answer is only as fresh as its stalest part. A
    check older than its freshness limit says so in a few words, inside the answer.
    """
    if not facts:
        return ""
    oldest = min(facts, key=lambda fact: fact.verified_at)
    line = word(
        "brief",
        "checked",
        language,
        ago=ago(oldest.verified_at, now, language),
        source=organisation(oldest.source, language),
    )
    if stale:
        line = word("brief", "may_be_old", language, checked=line)
    return line


def gates_brief(gates: Iterable[Gate], now: datetime, language: str) -> str:
    """One short line per gate with current information: its name and state, no note
    ("Abbey Gate: closed"), named without the gloss in brackets the full answer gives. A gate
    known only from old information is left out: the SMS answer vouches for what it lists,
    and the full answer says which are out of date."""
    lines = [
        f"{short_name(text(gate, 'name', language))}: " + word("gate", gate.state.value, language)
        for gate in gates
        if gate.is_current(now)
    ]
    return isolate_latin("\n".join(lines), language)


def short_name(name: str) -> str:
    """ "Baron Hotel side" of "Baron Hotel side (UK processing centre)"."""
    return name.split(" (")[0]


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
