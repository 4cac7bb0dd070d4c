"""The content runtime's words exist in every language, and a language added to the codes
without them is named entry by entry (docs/ADDING_A_LANGUAGE.md, step 2).

The words are the catalogue's (kernel/lang/texts/); its checks run here as well, in the action
server's environment, which imports it without Rasa.
"""

from __future__ import annotations

import pytest

from actions.admin.console import words as console
from kernel.lang import codes
from kernel.lang.codes import gaps
from tests.bot.test_texts import (
    test_a_missing_variable_is_an_error_not_a_placeholder_left_standing,
    test_a_new_language_is_refused_until_every_entry_has_it,
    test_every_entry_has_every_language_and_no_other,
    test_every_language_names_the_same_variables,
    test_the_catalogue_as_shipped_has_no_gaps,
    urdu,
)

__all__ = [
    "test_a_missing_variable_is_an_error_not_a_placeholder_left_standing",
    "test_a_new_language_is_refused_until_every_entry_has_it",
    "test_every_entry_has_every_language_and_no_other",
    "test_every_language_names_the_same_variables",
    "test_the_catalogue_as_shipped_has_no_gaps",
    "urdu",
]


def test_the_console_names_every_language_in_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    assert gaps(console.LANGUAGE_NAMES, "console.LANGUAGE_NAMES") == []
    monkeypatch.setattr(codes, "LANGUAGES", (*codes.LANGUAGES, "ur"))
    assert gaps(console.LANGUAGE_NAMES, "console.LANGUAGE_NAMES") == [
        "console.LANGUAGE_NAMES has no 'ur'"
    ]
