"""The record of each queued turn in the channel memory: under way once the first reply went
out, then its outcome, with the language it answered in. A message taken back after a restart
or a lost lease is answered again only when its record says nobody was answered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.channels.intake.line import Job
from bot.channels.turns import TurnReplies

#: How long a turn's record of having answered is kept: longer than a message ever waits.
ANSWERED_SECONDS: Final = 24 * 3600.0
#: A turn's record while it runs, from its first reply: taken back with this record, its
#: turn was cut off in the middle (``Intake._say_cut_off``).
UNDER_WAY: Final = "under way"


def turn_record(job: Job, state: str, outputs: Sequence[TurnReplies]) -> dict[str, str]:
    """The record of ``job``'s turn in ``state`` (``UNDER_WAY`` or an ``Outcome``'s value),
    with the language its replies named so far. What the intake says by itself later (the
    notice of the wait, the word that an answer was cut off) reads it instead of the
    tracker: in a surge most of the people waiting are told, and each tracker read is a
    turn's worth of SQL; a turn cut off never stored its language at all."""
    kept = {answered_key(job.key): state}
    said_in = next((out.named_language for out in reversed(outputs) if out.named_language), None)
    if said_in and not any(out.forgotten for out in outputs):
        kept[language_key(job.conversation)] = said_in
    return kept


def answered_key(job_key: str) -> str:
    """The channel memory's key of the record that the message ``job_key`` was answered."""
    return f"intake:answered:{job_key}"


def told_key(conversation: str) -> str:
    """The channel memory's mark that ``conversation`` was told of the wait lately."""
    return f"intake:told:{conversation}"


def language_key(conversation: str) -> str:
    """The channel memory's key of the language ``conversation`` was last answered in."""
    return f"intake:language:{conversation}"
