"""How many items an SMS answer lists in each language: what fits in three segments beside the
rest of the answer.

Arabic script travels as UCS-2, less than half as many characters a segment as Latin letters
(docs/SMS.md), and each language's SMS forms say their own words around the list: each language
has its own count, and a language added to ``LANGUAGES`` stops the import until it has one
(``make bench-sms`` shows what its SMS forms cost).

Standard library only: both runtimes import it.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps

#: Titles the documents answer names of each part (actions/chat/documents.py); the advice itself
#: is a detail offered by number. One in Dari and Pashto, whose SMS form also says "go only when
#: your embassy tells you".
SMS_TITLES: Final[dict[str, int]] = {ENGLISH: 2, DARI: 1, PASHTO: 1}
#: Places the nearby answer lists at most, one line each (actions/chat/nearby.py); fewer when
#: their lines and check lines would not fit in three segments (Dari and Pashto: often one, when
#: two sources checked them).
SMS_PLACES: Final[dict[str, int]] = {ENGLISH: 3, DARI: 2, PASHTO: 2}

refuse_gaps(
    gaps(SMS_TITLES, "kernel/lang/sms_lists.py SMS_TITLES")
    + gaps(SMS_PLACES, "kernel/lang/sms_lists.py SMS_PLACES")
)
