"""What the record form flags, in the editor's interface language: a refusal next to its field,
the "close the gates too" choice, and the texts a change of state left as they were.

The editing service and the consistency rules (``actions/consistency.py``) decide; this module
only words their refusals for a form. The difference that matters on a phone: a language the
editor left *unchanged* is not a *missing* text — it is there, and the remedy is to change it
or tick "The languages I did not change still say the same", which this says by name.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from actions import consistency
from actions.admin.console import words
from actions.admin.console.guard import Form
from actions.admin.console.guard import field as form_field
from actions.content import format as fmt
from actions.content.editing import MissingTranslation
from actions.content.models import AirportStatus, Revision
from actions.content.records import KindSpec
from actions.content.validation import ContentError
from kernel.lang.codes import LANGUAGES
from kernel.lang.names import LANGUAGE_NAMES

Errors = dict[str, dict[str, str]]


def label(name: str, language: str) -> str:
    """A field as a sentence names it: "note", «یادداشت»."""
    return consistency.field_label(name, language)


def confirm_label(spec: KindSpec, language: str) -> str | None:
    """The second, explicit yes for a text left unchanged by a change of state."""
    pair = consistency.STATE_TEXTS.get(spec.kind)
    if pair is None:
        return None
    state, text = pair
    return words.say(
        "confirm_unchanged", language, text=label(text, language), state=label(state, language)
    )


def close_gates_label(session: Session, spec: KindSpec, row: Any, language: str) -> str | None:
    """ "Close the gates too: Abbey Gate, …" on an airport's form while any of its gates is open."""
    if not isinstance(row, AirportStatus):
        return None
    gates = consistency.open_gates(session, row.airport_id)
    if not gates:
        return None
    names = consistency.listed([fmt.text(gate, "name", language) for gate in gates], language)
    return words.say("close_gates", language, gates=names)


def field_errors(error: ContentError, spec: KindSpec, form: Form, language: str) -> Errors:
    """The service's refusal placed next to its field (and language), or on the whole form."""
    if isinstance(error, MissingTranslation):
        return _missing(error, form, language)
    if isinstance(error, consistency.UnchangedText):
        flag = _unchanged(error.change, language)
        how = f"“{confirm_label(spec, language)}”"
        return {
            error.change.text: {lang: flag(lang) for lang in error.languages},
            "": {"": error.say(language, how)},
        }
    if isinstance(error, consistency.GatesStillOpen):
        how = f"“{words.say('close_gates', language, gates='…')}”"
        return {"state": {"": error.say(language, how)}}
    if isinstance(error, consistency.GateAtClosedAirport):
        return {"state": {"": error.say(language, "")}}
    if error.field is None:
        return {"": {"": str(error)}}
    name, _, lang = error.field.partition(".")
    return {name: {lang: str(error)}}


def _missing(error: MissingTranslation, form: Form, language: str) -> Errors:
    """Per language: "not changed" when its text is there, "missing" when it is empty."""
    same, allow = words.say("same_texts", language), words.say("allow_missing", language)
    found: Errors = {}
    for name, langs in error.missing.items():
        for lang in langs:
            shown = LANGUAGE_NAMES[language][lang]
            if form_field(form, f"{name}.{lang}").strip():
                said = words.say("not_changed_text", language, language_name=shown, same=same)
            else:
                said = words.say("missing_text", language, language_name=shown, allow=allow)
            found.setdefault(name, {})[lang] = said
    return found


def _unchanged(change: consistency.StateChange, language: str) -> Any:
    def flag(lang: str) -> str:
        return words.say(
            "unchanged_flag",
            language,
            state=label(change.state, language),
            text=label(change.text, language),
            language_name=LANGUAGE_NAMES[language][lang],
        )

    return flag


def unchanged_flags(revision: Revision | None, language: str) -> dict[str, str]:
    """For the preview: per content language, "The state changed, the Pashto note did not."
    (a change the editor confirmed, still shown so that it stays a deliberate choice)."""
    if revision is None:
        return {}
    change = consistency.state_change(revision)
    if change is None:
        return {}
    flag = _unchanged(change, language)
    unchanged = consistency.unchanged_languages(revision, change)
    return {lang: flag(lang) for lang in LANGUAGES if lang in unchanged}
