"""What became of an alert after the provider took it: the provider's message id stored on
send (for Kannel, which gives none, the one in the SMS's dlr-url), WhatsApp's ``statuses``,
Twilio's status callbacks and Kannel's delivery reports recorded on the delivery's row through
the real blueprints, never the number they name; and Twilio's "texted STOP" at send time is
the person's refusal, for good."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest
import sqlalchemy as sa

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertNotDelivered
from bot.channels.deliveries import DeliveryLog
from bot.channels.identity import conversation_id
from bot.channels.kannel import KannelInput, query_fields
from bot.channels.settings import KannelSettings, TwilioSettings, WhatsAppSettings
from bot.channels.statuses import ProviderStatus, StatusLog
from bot.channels.transport import SENT_MESSAGE_IDS
from bot.channels.twilio_sms import TwilioSmsInput, twilio_signature
from bot.channels.whatsapp import SIGNATURE_HEADER, WhatsAppInput
from kernel.contract import ALERT_DELIVERY
from tests.channels.channel_support import FakeProvider, Serve, fixture, replying
from tests.channels.test_deliveries import queue_delivery
from tests.channels.test_kannel import REPORT
from tests.channels.test_kannel import SECRET as KANNEL_SECRET
from tests.channels.test_whatsapp import (
    ACCESS_TOKEN,
    APP_SECRET,
    PHONE_NUMBER_ID,
    USER,
    VERIFY_TOKEN,
    signature,
)

WAMID = "wamid.HBgLOTM3MDAwMDAyMDEVAgARGBJCNUYyRDVFMjYzNDU2N0ZDQgA="
TWILIO_SID = "SM9c1b2d3e4f5a6b7c8d9e0f1a2b3c4d5e"
TWILIO_TOKEN = "test-auth-token-0123456789abcdef"
TWILIO_PUBLIC = "https://bot.example.org"
STATUS_PATH = "/webhooks/twilio_sms/status"
SMS_NUMBER = "+93700000001"


@pytest.fixture
def book(address_book: AddressBook) -> AddressBook:
    with address_book.engine.begin() as connection:
        for table in (
            "provider_messages",
            "alert_deliveries",
            "alert_broadcasts",
            "revisions",
            "alert_addresses",
        ):
            connection.execute(sa.text(f"DELETE FROM {table}"))
    return address_book


def row(book: AddressBook, delivery: int = 1) -> dict[str, Any]:
    with book.engine.connect() as connection:
        found = connection.execute(
            sa.text("SELECT * FROM alert_deliveries WHERE id = :id"), {"id": delivery}
        ).one()
    return dict(found._mapping)


async def alert_through(channel: Any, book: AddressBook, conversation: str, address: str) -> None:
    """The alert channel sends delivery 1 to the stored address, as Rasa's trigger does."""
    expires = datetime.now(timezone.utc) + timedelta(days=30)
    await book.remember(conversation, channel.name(), address, expires)
    output = channel.get_output_channel()
    await output.send_response(
        conversation, {"text": "Kabul airport: closed", "custom": {ALERT_DELIVERY: 1}}
    )


@pytest.fixture
def whatsapp(provider: FakeProvider, book: AddressBook) -> WhatsAppInput:
    provider.reply = {"messaging_product": "whatsapp", "messages": [{"id": WAMID}]}
    settings = WhatsAppSettings(
        APP_SECRET, VERIFY_TOKEN, ACCESS_TOKEN, PHONE_NUMBER_ID, provider.url
    )
    return WhatsAppInput(settings, addresses=book)


async def notify(url: str, payload: object) -> int:
    body = json.dumps(payload).encode()
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{url}/webhook", data=body, headers={SIGNATURE_HEADER: signature(body)}) as r,
    ):
        return r.status


def status_of(payload: dict[str, Any], status: str) -> dict[str, Any]:
    """The failed-status fixture turned into another status of the same message."""
    entry = payload["entry"][0]["changes"][0]["value"]["statuses"][0]
    entry["status"] = status
    entry.pop("errors")
    return payload


async def test_a_whatsapp_failure_is_recorded_on_the_alert_without_the_number(
    whatsapp: WhatsAppInput, book: AddressBook, serve: Serve
) -> None:
    queue_delivery(book)
    conversation = conversation_id("whatsapp", USER)
    url = await serve(whatsapp, replying())
    await alert_through(whatsapp, book, conversation, USER)
    assert row(book)["provider_message_id"] == WAMID

    assert await notify(url, fixture("whatsapp_status_failed.json")) == 200

    stored = row(book)
    assert (stored["provider_status"], stored["provider_error"]) == ("failed", "131026")
    assert stored["status_at"] is not None
    assert USER not in " ".join(str(value) for value in stored.values())


async def test_a_late_delivered_does_not_undo_read(
    whatsapp: WhatsAppInput, book: AddressBook, serve: Serve
) -> None:
    queue_delivery(book)
    url = await serve(whatsapp, replying())
    await alert_through(whatsapp, book, conversation_id("whatsapp", USER), USER)

    assert await notify(url, status_of(fixture("whatsapp_status_failed.json"), "read")) == 200
    assert await notify(url, status_of(fixture("whatsapp_status_failed.json"), "delivered")) == 200

    assert (row(book)["provider_status"], row(book)["provider_error"]) == ("read", None)


async def test_a_status_for_another_number_is_not_recorded(
    whatsapp: WhatsAppInput, book: AddressBook, serve: Serve
) -> None:
    queue_delivery(book)
    url = await serve(whatsapp, replying())
    await alert_through(whatsapp, book, conversation_id("whatsapp", USER), USER)
    payload = fixture("whatsapp_status_failed.json")
    payload["entry"][0]["changes"][0]["value"]["metadata"]["phone_number_id"] = "999"

    assert await notify(url, payload) == 200
    assert row(book)["provider_status"] is None


async def test_a_status_of_a_long_alerts_second_message_is_recorded(
    whatsapp: WhatsAppInput, book: AddressBook, provider: FakeProvider, serve: Serve
) -> None:
    """A text over WhatsApp's 4,096 characters goes out as two messages, each with its own id:
    the second's failure fails the alert, and a late "read" of the first does not hide it."""
    queue_delivery(book)
    second = WAMID.replace("QgA=", "QQA=")
    provider.replies = [
        {"messaging_product": "whatsapp", "messages": [{"id": WAMID}]},
        {"messaging_product": "whatsapp", "messages": [{"id": second}]},
    ]
    url = await serve(whatsapp, replying())
    conversation = conversation_id("whatsapp", USER)
    await book.remember(conversation, "whatsapp", USER, datetime.now(timezone.utc) + timedelta(1))
    long_alert = "Kabul airport: closed. Go to North Gate only if called. " * 80
    await whatsapp.get_output_channel().send_response(
        conversation, {"text": long_alert, "custom": {ALERT_DELIVERY: 1}}
    )
    assert len(provider.requests) == 2
    assert row(book)["provider_message_id"] == WAMID

    failed = fixture("whatsapp_status_failed.json")
    failed["entry"][0]["changes"][0]["value"]["statuses"][0]["id"] = second
    assert await notify(url, failed) == 200
    assert await notify(url, status_of(fixture("whatsapp_status_failed.json"), "read")) == 200

    stored = row(book)
    assert (stored["provider_status"], stored["provider_error"]) == ("failed", "131026")


async def test_a_new_try_of_a_long_alert_forgets_the_ids_of_the_last(book: AddressBook) -> None:
    queue_delivery(book)
    log = DeliveryLog(book.engine)

    async def sent_in(*ids: str) -> None:
        collected = SENT_MESSAGE_IDS.get()
        assert collected is not None
        collected.extend(ids)

    assert await log.send_once(1, lambda: sent_in("wamid.A1", "wamid.A2", "wamid.A3"))
    with book.engine.begin() as connection:
        connection.execute(sa.text("UPDATE alert_deliveries SET rendered_at = NULL"))
    assert await log.send_once(1, lambda: sent_in("wamid.B1", "wamid.B2"))

    with book.engine.connect() as connection:
        parts = connection.execute(sa.text("SELECT message_id FROM provider_messages")).all()
    assert [part for (part,) in parts] == ["wamid.B2"]
    assert row(book)["provider_message_id"] == "wamid.B1"
    assert StatusLog(book.engine).record([ProviderStatus("wamid.A2", "failed", "131026")]) == 0
    assert StatusLog(book.engine).record([ProviderStatus("wamid.B2", "delivered")]) == 1


@pytest.fixture
def twilio(provider: FakeProvider, book: AddressBook) -> TwilioSmsInput:
    provider.status, provider.reply = 201, {"sid": TWILIO_SID, "status": "queued"}
    settings = TwilioSettings(
        account_sid="AC00000000000000000000000000000001",
        auth_token=TWILIO_TOKEN,
        webhook_base_url=TWILIO_PUBLIC,
        sms_from="+15005550006",
        whatsapp_from=None,
        api_base_url=provider.url,
    )
    return TwilioSmsInput(settings, addresses=book)


async def callback(base_url: str, fields: dict[str, str], signed: bool = True) -> int:
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if signed:
        form = {name: [value] for name, value in fields.items()}
        headers["X-Twilio-Signature"] = twilio_signature(
            TWILIO_TOKEN, TWILIO_PUBLIC + STATUS_PATH, form
        )
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            base_url + STATUS_PATH, data=urlencode(fields).encode(), headers=headers
        ) as reply,
    ):
        return reply.status


async def test_a_twilio_alert_asks_for_statuses_and_records_them(
    twilio: TwilioSmsInput, book: AddressBook, provider: FakeProvider, serve: Serve
) -> None:
    queue_delivery(book)
    url = await serve(twilio, replying())
    base_url = url.removesuffix("/webhooks/twilio_sms")
    await alert_through(twilio, book, conversation_id("twilio_sms", SMS_NUMBER), SMS_NUMBER)
    [sent] = provider.requests
    assert sent.form()["StatusCallback"] == TWILIO_PUBLIC + STATUS_PATH
    assert row(book)["provider_message_id"] == TWILIO_SID

    unsigned = fixture("twilio_status_delivered.json")
    assert await callback(base_url, unsigned, signed=False) == 403
    assert row(book)["provider_status"] is None

    assert await callback(base_url, fixture("twilio_status_delivered.json")) == 204
    assert row(book)["provider_status"] == "delivered"
    assert await callback(base_url, fixture("twilio_status_undelivered_21610.json")) == 204
    stored = row(book)
    assert (stored["provider_status"], stored["provider_error"]) == ("failed", "21610")
    assert "700000001" not in " ".join(str(value) for value in stored.values())


async def test_twilio_refusing_a_person_who_texted_stop_is_their_refusal_for_good(
    twilio: TwilioSmsInput, book: AddressBook, provider: FakeProvider
) -> None:
    queue_delivery(book)
    provider.status = 400
    provider.reply = {
        "code": 21610,
        "message": "Attempt to send to unsubscribed recipient",
        "more_info": "https://www.twilio.com/docs/errors/21610",
        "status": 400,
    }
    conversation = conversation_id("twilio_sms", SMS_NUMBER)
    with pytest.raises(AlertNotDelivered) as refused:
        await alert_through(twilio, book, conversation, SMS_NUMBER)
    answer = refused.value.answer()
    assert answer.gives_up() and answer.person_refused()
    assert row(book)["rendered_at"] is None  # released: the notifier settles it as failed


@pytest.fixture
def kannel(provider: FakeProvider, book: AddressBook) -> KannelInput:
    provider.status, provider.reply = 202, {}  # smsbox: "0: Accepted for delivery"
    settings = KannelSettings(
        secret=KANNEL_SECRET,
        username="assistant",
        password="pw",
        send_url=provider.url + "/cgi-bin/sendsms",
        sender="1234",
    )
    return KannelInput(settings, addresses=book)


async def kannel_alert(kannel: KannelInput, book: AddressBook, provider: FakeProvider) -> str:
    """Delivery 1 sent through sendsms; the id its dlr-url gave Kannel."""
    queue_delivery(book)
    await alert_through(kannel, book, conversation_id("kannel", SMS_NUMBER), SMS_NUMBER)
    [sent] = provider.requests
    found = REPORT.search(query_fields(sent.query)["dlr-url"].decode("ascii"))
    assert found is not None
    return found.group(1)


async def report(url: str, query: str) -> int:
    """smsbox calling the dlr-url with Kannel's escapes filled in."""
    async with aiohttp.ClientSession() as session, session.get(f"{url}/delivered?{query}") as r:
        return r.status


@pytest.mark.parametrize(
    ("kind", "status", "error"),
    [
        ("1", "delivered", None),
        ("2", "failed", "2"),  # not delivered
        ("16", "failed", "16"),  # refused by the operator's SMSC
        ("8", "sent", None),  # taken by the SMSC
        ("4", None, None),  # buffered: nothing worth recording
    ],
)
async def test_a_kannel_report_is_recorded_on_the_alert_by_the_id_in_its_dlr_url(
    kannel: KannelInput,
    book: AddressBook,
    provider: FakeProvider,
    serve: Serve,
    kind: str,
    status: str | None,
    error: str | None,
) -> None:
    url = await serve(kannel, replying())
    message_id = await kannel_alert(kannel, book, provider)
    assert row(book)["provider_message_id"] == message_id

    assert await report(url, f"secret={KANNEL_SECRET}&id={message_id}&type={kind}") == 200

    stored = row(book)
    assert (stored["provider_status"], stored["provider_error"]) == (status, error)
    assert (stored["status_at"] is not None) == (status is not None)
    assert "700000001" not in " ".join(str(value) for value in stored.values())


async def test_a_kannel_report_without_the_secret_or_for_another_sms_changes_nothing(
    kannel: KannelInput, book: AddressBook, provider: FakeProvider, serve: Serve
) -> None:
    url = await serve(kannel, replying())
    message_id = await kannel_alert(kannel, book, provider)

    for secret in ("secret=wrong&", "secret=&", ""):
        assert await report(url, f"{secret}id={message_id}&type=16") == 403
    another = "kannel-" + "0" * 32
    assert await report(url, f"secret={KANNEL_SECRET}&id={another}&type=16") == 200

    stored = row(book)
    assert (stored["provider_status"], stored["provider_error"]) == (None, None)
    assert stored["provider_message_id"] == message_id
