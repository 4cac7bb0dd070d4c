"""The content runtime's words exist in every language, and a language added to the codes
without them is named table by table (docs/ADDING_A_LANGUAGE.md, step 2)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from actions.admin.console import words as console
from actions.content import briefs, localise
from bot.lang import codes
from bot.lang.codes import gaps, sentence_gaps

#: Tables of sentences keyed by id, then by language.
SENTENCES: dict[str, Mapping[str, Mapping[str, object]]] = {
    "localise.PATTERNS": localise.PATTERNS,
    "localise.AGO": localise.AGO,
    "localise.STATUS": localise.STATUS,
    "localise.GATE_STATE": localise.GATE_STATE,
    "localise.VERIFICATION": localise.VERIFICATION,
    "localise.KIND": localise.KIND,
    "localise.LABELS": localise.LABELS,
    "localise.CONTACT": localise.CONTACT,
    "briefs.BRIEF_WORDS": briefs.BRIEF_WORDS,
    "console.WORDS": console.WORDS,
    "console.KINDS": console.KINDS,
    "console.FIELDS": console.FIELDS,
}
#: Tables keyed by language directly.
BY_LANGUAGE: dict[str, Mapping[str, object]] = {
    "localise.NOT_TRANSLATED": localise.NOT_TRANSLATED,
    "console.LANGUAGE_NAMES": console.LANGUAGE_NAMES,
}


def missing() -> list[str]:
    found = [gap for name, table in SENTENCES.items() for gap in sentence_gaps(table, name)]
    return found + [gap for name, table in BY_LANGUAGE.items() for gap in gaps(table, name)]


def test_every_word_of_the_content_runtime_is_in_every_language() -> None:
    assert missing() == []


def test_a_new_language_names_every_sentence_it_still_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(codes, "LANGUAGES", (*codes.LANGUAGES, "ur"))
    found = missing()
    assert "localise.STATUS['boarding'] has no 'ur'" in found
    assert "localise.NOT_TRANSLATED has no 'ur'" in found
    assert "console.WORDS['sign_in'] has no 'ur'" in found
    expected = sum(len(table) for table in SENTENCES.values()) + len(BY_LANGUAGE)
    assert len(found) == expected  # every entry of every table, once
