"""When what people typed may reach the editors' screens: only what enough different people
sent, and not in one burst on one channel.

One rule for the question log's frequent messages (``actions/questions/report.py``) and the
groups of asks on "Rumours people ask about" and "Questions waiting for an answer"
(``actions/claims/asked.py``). A person is whom the channel knows by an address (the keyed hash
``PERSON`` of ``kernel/contract.py``: three web chat pages of one client are one), else a
conversation. Masking misses names written as words (``kernel/question_mask.py``), and a web chat
sender can open conversations at will: so at least :data:`MIN_PEOPLE` people, on two channels
or more or over :data:`MIN_SPREAD` at least. Three senders on three addresses flooding 55
made-up rumours within seconds (a flood seen in a security test) pass neither. Here, below
both packages, because the questions and the claims may not import each other
(``[tool.importlinter]``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

#: k-anonymity: fewer different people than this and nothing they typed is shown.
MIN_PEOPLE: Final = 5
#: ... and unless they came on two channels or more, not within less than this.
MIN_SPREAD: Final = timedelta(hours=6)


def widely_asked(people: int, channels: int, first: datetime, last: datetime) -> bool:
    """Whether ``people`` different people asking on ``channels`` channels between ``first``
    and ``last`` may reach the editors' pages."""
    return people >= MIN_PEOPLE and (channels > 1 or last - first >= MIN_SPREAD)
