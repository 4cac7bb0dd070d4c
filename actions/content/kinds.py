"""What a kind of record says about itself beyond its fields, for the readers above content.

The console lists a record by its title, asks its freshness limits which facts need an editor,
previews a change as the answer to the question it answers and orders its menu; the outbox
asks whom a change is news for; an SMS names an item in its check line. Each of those reads
the kind's :class:`~actions.content.records.KindSpec`, filled from the plain values and small
functions here, so that a new kind is described in one place and none of those readers names a
kind. Plain data: the alert topic and the answering action are names, so content imports
neither the alert system nor the chat actions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from actions.content import format as fmt
from actions.content.localise import isolate_latin, word
from actions.content.models import (
    AirportStatus,
    Announcement,
    Answer,
    Claim,
    Flight,
    Gate,
    GuidanceKind,
    GuidanceTopic,
)
from actions.settings import FreshnessLimits
from kernel.lang import texts


@dataclass(frozen=True)
class Freshness:
    """One freshness limit of a kind: the setting that gives it, and the facts it is for.

    ``only`` as ``(column, value)``: the facts whose column holds the value; None: the kind's
    other facts. Data rather than a function of the row, so that the needs page can ask the
    database for each group in SQL and the answers ask the row, from the same rule.
    """

    setting: str
    only: tuple[str, Any] | None = None

    def limit(self, limits: FreshnessLimits) -> timedelta:
        return getattr(limits, self.setting)  # type: ignore[no-any-return]

    def holds(self, row: Any) -> bool:
        return self.only is not None and getattr(row, self.only[0]) == self.only[1]


def freshness_limit(rules: tuple[Freshness, ...], row: Any, limits: FreshnessLimits) -> timedelta:
    """How long after its last check ``row`` is shown without a warning (first rule it holds,
    else the rule for the others)."""
    rule = next((r for r in rules if r.holds(row)), None)
    rule = rule or next((r for r in rules if r.only is None), None)
    if rule is None:
        raise TypeError(f"no freshness limit for {type(row).__name__}")
    return rule.limit(limits)


def freshness_where(
    model: type[Any], rules: tuple[Freshness, ...], rule: Freshness
) -> tuple[Any, ...]:
    """The SQL conditions choosing the facts ``rule`` is for (none: all of the kind's)."""
    if rule.only is not None:
        return (getattr(model, rule.only[0]) == rule.only[1],)
    return tuple(getattr(model, r.only[0]) != r.only[1] for r in rules if r.only is not None)


@dataclass(frozen=True)
class TitleReads:
    """What a record's title and key read: its own columns, the record it names through
    ``through`` (a relationship, loaded in the same query) and that record's columns. A text
    stands for its three language columns."""

    own: tuple[str, ...]
    through: str | None = None
    its: tuple[str, ...] = ()


@dataclass(frozen=True)
class Asked:
    """A question a person asks that a record answers: the chat action that answers it (by
    its name, as the domain calls it) and the question's entities."""

    action: str
    entities: dict[str, str]


@dataclass(frozen=True)
class Preview:
    """How the console previews a change: the questions it answers, the first one answered
    first (a gate, then its airport's whole answer), and that first question in words when the
    kind's usual question is not enough ("is Abbey Gate open?"; empty otherwise)."""

    asks: Callable[[str, Any], tuple[Asked, ...]]
    question: Callable[[Any, str], str]


@dataclass(frozen=True)
class Alert:
    """Whom a published change is news for: subscribers of ``topic`` (the value of one of the
    alert system's topics) for the key ``about`` gives from the record's key and row (None:
    every key), when it is new or one of the ``newsworthy`` fields changed."""

    topic: str
    newsworthy: frozenset[str]
    about: Callable[[str, Any], str | None]


def no_question(row: Any, language: str) -> str:
    return ""


# Titles: a record as an editor recognises it in a list. Plain text; templates escape it.


def named(row: Any, language: str) -> str:
    return fmt.text(row, "name", language)


def titled(row: Any, language: str) -> str:
    return fmt.text(row, "title", language)


def claim_title(row: Claim, language: str) -> str:
    """ "Abbey Gate is open to everyone — False": the rumour and what editors found."""
    return f"{fmt.text(row, 'claim', language)} — {fmt.verdict(row, language)}"


def airport_status_title(row: AirportStatus, language: str) -> str:
    return fmt.text(row.airport, "name", language)


def gate_title(row: Gate, language: str) -> str:
    return f"{fmt.text(row, 'name', language)} ({row.airport.iata})"


def flight_title(row: Flight, language: str) -> str:
    """ "QR8010 — Doha, 24 Aug", with "QR8010" kept whole in a right-to-left line."""
    city = fmt.text(row.destination, "city", language)
    line = f"{row.flight_number} — {city}, {fmt.departure(row.departs_at, language)}"
    return isolate_latin(line, language)


# SMS: what a check line calls an item ("RCH871, Abbey Gate: checked 3 h ago, ...").


def flight_label(fact: Flight, language: str) -> str:
    return fact.flight_number


def gate_label(fact: Gate, language: str) -> str:
    return fmt.short_name(fmt.text(fact, "name", language))


def airport_label(fact: AirportStatus, language: str) -> str:
    return word("brief", "airport", language)


def announcement_label(fact: Announcement, language: str) -> str:
    return word("kind", fact.kind.value, language)


def claim_label(fact: Claim, language: str) -> str:
    return fmt.text(fact, "claim", language)


def question_label(fact: Answer, language: str) -> str:
    return fmt.text(fact, "question", language)


# Previews: the questions a record answers.


def airport_asked(key: str, row: Any) -> tuple[Asked, ...]:
    return (Asked("action_answer_airport_status", {"airport": key}),)


def gate_asked(key: str, row: Any) -> tuple[Asked, ...]:
    airport = {"airport": key.split("/", 1)[0]}
    return (
        Asked("action_answer_airport_status", {**airport, "gate": key}),
        Asked("action_answer_airport_status", airport),
    )


def gate_question(row: Any, language: str) -> str:
    if not isinstance(row, Gate):
        return ""
    return texts.render("console.question_gate", language, gate=fmt.text(row, "name", language))


def flight_asked(key: str, row: Any) -> tuple[Asked, ...]:
    return (Asked("action_answer_flights", {"flight_number": key.split("@", 1)[0]}),)


def announcement_asked(key: str, row: Any) -> tuple[Asked, ...]:
    return (Asked("action_answer_announcements", {}),)


def guidance_asked(key: str, row: Any) -> tuple[Asked, ...]:
    """Contacts answer "who can help?", the other topics "which documents?"."""
    if not isinstance(row, GuidanceTopic):
        return ()
    contacts = row.kind is GuidanceKind.CONTACTS
    return (Asked("action_answer_help" if contacts else "action_answer_documents", {}),)


def claim_asked(key: str, row: Any) -> tuple[Asked, ...]:
    """ "Is it true that…?" answered with this claim, as its button in "which one?" asks."""
    return (Asked("action_check_claim", {"detail": key}),)


def answer_asked(key: str, row: Any) -> tuple[Asked, ...]:
    """The question an editor's answer answers, as its button in "which question?" asks."""
    return (Asked("action_answer_question", {"detail": key}),)


def answer_question(row: Any, language: str) -> str:
    """ "Is the Torkham border open?": the question itself, previewed as asked."""
    return fmt.text(row, "question", language) if isinstance(row, Answer) else ""


def asked_inside_others(key: str, row: Any) -> tuple[Asked, ...]:
    """Organisations and airports' names appear inside other answers, not in one of their own."""
    return ()


# Alerts: the topic key a change is news for.


def airport_about(key: str, row: Any) -> str:
    return key.upper()


def gate_about(key: str, row: Any) -> str:
    return key.split("/", 1)[0].upper()


def flight_about(key: str, row: Any) -> str:
    """Subscribers of the flight's destination (and of every destination)."""
    assert isinstance(row, Flight)
    return str(row.destination.iata)


def everyone(key: str, row: Any) -> None:
    return None
