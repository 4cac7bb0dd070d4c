"""The catalogue: every sentence the assistant says outside the domain's responses, by id.

An entry is one message in every language side by side (``{"en": …, "prs": …, "ps": …}``), so
a change to one language shows the others. Ids are ``<module>.<key>``: ``channels.text_only``,
``console.sign_in``, ``content.status.boarding``; the module says where the words appear.

**Fallback, the one rule.** ``render`` answers a language the entry does not have (a code
outside ``LANGUAGES``, or None) in ``DEFAULT_LANGUAGE``, as Rasa answers with the variation
without condition. Every entry has every language of ``LANGUAGES``: the catalogue refuses to
load otherwise (``kernel/lang/codes.py`` ``refuse_gaps``), so the fallback serves unknown codes
only.

Standard library only: both runtimes import it.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping

from kernel.lang.codes import DEFAULT_LANGUAGE, sentence_gaps

#: One message in every language: language code → text.
Entry = Mapping[str, str]
#: A module's entries by key (without the module's name).
Texts = Mapping[str, Entry]


class UnknownText(KeyError):
    """No entry has this id: a caller and the catalogue disagree on a name."""


class MissingVariable(KeyError):
    """A text names a ``{variable}`` its caller did not give; a half-filled sentence would
    reach a person, so this is an error, not a placeholder left standing."""


def group(name: str, entries: Texts) -> dict[str, Entry]:
    """``entries`` with keys ``<name>.<key>``: for tables keyed by a database value, such as
    ``status.boarding``."""
    return {f"{name}.{key}": entry for key, entry in entries.items()}


def placeholders(text: str) -> set[str]:
    """The ``{variables}`` a text names: ``{"hotline"}``."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


class Catalogue:
    """Every module's entries under ``<module>.<key>``, so two modules cannot share an id."""

    def __init__(self, modules: Mapping[str, Texts]) -> None:
        self.modules = modules
        self.entries: dict[str, Entry] = {}
        for module, texts in modules.items():
            for key, entry in texts.items():
                self.entries[f"{module}.{key}"] = entry

    def __contains__(self, message: object) -> bool:
        return message in self.entries

    def entry(self, message: str) -> Entry:
        """The entry of ``message`` in every language."""
        try:
            return self.entries[message]
        except KeyError:
            raise UnknownText(message) from None

    def text(self, message: str, language: str | None) -> str:
        """The text of ``message`` in ``language`` as written, placeholders unfilled."""
        entry = self.entry(message)
        return entry.get(language or DEFAULT_LANGUAGE) or entry[DEFAULT_LANGUAGE]

    def render(self, message: str, language: str | None, /, **variables: object) -> str:
        """The text of ``message`` in ``language`` with its ``{variables}`` filled in;
        variables the text does not name are ignored (callers pass one set to several)."""
        text = self.text(message, language)
        try:
            return text.format_map(variables)
        except KeyError as missing:
            raise MissingVariable(f"{message} ({language}) needs {missing}") from None

    def gaps(self) -> list[str]:
        """Entries lacking a language of ``LANGUAGES`` (or having an unknown one)."""
        return [
            gap
            for module, texts in self.modules.items()
            for gap in sentence_gaps(texts, f"kernel/lang/texts/{module}.py")
        ]

    def ids(self, prefix: str = "") -> Iterable[str]:
        """The ids starting with ``prefix``, in the order the modules list them."""
        return [message for message in self.entries if message.startswith(prefix)]
