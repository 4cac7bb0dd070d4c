"""The bot runtime's side of the case events outbox: ``case.message`` for a person's message.

Rasa's tracker store adds a paused conversation's messages to the open case
(``bot/case_inbox.py``); when a helpdesk receives case events (``CASE_WEBHOOK_URL``) the same
transaction queues the message's ``case.message`` here, so a message is in the case and on its
way to the helpdesk together or not at all. The notifier posts it
(``actions/cases/webhook_sender.py``).

The content runtime owns the tables (migrations 0008 and 0011); both runtimes take their
definition from ``kernel/contentdb/tables.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import exists, insert, select
from sqlalchemy.engine import Connection

from kernel import case_events
from kernel.contentdb.statuses import Author, EventStatus
from kernel.contentdb.tables import case_events as case_events_table
from kernel.contentdb.tables import cases, organisations


def quiet(connection: Connection, case_id: int, channel: str) -> bool:
    """Whether the case is a quiet one of a web chat surge: the helpdesk has not been told of
    it (no ``case.opened``), and is not until a caseworker takes it."""
    if channel not in case_events.ANONYMOUS_CHANNELS:
        return False
    return not connection.scalar(
        select(
            exists().where(
                case_events_table.c.case_id == case_id,
                case_events_table.c.event_type == case_events.OPENED,
            )
        )
    )


def queue_message(connection: Connection, case_id: int, text: str, now: datetime) -> None:
    """Queues ``case.message`` for the person's ``text``, with the case as it is now (its
    priority already raised by an urgent word), in the caller's transaction; nothing for a
    quiet case of a web chat surge."""
    row: Mapping[str, Any] = (
        connection.execute(
            select(cases, organisations.c.slug)
            .outerjoin(organisations, cases.c.organisation_id == organisations.c.id)
            .where(cases.c.id == case_id)
        )
        .mappings()
        .one()
    )
    if quiet(connection, case_id, str(row["channel"])):
        return
    event_id = case_events.new_event_id()
    body = case_events.payload(
        event_id=event_id,
        event_type=case_events.MESSAGE,
        occurred_at=now,
        case=row,
        organisation=row["slug"],
        message={"author": Author.PERSON, "text": text, "written_at": now},
    )
    connection.execute(
        insert(case_events_table).values(
            event_id=event_id,
            case_id=case_id,
            event_type=case_events.MESSAGE,
            payload=case_events.encode(body),
            status=EventStatus.QUEUED,
            attempts=0,
            created_at=now,
            next_attempt_at=now,
        )
    )
