"""What became of a caseworker's reply after the provider took it: the reply goes out through the
alert channel tagged with its outbox row, the id the provider gave it is stored there, and
WhatsApp's ``statuses`` and Twilio's status callbacks, posted to the real blueprints, mark the
reply delivered or failed with the provider's error code (what the console shows the
caseworker), never storing the number they name."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
import sqlalchemy as sa

from bot.channels.addresses import AddressBook
from bot.channels.identity import conversation_id
from bot.channels.twilio_sms import TwilioSmsInput
from bot.channels.whatsapp import WhatsAppInput
from kernel.contract import CASE_REPLY
from tests.channels.channel_support import FakeProvider, Serve, fixture, replying
from tests.channels.test_deliveries import queue_case_reply
from tests.channels.test_delivery_statuses import (  # noqa: F401  (fixtures)
    SMS_NUMBER,
    STATUS_PATH,
    TWILIO_PUBLIC,
    TWILIO_SID,
    WAMID,
    callback,
    notify,
    status_of,
    twilio,
    whatsapp,
)
from tests.channels.test_whatsapp import USER

#: What the caseworker wrote.
REPLY_TEXT = "سلام، کیس شما را دیدم. فردا ساعت ۹ به شما زنگ می‌زنیم."
#: Where a reply, its person's address and what the providers said of it are kept.
TABLES = ("provider_messages", "case_replies", "case_messages", "cases", "alert_addresses")


@pytest.fixture
def book(address_book: AddressBook) -> AddressBook:
    """The address book, with no cases, replies or addresses left by an earlier test."""
    with address_book.engine.begin() as connection:
        for table in TABLES:
            connection.execute(sa.text(f"DELETE FROM {table}"))
    return address_book


def reply_row(book: AddressBook, reply: int) -> dict[str, Any]:
    with book.engine.connect() as connection:
        found = connection.execute(
            sa.text("SELECT * FROM case_replies WHERE id = :id"), {"id": reply}
        ).one()
    return dict(found._mapping)


def everything_stored(book: AddressBook) -> str:
    """Every row of the case, its reply, the provider's ids and the address, as text."""
    with book.engine.connect() as connection:
        return "\n".join(
            str(tuple(found))
            for table in TABLES
            for found in connection.execute(sa.text(f"SELECT * FROM {table}"))
        )


async def reply_through(
    channel: Any, book: AddressBook, conversation: str, address: str, reply: int
) -> None:
    """The alert channel sends the caseworker's reply to the stored address, tagged with its
    row as ``action_send_case_reply`` tags it, when the courier triggers it."""
    expires = datetime.now(timezone.utc) + timedelta(days=30)
    await book.remember(conversation, channel.name(), address, expires)
    output = channel.get_output_channel()
    await output.send_response(conversation, {"text": REPLY_TEXT, "custom": {CASE_REPLY: reply}})


async def test_a_caseworkers_reply_on_whatsapp_is_marked_delivered_then_failed_with_its_code(
    whatsapp: WhatsAppInput,  # noqa: F811  (the fixture imported above)
    book: AddressBook,
    provider: FakeProvider,
    serve: Serve,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    conversation = conversation_id("whatsapp", USER)
    reply = queue_case_reply(book, channel="whatsapp", conversation=conversation)
    url = await serve(whatsapp, replying())
    await reply_through(whatsapp, book, conversation, USER, reply)
    [sent] = provider.requests
    assert sent.json()["text"] == {"body": REPLY_TEXT}
    assert reply_row(book, reply)["provider_message_id"] == WAMID

    assert await notify(url, status_of(fixture("whatsapp_status_failed.json"), "delivered")) == 200
    stored = reply_row(book, reply)
    assert (stored["provider_status"], stored["provider_error"]) == ("delivered", None)

    assert await notify(url, fixture("whatsapp_status_failed.json")) == 200
    stored = reply_row(book, reply)
    assert (stored["provider_status"], stored["provider_error"]) == ("failed", "131026")
    assert stored["status_at"] is not None
    assert USER not in everything_stored(book) and USER not in caplog.text


async def test_a_caseworkers_reply_by_twilio_sms_is_marked_delivered_then_undelivered(
    twilio: TwilioSmsInput,  # noqa: F811  (the fixture imported above)
    book: AddressBook,
    provider: FakeProvider,
    serve: Serve,
) -> None:
    conversation = conversation_id("twilio_sms", SMS_NUMBER)
    reply = queue_case_reply(book, channel="twilio_sms", conversation=conversation)
    url = await serve(twilio, replying())
    base_url = url.removesuffix("/webhooks/twilio_sms")
    await reply_through(twilio, book, conversation, SMS_NUMBER, reply)
    [sent] = provider.requests
    assert sent.form()["StatusCallback"] == TWILIO_PUBLIC + STATUS_PATH
    assert reply_row(book, reply)["provider_message_id"] == TWILIO_SID

    unsigned = fixture("twilio_status_undelivered_21610.json")
    assert await callback(base_url, unsigned, signed=False) == 403
    assert reply_row(book, reply)["provider_status"] is None

    assert await callback(base_url, fixture("twilio_status_delivered.json")) == 204
    assert reply_row(book, reply)["provider_status"] == "delivered"
    assert await callback(base_url, fixture("twilio_status_undelivered_21610.json")) == 204
    stored = reply_row(book, reply)
    assert (stored["provider_status"], stored["provider_error"]) == ("failed", "21610")
    assert SMS_NUMBER.removeprefix("+") not in everything_stored(book)
