"""Which of the intake's lines a conversation falls in (bot/channels/intake/).

Standard library only: the benchmarks and tests that pick people sharing a line run in the
content runtime, which has no Rasa.
"""

from __future__ import annotations

import hashlib


def partition_of(conversation: str, partitions: int) -> int:
    """The line of a conversation: the same in every process (not Python's salted hash)."""
    digest = hashlib.blake2b(conversation.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % partitions
