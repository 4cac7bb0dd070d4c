"""The values a status column of the content database takes, spelled once for both runtimes.

The bot runtime claims deliveries and writes case messages and events with these; the content
runtime's models store them through CHECK constraints built from the same classes
(``tables.py``), so a value one side writes is always one the other reads.
"""

from __future__ import annotations

import enum
from typing import Final


class DeliveryStatus(str, enum.Enum):
    """Where an alert or a caseworker's reply on its way to a person stands."""

    QUEUED = "queued"  # waiting for its turn (or for a retry after ``next_attempt_at``)
    SENDING = "sending"  # claimed by a notifier, handed to Rasa
    SENT = "sent"  # Rasa's channel handed it to the provider
    FAILED = "failed"  # given up: no address any more, or every retry failed
    CANCELLED = "cancelled"  # the subscriber opted out before it went out
    SUPERSEDED = "superseded"  # a newer change to the same thing went out instead


class CaseStatus(str, enum.Enum):
    WAITING = "waiting"  # in the queue, nobody has taken it
    TAKEN = "taken"  # one caseworker holds the conversation
    CLOSED = "closed"  # handed back to the assistant


#: A case in one of these still holds the conversation: a person's messages go to it.
OPEN_CASE_STATUSES: Final = (CaseStatus.WAITING, CaseStatus.TAKEN)


class Priority(int, enum.Enum):
    NORMAL = 0
    URGENT = 1  # medical, a child, violence (kernel/case_urgency.py)


class Author(str, enum.Enum):
    """Who wrote a line of a case."""

    PERSON = "person"
    ASSISTANT = "assistant"  # the assistant's last answers before the case, for context
    CASEWORKER = "caseworker"


class EventStatus(str, enum.Enum):
    """Where an event for the helpdesk (``case_events``) stands."""

    QUEUED = "queued"  # waiting for its turn (or for a retry after ``next_attempt_at``)
    SENDING = "sending"  # claimed by a notifier, being posted
    SENT = "sent"  # the helpdesk answered 2xx
    FAILED = "failed"  # every attempt failed; the case's later events go on
