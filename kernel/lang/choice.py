"""The conversation's language: explicit choice (sticky) > the person's own sentences > channel
hint.

A conversation that has a language (or, on its first message, a channel hint: Telegram's app
language, the web chat page's) keeps it unless the person writes what only another language
writes:

* **Shared words** («سلام», «بس», "ok", STOP, names, numbers, flight codes; the identifier
  marks such a message ``shared``) move nothing: a Pashto speaker who greets with «سلام» or
  sends the STOP a Pashto reply taught stays in Pashto.
* **Latin letters need a sentence.** English and romanized Dari and Pashto share the alphabet,
  and a word in it ("help", «sabah?») is a coin toss between them: a move away from Dari or
  Pashto needs ``SENTENCE_WORDS`` words of the new language (the identifier's ``words``). A
  Dari speaker who types "8", "yes" or a romanized Pashto word is answered in Dari still. A
  conversation held in English follows a single romanized word of Dari or Pashto: English is
  where every conversation starts, not a sign of who writes.
* **Arabic script is never English**: «سلام», «۸» or any word in it moves a conversation held
  in English (as every conversation is until its person writes) to Dari or Pashto, whatever
  the identifier's confidence between the two.
* **A forwarded message** (``contract.FORWARDED``) is someone else's words: an English rumour
  a Dari speaker passes on says nothing of the language they read.

Only an explicit choice (``set_language``) moves a chosen language. Before a message is parsed,
``language_of_letters`` is the one guess made from its letters alone (the intake's notice of the
wait, bot/channels/intake/). Standard library only.
Rasa's conversation policy (bot/policies/conversation.py) decides with it on every turn,
inside the Rasa process, so no turn costs an action-server call for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kernel.lang.codes import (
    ARABIC,
    DARI,
    DEFAULT_LANGUAGE,
    ENGLISH,
    LATIN,
    PASHTO,
    RTL_LANGUAGES,
    is_language,
)
from kernel.lang.letters import pashto_letter_count, script_of
from kernel.settings import DEFAULT_FOLLOW_CONFIDENCE

#: Words of the new language a Latin-letter message needs to move a conversation
#: (docs/BENCHMARKS.md, "A conversation keeps its language").
SENTENCE_WORDS: Final = 2


@dataclass(frozen=True)
class LanguageState:
    language: str
    chosen: bool


def choose_language(
    current: LanguageState | None,
    message: Mapping[str, Any],
    hint: str | None = None,
    follow_confidence: float = DEFAULT_FOLLOW_CONFIDENCE,
    forwarded: bool = False,
) -> LanguageState:
    """The conversation's language after ``message`` (a parse result with ``language``)."""
    named = named_language(message)
    if named:
        return LanguageState(named, chosen=True)
    if current and current.chosen:
        return current
    held = current or (LanguageState(hint, chosen=False) if is_language(hint) else None)
    detected = message.get("language") or {}
    if held is not None:
        if forwarded or not moves(held.language, detected, follow_confidence):
            return held
        return LanguageState(detected["code"], chosen=False)
    code = detected.get("code")
    if is_language(code) and (
        detected.get("script") == ARABIC or detected.get("confidence", 0.0) >= follow_confidence
    ):
        return LanguageState(code, chosen=False)
    return LanguageState(DEFAULT_LANGUAGE, chosen=False)


def named_language(message: Mapping[str, Any]) -> str | None:
    """The language a ``set_language`` message names ("Pashto", «دری», the page's button)."""
    if (message.get("intent") or {}).get("name") != "set_language":
        return None
    named = [e.get("value") for e in message.get("entities") or [] if e.get("entity") == "language"]
    return named[-1] if named and is_language(named[-1]) else None


def moves(held: str, detected: Mapping[str, Any], follow_confidence: float) -> bool:
    """Whether a message identified as ``detected`` moves a conversation held in ``held``
    (the module's doc says when)."""
    code, script = detected.get("code"), detected.get("script")
    if not is_language(code) or code == held:
        return False
    if detected.get("shared") and shares_words(held, script):
        return False
    if script == ARABIC and held not in RTL_LANGUAGES:
        return True
    if detected.get("confidence", 0.0) < follow_confidence:
        return False
    if script != LATIN or held == ENGLISH:
        return True
    # A parse from before the identifier counted words is taken as a sentence, as it was.
    return int(detected.get("words", SENTENCE_WORDS)) >= SENTENCE_WORDS


def shares_words(language: str, script: object) -> bool:
    """Whether a message of words shared between languages, written in ``script``, can be
    ``language``'s: Arabic-script words are Dari's and Pashto's, Latin letters anyone's."""
    return script != ARABIC or language in RTL_LANGUAGES


def language_of_letters(text: str) -> str | None:
    """The language a text's letters alone say, where nothing else is known yet (the intake's
    notice of the wait, before the NLU has read the message): Pashto for one of Pashto's own
    letters, else Dari for Arabic script; None for Latin letters, which English and romanized
    Dari and Pashto share. The identifier (bot/nlu/langid.py) weighs far more than this."""
    if script_of(text) != ARABIC:
        return None
    return PASHTO if pashto_letter_count(text) else DARI
