"""How long and how much of a rumour's ask the claims keep. The asks themselves are the
``claim_asks`` model (``actions/content/asks.py``), defined at the bottom so that the
alert system can end an asker's wish without the claims.
"""

from __future__ import annotations

#: How long an asker's wish to be told (and the address it needs) is kept at most.
ANSWER_WINDOW_HOURS = 72
#: The longest masked text kept of one ask; a pasted chain letter is cut, never kept whole.
MAX_ASK_TEXT = 500
