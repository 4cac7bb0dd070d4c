"""What goes before the others in a line: STOP, a withdrawal, "delete my data" and "safety"
always, then urgent words and danger while their person has jumps left (``LineShare``)."""

from __future__ import annotations

from typing import Final

from bot.nlu.stop_keywords import is_opt_out, is_withdrawal
from kernel.case_urgency import is_urgent
from kernel.danger import dangers
from kernel.lang import stop_words
from kernel.lang.codes import every_word
from kernel.lang.normalise import normalise

#: Messages that are about the person's safety or data, besides STOP and urgent words:
#: the buttons' payloads and the words people type for them, normalised (every language's:
#: kernel/lang/stop_words.py ``JUMPING_WORDS``, beside STOP's).
JUMPING_PAYLOADS: Final = ("/delete_my_data", "/unsubscribe_alerts", "/withdraw_case")
JUMPING_WORDS: Final = every_word(stop_words.JUMPING_WORDS)


def jumps_the_line(text: str | None) -> bool:
    """Whether a message may go before the others of its line: about the person's safety or
    data (``about_safety``), or urgent (``sounds_urgent``)."""
    return about_safety(text) or sounds_urgent(text)


def about_safety(text: str | None) -> bool:
    """STOP and a withdrawal, "delete my data" and "safety" (the lists of ``stop_keywords``
    and ``JUMPING_WORDS``): what always goes first, however many the person sent."""
    if not text:
        return False
    stripped = text.strip()
    if stripped.startswith(JUMPING_PAYLOADS):
        return True
    if is_opt_out(stripped) or is_withdrawal(stripped):
        return True
    return normalise(stripped).strip(" .!?؟") in JUMPING_WORDS


def sounds_urgent(text: str | None) -> bool:
    """Urgent words and danger (``case_urgency``, ``kernel/danger.py``): what goes first while
    its person has jumps left (``LineShare.jumps``)."""
    if not text:
        return False
    stripped = text.strip()
    return is_urgent(stripped) or bool(dangers(stripped))
