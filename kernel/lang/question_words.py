"""The words a question starts with, in each language: a long message without one among its first
words, and without a question mark, was pasted from elsewhere, not asked (a chain letter to
check: bot/nlu/claim_detector.py).

Words as people type them, in each language's script and romanized; the detector normalises them
(kernel/lang/normalise.py) and reads a message against every language's, since people mix them.
The words that make a clause a question for the danger answer are another list, in
kernel/lang/danger_words.py.

Standard library only: both runtimes import it.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps

QUESTION_WORDS: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (
        "is", "are", "can", "could", "what", "when", "where", "how", "who", "which", "why",
        "does", "do", "did", "should", "will", "true",
    ),
    DARI: (
        "آیا", "چه", "چی", "کی", "کجا", "چطور", "چرا", "چند", "کدام", "چگونه", "راست",
        "aya", "chi", "che", "kuja", "chetor", "chera", "chand", "kodam", "rast",
    ),
    PASHTO: (
        "ایا", "څه", "چېرته", "کله", "څنګه", "ولې", "څوک", "کوم", "څو", "ریښتیا",
        "sa", "cherta", "kala", "sanga", "wali", "sok", "kom", "rishtia",
    ),
}  # fmt: skip

refuse_gaps(gaps(QUESTION_WORDS, "kernel/lang/question_words.py QUESTION_WORDS"))
