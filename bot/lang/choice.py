"""The conversation's language: explicit choice (sticky) > confident detection > channel hint.

A message made only of words Dari and Pashto share («سلام», «بس», "ok", names, numbers, flight
codes; the identifier marks it ``shared``) is no detection at all for a conversation that has a
language: a Pashto speaker who greets with «سلام» stays in Pashto. It still decides the first
message of a conversation when no channel hint does, since a guess beats English for «سلام»;
and words in Arabic script are shared by Dari and Pashto only, never by English: «سلام» still
moves a conversation that is in English (as every conversation is until its person writes)
to the language the identifier guesses.

Standard library only. Rasa's conversation policy (bot/policies/conversation.py) decides with it
on every turn, inside the Rasa process, so no turn costs an action-server call for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.lang.codes import ARABIC, DEFAULT_LANGUAGE, RTL_LANGUAGES, is_language
from bot.settings import DEFAULT_FOLLOW_CONFIDENCE


@dataclass(frozen=True)
class LanguageState:
    language: str
    chosen: bool


def choose_language(
    current: LanguageState | None,
    message: Mapping[str, Any],
    hint: str | None = None,
    follow_confidence: float = DEFAULT_FOLLOW_CONFIDENCE,
) -> LanguageState:
    """The conversation's language after ``message`` (a parse result with ``language``)."""
    if (message.get("intent") or {}).get("name") == "set_language":
        named = [
            e.get("value") for e in message.get("entities") or [] if e.get("entity") == "language"
        ]
        if named and is_language(named[-1]):
            return LanguageState(named[-1], chosen=True)
    if current and current.chosen:
        return current
    detected = message.get("language") or {}
    if detected.get("shared"):
        kept = current or (LanguageState(hint, chosen=False) if is_language(hint) else None)
        if kept and shares_words(kept.language, detected.get("script")):
            return kept
    if is_language(detected.get("code")) and detected.get("confidence", 0.0) >= follow_confidence:
        return LanguageState(detected["code"], chosen=False)
    if current:
        return current
    return LanguageState(hint if is_language(hint) else DEFAULT_LANGUAGE, chosen=False)


def shares_words(language: str, script: object) -> bool:
    """Whether a message of words shared between languages, written in ``script``, can be
    ``language``'s: Arabic-script words are Dari's and Pashto's, Latin letters anyone's."""
    return script != ARABIC or language in RTL_LANGUAGES
