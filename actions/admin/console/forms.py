"""A record as a form, and a posted form as the changes the editing service takes.

Only what the editor changed is sent: an unchanged ``verified_at`` is left out, so publishing
vouches for the fact now; an unchanged ``valid_until`` is left out, so a volatile fact keeps
the length of its window. A text sends only the languages the editor changed, so the service's
rule holds here too — no language keeps an old text unnoticed — unless the editor ticks that
the other languages still say the same. Times are typed in Kabul time, as editors read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from actions.admin.console.guard import Form
from actions.common.kabul_time import KABUL
from actions.content.fields import Field, FieldType
from actions.content.records import KindSpec
from kernel.lang.codes import LANGUAGES

LOCAL_MINUTE = "%Y-%m-%dT%H:%M"


@dataclass
class FieldView:
    """One field as the template shows it."""

    name: str
    form: str
    help: str
    required: bool
    value: str = ""
    texts: dict[str, str] = field(default_factory=dict)
    choices: list[str] = field(default_factory=list)
    long: bool = True
    errors: dict[str, str] = field(default_factory=dict)  # "" for the whole field, or a language
    #: "The languages I did not change still say the same" is ticked (kept across a preview).
    same: bool = False


def local_time(iso: str | None) -> str:
    """A stored ISO UTC time as a ``datetime-local`` value in Kabul time."""
    if not iso:
        return ""
    return datetime.fromisoformat(iso).astimezone(KABUL).strftime(LOCAL_MINUTE)


def utc_time(local: str) -> str:
    """A ``datetime-local`` value in Kabul time as ISO UTC; the text as typed if it is no time
    (the service then says what is wrong with it)."""
    try:
        moment = datetime.strptime(local.strip(), LOCAL_MINUTE).replace(tzinfo=KABUL)
    except ValueError:
        return local
    return moment.astimezone(timezone.utc).isoformat()


def shown(field_: Field, value: Any) -> str:
    if value is None:
        return ""
    if field_.form is FieldType.TIME:
        return local_time(value)
    if field_.form is FieldType.LINES:
        return "\n".join(value)
    return str(value)


def views(
    spec: KindSpec,
    values: dict[str, Any],
    options: dict[str, list[str]],
    as_posted: bool = False,
) -> list[FieldView]:
    """The fields with ``values``: the snapshot form, or (``as_posted``) what the editor sent."""
    result = []
    for item in spec.fields:
        view = FieldView(item.name, item.form.value, item.help, item.required)
        value = values.get(item.name)
        if item.form is FieldType.TEXT:
            view.texts = {lang: (value or {}).get(lang, "") for lang in LANGUAGES}
            view.long = item.max_length is None
        else:
            view.value = str(value or "") if as_posted else shown(item, value)
        if item.form is FieldType.CHOICE and item.choices is not None:
            view.choices = [choice.value for choice in item.choices]
        elif item.form is FieldType.ORGANISATION:
            view.choices = options.get("organisations", [])
        elif item.form is FieldType.AIRPORT:
            view.choices = options.get("airports", [])
        result.append(view)
    return result


def posted(spec: KindSpec, form: Form) -> dict[str, Any]:
    """The form's values in the form views take (times still in Kabul time)."""
    values: dict[str, Any] = {}
    for item in spec.fields:
        if item.form is FieldType.TEXT:
            values[item.name] = {lang: _get(form, f"{item.name}.{lang}") for lang in LANGUAGES}
        else:
            values[item.name] = _get(form, item.name)
    return values


def changes(spec: KindSpec, stored: dict[str, Any] | None, form: Form) -> dict[str, Any]:
    """What the editor changed, as the service takes it."""
    stored = stored or {}
    found: dict[str, Any] = {}
    for item in spec.fields:
        before = stored.get(item.name)
        if item.form is FieldType.TEXT:
            if not any(f"{item.name}.{lang}" in form for lang in LANGUAGES):
                continue  # not on the form: unchanged
            old = {lang: (before or {}).get(lang, "") for lang in LANGUAGES}
            new = {lang: _get(form, f"{item.name}.{lang}").strip() for lang in LANGUAGES}
            edited = {lang: text for lang, text in new.items() if text != old[lang].strip()}
            if not edited:
                continue
            keep_others = _get(form, f"same.{item.name}") == "yes"
            found[item.name] = new if keep_others else {code: t for code, t in edited.items() if t}
            continue
        raw = _get(form, item.name).strip()
        if item.form is FieldType.LINES:
            typed = [line.strip() for line in raw.splitlines() if line.strip()]
            if item.name in form and typed != list(before or ()):
                found[item.name] = typed
            continue
        if item.name not in form or raw == shown(item, before):
            continue
        if item.form is FieldType.TIME and raw:
            found[item.name] = utc_time(raw)
        elif item.form is FieldType.NUMBER and raw:
            found[item.name] = int(raw) if raw.lstrip("-").isdigit() else raw
        else:
            found[item.name] = raw or None
    return found


def _get(form: Form, name: str) -> str:
    value = form.get(name, "")
    return value if isinstance(value, str) else ""
