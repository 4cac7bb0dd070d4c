"""An alert, or a caseworker's reply, goes out once: claimed right before sending, released when
the provider refuses, recorded even when the request that asked for it is cancelled (a notifier
killed mid-send)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest
import sqlalchemy as sa

from bot.channels.addresses import AddressBook
from bot.channels.deliveries import OUTBOXES, DeliveryLog
from kernel.contract import CASE_REPLY

NOW = datetime(2021, 8, 26, 12, 0, tzinfo=timezone.utc)


def queue_delivery(book: AddressBook, delivery: int = 1, status: str = "sending") -> None:
    """One delivery of one broadcast of one revision, as the content runtime writes them."""
    with book.engine.begin() as connection:
        if not connection.execute(sa.text("SELECT count(*) FROM revisions")).scalar():
            connection.execute(
                sa.text(
                    "INSERT INTO revisions (id, kind, record_id, record_key, action, editor, note,"
                    " created_at, after) VALUES (1, 'airport', 1, 'KBL', 'update', 'amina', '',"
                    " :now, '{}')"
                ),
                {"now": NOW},
            )
            connection.execute(
                sa.text(
                    "INSERT INTO alert_broadcasts (id, revision_id, topic, topic_key, editor,"
                    " created_at) VALUES (1, 1, 'airport', 'KBL', 'amina', :now)"
                ),
                {"now": NOW},
            )
        connection.execute(
            sa.text(
                "INSERT INTO alert_deliveries (id, broadcast_id, conversation_id, channel, status,"
                " attempts, next_attempt_at) VALUES (:id, 1, :c, 'telegram', :status, 1, :now)"
            ),
            {"id": delivery, "c": f"telegram-{delivery:040x}", "status": status, "now": NOW},
        )


def state(book: AddressBook, delivery: int = 1) -> tuple[bool, bool]:
    """(claimed, delivered)."""
    with book.engine.connect() as connection:
        rendered, delivered = connection.execute(
            sa.text("SELECT rendered_at, delivered_at FROM alert_deliveries WHERE id = :id"),
            {"id": delivery},
        ).one()
    return rendered is not None, delivered is not None


@pytest.fixture
def book(address_book: AddressBook) -> AddressBook:
    with address_book.engine.begin() as connection:
        for table in (
            "alert_deliveries",
            "alert_broadcasts",
            "revisions",
            "case_replies",
            "case_messages",
            "cases",
        ):
            connection.execute(sa.text(f"DELETE FROM {table}"))
    return address_book


async def test_a_delivery_triggered_twice_is_sent_once(book: AddressBook) -> None:
    queue_delivery(book)
    sent: list[int] = []

    async def send() -> None:
        sent.append(1)

    log = DeliveryLog(book.engine, clock=lambda: NOW)
    assert await log.send_once(1, send) is True
    assert await log.send_once(1, send) is False
    assert sent == [1]
    assert state(book) == (True, True)


async def test_a_refusal_releases_the_claim_for_the_retry(book: AddressBook) -> None:
    queue_delivery(book)

    async def refused() -> None:
        raise RuntimeError("HTTP 429")

    log = DeliveryLog(book.engine, clock=lambda: NOW)
    with pytest.raises(RuntimeError):
        await log.send_once(1, refused)
    assert state(book) == (False, False)

    async def accepted() -> None:
        pass

    assert await log.send_once(1, accepted) is True
    assert state(book) == (True, True)


async def test_only_deliveries_being_sent_are_sent(book: AddressBook) -> None:
    queue_delivery(book, status="cancelled")

    async def send() -> None:
        raise AssertionError("a cancelled alert must not be sent")

    assert await DeliveryLog(book.engine).send_once(1, send) is False


async def test_a_cancelled_request_still_sends_and_records_what_it_began(book: AddressBook) -> None:
    queue_delivery(book)
    started, finished = asyncio.Event(), asyncio.Event()

    async def slow_provider() -> None:
        started.set()
        await asyncio.sleep(0.2)
        finished.set()

    request = asyncio.create_task(DeliveryLog(book.engine).send_once(1, slow_provider))
    await started.wait()
    request.cancel()  # what Sanic does when the notifier's connection drops
    with pytest.raises(asyncio.CancelledError):
        await request
    await asyncio.wait_for(finished.wait(), 2)
    for _ in range(50):  # the record is written in a worker thread just after
        if state(book) == (True, True):
            break
        await asyncio.sleep(0.02)
    assert state(book) == (True, True)


def queue_case_reply(
    book: AddressBook,
    status: str = "sending",
    channel: str = "telegram",
    conversation: str = "telegram-1",
) -> int:
    """A caseworker's reply to a person on ``channel``, as the console writes it."""
    whose = {"c": conversation, "channel": channel}
    with book.engine.begin() as connection:
        case = connection.execute(
            sa.text(
                "INSERT INTO cases (conversation_id, channel, language, status, priority,"
                " opened_at, active_at, taken_by) VALUES (:c, :channel, 'prs',"
                " 'taken', 0, :now, :now, 'farida') RETURNING id"
            ),
            {"now": NOW, **whose},
        ).scalar_one()
        line = connection.execute(
            sa.text(
                "INSERT INTO case_messages (case_id, author, text, written_at)"
                " VALUES (:case, 'caseworker', 'سلام', :now) RETURNING id"
            ),
            {"case": case, "now": NOW},
        ).scalar_one()
        return int(
            connection.execute(
                sa.text(
                    "INSERT INTO case_replies (case_id, message_id, conversation_id, channel,"
                    " language, status, attempts, next_attempt_at) VALUES (:case, :line,"
                    " :c, :channel, 'prs', :status, 1, :now) RETURNING id"
                ),
                {"case": case, "line": line, "status": status, "now": NOW, **whose},
            ).scalar_one()
        )


async def test_a_case_reply_triggered_twice_is_sent_once(book: AddressBook) -> None:
    reply = queue_case_reply(book)
    queue_delivery(book, delivery=reply)  # an alert with the same number is another row
    sent: list[str] = []

    async def send() -> None:
        sent.append("reply")

    log = DeliveryLog(book.engine, clock=lambda: NOW, table=OUTBOXES[CASE_REPLY])
    assert await log.send_once(reply, send) is True
    assert await log.send_once(reply, send) is False
    assert sent == ["reply"]
    with book.engine.connect() as connection:
        delivered = connection.execute(
            sa.text("SELECT delivered_at FROM case_replies WHERE id = :id"), {"id": reply}
        ).scalar_one()
    assert delivered is not None
    assert state(book, reply) == (False, False)  # the alert is untouched


async def test_a_refused_case_reply_is_released_and_a_finished_one_not_sent(
    book: AddressBook,
) -> None:
    reply = queue_case_reply(book)
    log = DeliveryLog(book.engine, table=OUTBOXES[CASE_REPLY])

    async def refused() -> None:
        raise RuntimeError("HTTP 403")

    with pytest.raises(RuntimeError):
        await log.send_once(reply, refused)
    with book.engine.connect() as connection:
        claimed = connection.execute(
            sa.text("SELECT rendered_at FROM case_replies WHERE id = :id"), {"id": reply}
        ).scalar_one()
    assert claimed is None  # the courier's retry can send it
    failed = queue_case_reply(book, status="failed")

    async def never() -> None:
        raise AssertionError("a failed reply must not be sent")

    assert await log.send_once(failed, never) is False
