"""What editors publish is consistent: the rules a change must keep with the facts around it.

The editing service checks one record on its own; these rules look at a change next to the
other facts people read with it, and :mod:`actions.publishing` applies them after every publish
and rollback, whichever door it came through (CLI, admin API, console, imports of one record):

* **A closed airport has no open gate.** People asking "is the airport open?" read the gates
  under the airport's state, and "is Abbey Gate open?" reads the gate: both must say closed.
  Closing an airport whose gates still say open is refused, naming them, unless the editor asks
  to close them too (``close_gates``): each then becomes a revision of its own, closed, with the
  note "The airport is closed." in every language and the airport's check; each keeps its own
  source, whoever reports on that gate. Opening a gate at a closed airport is refused. Undoing
  the closure puts those gates back with it (:func:`actions.publishing.rollback`).
* **A gate does not say the airport is closed while it is open.** A gate still saying so after
  the airport reopened (by a new change rather than an undo, or changed since the closure, so
  that the undo left it) is not refused, since the gate itself may well still be closed, but
  listed for editors (:func:`contradicting_gates`, the console's "What needs me now").
* **A changed state does not keep a text that may say the opposite.** When a gate or an
  airport changes state, its note or advice in a language the editor left unchanged ("Open
  for people called by their embassy" under "closed") is refused unless the editor confirms
  that it still holds (``confirm_unchanged``): a second, explicit yes, since the editor often
  cannot read that language.

Each refusal is an :class:`Inconsistent` that each door words in its own language, with its
own way of saying "do it anyway" (``how``); the sentences are in the catalogue,
``kernel/lang/texts/publishing.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, joinedload

from actions.content import format as fmt
from actions.content.localise import word
from actions.content.models import (
    Airport,
    AirportState,
    AirportStatus,
    Gate,
    GateState,
    RecordKind,
    Revision,
    RevisionAction,
)
from actions.content.records import spec_for
from actions.content.validation import ContentError
from kernel.lang import texts
from kernel.lang.codes import ENGLISH, LANGUAGES
from kernel.lang.names import LANGUAGE_NAMES

#: The state of a kind and the text that explains it, which must agree with each other.
STATE_TEXTS: dict[RecordKind, tuple[str, str]] = {
    RecordKind.AIRPORT: ("state", "advice"),
    RecordKind.GATE: ("state", "note"),
}
#: The content word group (kernel/lang/texts/content.py) that names each kind's states.
STATE_WORDS: dict[RecordKind, str] = {RecordKind.AIRPORT: "status", RecordKind.GATE: "gate"}
#: How the command line says "do it anyway"; the admin API and the console say it their way.
CLOSE_GATES_FLAG = "--close-gates"
CONFIRM_UNCHANGED_FLAG = "--confirm-unchanged"


def listed(names: Sequence[str], language: str) -> str:
    return word("label", "list_separator", language).join(names)


def field_label(name: str, language: str) -> str:
    """A field as editors call it: "note" in English, «یادداشت» in Dari."""
    if language == ENGLISH:
        return name.replace("_", " ")
    return texts.render(f"console.field.{name}", language)


class Inconsistent(ContentError):
    """A change that would make published facts contradict each other.

    ``str()`` is the command line's wording; :meth:`say` words it for another door.
    """

    def __str__(self) -> str:
        return self.problem

    def say(self, language: str, how: str) -> str:
        raise NotImplementedError


class GatesStillOpen(Inconsistent):
    """Closing an airport whose gates still say open; ``gates`` are their keys."""

    def __init__(self, airport: Airport, gates: Sequence[Gate], how: str = CLOSE_GATES_FLAG):
        self.airport: dict[str, str] = {lang: fmt.text(airport, "name", lang) for lang in LANGUAGES}
        self.names: dict[str, list[str]] = {
            lang: [fmt.text(gate, "name", lang) for gate in gates] for lang in LANGUAGES
        }
        self.gates = [f"{airport.iata}/{gate.slug}" for gate in gates]
        super().__init__("state", self.say(ENGLISH, how))

    def say(self, language: str, how: str) -> str:
        gates = listed(self.names[language], language)
        airport = self.airport[language]
        return texts.render(
            "publishing.gates_open", language, airport=airport, gates=gates, how=how
        )


class GateAtClosedAirport(Inconsistent):
    """A gate opened while its airport is closed."""

    def __init__(self, gate: Gate) -> None:
        self.airport: dict[str, str] = {
            lang: fmt.text(gate.airport, "name", lang) for lang in LANGUAGES
        }
        self.gate: dict[str, str] = {lang: fmt.text(gate, "name", lang) for lang in LANGUAGES}
        super().__init__("state", self.say(ENGLISH, ""))

    def say(self, language: str, how: str = "") -> str:
        return texts.render(
            "publishing.gate_at_closed_airport",
            language,
            airport=self.airport[language],
            gate=self.gate[language],
        )


@dataclass(frozen=True)
class StateChange:
    """A record's state before and after a change, and the text that explains it."""

    kind: RecordKind
    state: str
    text: str
    before: str
    after: str


class UnchangedText(Inconsistent):
    """The state changed, the text in ``languages`` did not."""

    def __init__(
        self, change: StateChange, languages: Sequence[str], how: str = CONFIRM_UNCHANGED_FLAG
    ) -> None:
        self.change, self.languages = change, list(languages)
        super().__init__(change.text, self.say(ENGLISH, how))

    def say(self, language: str, how: str) -> str:
        change, group = self.change, STATE_WORDS[self.change.kind]
        return texts.render(
            "publishing.unchanged_text",
            language,
            state=field_label(change.state, language),
            before=word(group, change.before, language),
            after=word(group, change.after, language),
            text=field_label(change.text, language),
            languages=listed([LANGUAGE_NAMES[language][code] for code in self.languages], language),
            how=how,
        )


def state_change(revision: Revision) -> StateChange | None:
    """The change of state a revision made, for kinds whose state has a text beside it."""
    pair = STATE_TEXTS.get(revision.kind)
    if pair is None or revision.before is None:
        return None
    state, text = pair
    before, after = revision.before.get(state), revision.after.get(state)
    if before == after or before is None or after is None:
        return None
    return StateChange(revision.kind, state, text, str(before), str(after))


def unchanged_languages(revision: Revision, change: StateChange) -> list[str]:
    """The languages whose text a state change left as it was (and not empty)."""
    before = revision.before or {}
    old, new = before.get(change.text) or {}, revision.after.get(change.text) or {}
    return [lang for lang in LANGUAGES if new.get(lang) and new.get(lang) == old.get(lang)]


def gates_saying(session: Session, airport_id: int, state: GateState) -> list[Gate]:
    """The airport's current gates in ``state``, in the order answers list them (checked
    recently or not: a re-check would show an outdated one again)."""
    return list(
        session.scalars(
            select(Gate)
            .where(
                Gate.airport_id == airport_id,
                Gate.withdrawn_at.is_(None),
                Gate.state == state,
            )
            .order_by(Gate.position, Gate.id)
        )
    )


def open_gates(session: Session, airport_id: int) -> list[Gate]:
    return gates_saying(session, airport_id, GateState.OPEN)


def closed_gates(session: Session, airport_id: int) -> list[Gate]:
    return gates_saying(session, airport_id, GateState.CLOSED)


def closed_with_airport_note() -> dict[str, str]:
    """The note a gate closed with its airport gets, "The airport is closed.", per language."""
    return {lang: texts.render("publishing.closed_with_airport", lang) for lang in LANGUAGES}


def closing() -> dict[str, Any]:
    """The change that closes a gate with its airport: closed, with the note "The airport is
    closed." in every language. Its source stays the gate's own: the organisation that reports
    on that gate is still the one to ask about it."""
    return {"state": GateState.CLOSED.value, "note": closed_with_airport_note()}


def contradicting_gates(session: Session) -> list[Gate]:
    """Current gates whose note says the airport is closed while their airport is not (open,
    open with restrictions, or its status withdrawn), in the order answers list them.

    The note is matched on the sentence the close-gates path writes, in any of its languages
    and case, without its full stop, so "The airport is closed until further notice" counts.
    Each gate comes whole, with its airport and status, even when the session already holds it
    as a narrower read (the console's lists load only what their titles show).
    """
    said = [
        getattr(Gate, f"note_{lang}").icontains(phrase.rstrip(".۔ "), autoescape=True)
        for lang, phrase in closed_with_airport_note().items()
    ]
    airport_open = or_(
        AirportStatus.state != AirportState.CLOSED, AirportStatus.withdrawn_at.is_not(None)
    )
    return list(
        session.scalars(
            select(Gate)
            .join(AirportStatus, AirportStatus.airport_id == Gate.airport_id)
            .where(Gate.withdrawn_at.is_(None), airport_open, or_(*said))
            .order_by(Gate.airport_id, Gate.position, Gate.id)
            .options(joinedload(Gate.airport).joinedload(Airport.status))
            .execution_options(populate_existing=True)
        )
    )


def check_airport(
    session: Session, status: AirportStatus, close_gates: bool, how: str = CLOSE_GATES_FLAG
) -> list[Gate]:
    """A closed airport keeps no open gate: the gates to close (``close_gates``), or refused."""
    if status.withdrawn_at is not None or status.state is not AirportState.CLOSED:
        return []
    gates = open_gates(session, status.airport_id)
    if gates and not close_gates:
        raise GatesStillOpen(status.airport, gates, how)
    return gates


def check_gate(session: Session, gate: Gate) -> None:
    """A gate at a closed airport cannot be open."""
    if gate.withdrawn_at is not None or gate.state is not GateState.OPEN:
        return
    status = session.scalar(
        select(AirportStatus).where(AirportStatus.airport_id == gate.airport_id)
    )
    if status is not None and status.withdrawn_at is None and status.state is AirportState.CLOSED:
        raise GateAtClosedAirport(gate)


def check_texts(revision: Revision, confirm_unchanged: bool) -> None:
    """A changed state keeps no unchanged text unless the editor confirmed it still holds."""
    change = state_change(revision)
    if change is None or confirm_unchanged:
        return
    unchanged = unchanged_languages(revision, change)
    if unchanged:
        raise UnchangedText(change, unchanged)


def check_change(
    session: Session,
    revision: Revision,
    *,
    close_gates: bool = False,
    confirm_unchanged: bool = False,
    how_close: str = CLOSE_GATES_FLAG,
) -> list[Gate]:
    """Every rule for one revision; the gates to close with their airport, if any."""
    if revision.action is RevisionAction.WITHDRAW:
        return []
    row = session.get(spec_for(revision.kind).model, revision.record_id)
    if isinstance(row, Gate):
        check_gate(session, row)
    if revision.action is not RevisionAction.ROLLBACK:
        check_texts(revision, confirm_unchanged)
    if isinstance(row, AirportStatus):
        return check_airport(session, row, close_gates, how_close)
    return []
