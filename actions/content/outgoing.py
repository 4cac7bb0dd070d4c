"""Where a message on its way to a person stands: the columns an alert's ``Delivery``
(``actions/alerts/models.py``) and a caseworker's ``CaseReply`` (``actions/cases/models.py``)
share. Here, at the bottom, so that cases and the question log (which content's models gather)
need nothing from the alert system; the states both go through are the outbox kernel's
(``actions/common/outbox.py``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from actions.content.columns import UTCDateTime

#: A conversation id: "<channel>-<40 hex digits>" (bot/channels/identity.py).
CONVERSATION_ID = String(64)
CHANNEL = String(32)


class Sending:
    """Where one message on its way through the notifier stands (``actions/common/outbox.py``
    reads and writes these columns; an alert's ``Delivery`` and a caseworker's ``CaseReply``
    share them, each with its own ``status``)."""

    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    rendered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: Why it failed or is being retried, e.g. "HTTP 429 (retry after 3 s)"; never an address.
    last_error: Mapped[str | None] = mapped_column(String(200))
