"""Alerts through every channel: remembering the address on subscription, sending through
``get_output_channel()`` as Rasa's ``trigger_intent`` does, and failing loudly when it must.

Each test runs against Telegram, WhatsApp, Twilio SMS, Twilio WhatsApp, the SMS gateway and
Kannel (``alert_support.CASES``), on SQLite and PostgreSQL, with a real Sanic server (Rasa's
own HTTP API app) and a fake provider (for Kannel, a fake smsbox's sendsms).
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any

import aiohttp
import pytest
from rasa.core.channels.channel import InputChannel, register
from rasa.server import create_app
from rasa.shared.exceptions import RasaException

from bot.channels.addresses import KEY_ENV, AddressBook
from bot.channels.alerts import AlertNotDelivered, requested_expiry
from bot.channels.whatsapp_templates import template_parameter
from bot.server import answer_refusals_as_json
from kernel.contract import NotDelivered
from tests.channels.alert_support import (
    CASES,
    SECRETS,
    SMS_GATEWAY,
    TWILIO_WHATSAPP,
    WHATSAPP,
    AlertingAgent,
    ChannelCase,
    rasa_output_channel,
    remember_payload,
)
from tests.channels.channel_support import (
    EVERY_CONNECTOR_ENV,
    FakeProvider,
    fake_provider,
    serve_app,
    serve_channel,
)

ALERT = "Kabul airport: Abbey Gate is closed. Do not come to the airport."
MENU = [
    {"title": "1 Flights", "payload": "/ask_flights"},
    {"title": "2 Airport", "payload": "/ask_airport_status"},
    {"title": "3 Stop alerts", "payload": "/unsubscribe_alerts"},
]


@dataclass
class Running:
    """A channel served by Rasa's HTTP API app, its fake provider and its address book."""

    case: ChannelCase
    channel: InputChannel
    agent: AlertingAgent
    provider: FakeProvider
    base_url: str
    messages_sent: int = 0

    async def say(self, text: str, replies: list[dict[str, Any]]) -> None:
        """The user writes ``text``; the bot answers ``replies``."""
        self.agent.respond = lambda message: replies
        self.messages_sent += 1
        assert await self.case.send_inbound(self.base_url, text, self.messages_sent) == 200

    async def subscribe(self) -> None:
        await self.say("subscribe", [{"text": "Subscribed."}, remember_payload()])
        self.provider.requests.clear()

    async def alert(self, message: dict[str, Any]) -> None:
        """What Rasa does with the alert action's message for ``?output_channel=<channel>``."""
        await rasa_output_channel(self.channel).send_response(self.case.conversation, message)

    def sent(self) -> list[tuple[str, str]]:
        return [(self.case.recipient(r), self.case.text(r)) for r in self.provider.requests]

    async def trigger(self) -> tuple[int, str]:
        """The notifier's call of Rasa's HTTP API."""
        url = (
            f"{self.base_url}/conversations/{self.case.conversation}/trigger_intent"
            f"?output_channel={self.case.channel}&include_events=NONE"
        )
        body = {"name": "EXTERNAL_alert", "entities": {"alert_delivery": "17"}}
        async with aiohttp.ClientSession() as session, session.post(url, json=body) as reply:
            return reply.status, await reply.text()


@pytest.fixture(params=CASES, ids=[case.id for case in CASES])
def case(request: pytest.FixtureRequest) -> ChannelCase:
    return request.param  # type: ignore[no-any-return]


@asynccontextmanager
async def start(
    case: ChannelCase,
    book: AddressBook | None,
    provider_url: str | None = None,
    rasa_api: bool = False,
) -> AsyncIterator[Running]:
    """Serves ``case``'s channel; with ``rasa_api`` inside Rasa's own HTTP API app (slower
    to start), for the tests that call ``trigger_intent``."""
    async with fake_provider() as provider:
        channel = case.build(provider_url or provider.url, book)
        agent = AlertingAgent([{"text": ALERT}])
        if rasa_api:
            app = create_app(agent=agent)  # type: ignore[arg-type]
            answer_refusals_as_json(app)  # as bot/server.py does
            register([channel], app, route="/webhooks/")
            serving = serve_app(app)
        else:
            serving = serve_channel(channel, agent)
        async with serving as base_url:
            yield Running(case, channel, agent, provider, base_url)


@pytest.fixture
async def running(case: ChannelCase, address_book: AddressBook) -> AsyncIterator[Running]:
    """A served channel with its address book, on SQLite and on PostgreSQL."""
    async with start(case, address_book) as served:
        yield served


@pytest.fixture
async def quick(case: ChannelCase, sqlite_address_book: AddressBook) -> AsyncIterator[Running]:
    """The same on SQLite only, where the database is not what a test is about."""
    async with start(case, sqlite_address_book) as served:
        yield served


@pytest.fixture
async def with_api(case: ChannelCase, address_book: AddressBook) -> AsyncIterator[Running]:
    """A served channel inside Rasa's HTTP API app, on SQLite and on PostgreSQL."""
    async with start(case, address_book, rasa_api=True) as served:
        yield served


@pytest.fixture
async def quick_with_api(
    case: ChannelCase, sqlite_address_book: AddressBook
) -> AsyncIterator[Running]:
    async with start(case, sqlite_address_book, rasa_api=True) as served:
        yield served


def closed_port_url() -> str:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}"


# -- remembering ---------------------------------------------------------------------------


async def test_subscribing_stores_the_address_and_the_payload_never_reaches_the_user(
    running: Running, address_book: AddressBook
) -> None:
    await running.say("subscribe", [{"text": "Subscribed."}, remember_payload()])
    assert running.sent() == [(running.case.address, "Subscribed.")]
    assert all(b"remember_address" not in r.body for r in running.provider.requests)
    stored = await address_book.lookup(running.case.conversation, running.case.channel)
    assert stored == running.case.address


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ({"expires_at": "2021-09-01T09:00:00+00:00"}, datetime(2021, 9, 1, 9, tzinfo=timezone.utc)),
        ({"expires_at": "2021-09-01T09:00:00Z"}, datetime(2021, 9, 1, 9, tzinfo=timezone.utc)),
        ({"expires_at": "2021-09-01T13:30:00+04:30"}, datetime(2021, 9, 1, 9, tzinfo=timezone.utc)),
        ({"expires_at": "2021-09-01T09:00:00"}, datetime(2021, 9, 1, 9, tzinfo=timezone.utc)),
        ({"expires_at": "next week"}, None),
        ({"expires_at": 1630486800}, None),
        ({}, None),
        ("2021-09-01T09:00:00Z", None),
    ],
    ids=["utc", "z", "kabul", "naive-is-utc", "not-a-time", "a-number", "missing", "not-an-object"],
)
def test_the_expiry_of_a_remember_request(request_: object, expected: datetime | None) -> None:
    assert requested_expiry(request_) == expected


@pytest.mark.parametrize(
    "payload",
    [
        remember_payload((datetime.now(timezone.utc) - timedelta(days=1)).isoformat()),
        remember_payload("next week"),
    ],
    ids=["in-the-past", "not-a-time"],
)
async def test_a_remember_request_without_a_valid_expiry_stores_nothing(
    sqlite_address_book: AddressBook, payload: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    async with start(SMS_GATEWAY, sqlite_address_book) as served:
        await served.say("subscribe", [{"text": "Subscribed."}, payload])
        [texted] = served.provider.requests  # the reply only, never the payload
        assert b"expires_at" not in texted.body
    assert await sqlite_address_book.lookup(SMS_GATEWAY.conversation) is None
    assert "without a valid future expires_at: not stored" in caplog.text


async def test_other_custom_payloads_are_not_texted_to_the_user(quick: Running) -> None:
    await quick.say("hi", [{"text": "Hello."}, {"custom": {"something": "for another channel"}}])
    [texted] = quick.provider.requests  # the reply only
    assert b"another channel" not in texted.body


# -- sending -------------------------------------------------------------------------------


async def test_an_alert_goes_to_the_stored_address(running: Running) -> None:
    await running.subscribe()
    await running.alert({"text": ALERT})
    assert running.sent() == [(running.case.address, ALERT)]


async def test_an_alert_is_rendered_as_a_reply_would_be(running: Running) -> None:
    """Buttons (keyboard, WhatsApp buttons, numbered options) and splitting as for replies."""
    lines = [f"QR{8000 + n} Kabul → Doha, 24 Aug 14:30, gate: Abbey" for n in range(90)]
    long_text = "\n".join(lines)
    message = {"text": long_text, "buttons": MENU}
    await running.subscribe()
    await running.say("menu", [message])
    replies = [r.body for r in running.provider.requests]
    running.provider.requests.clear()
    await running.alert(message)
    # An alert on Twilio also asks for its delivery statuses; otherwise it is the reply.
    callback = b"&StatusCallback=https%3A%2F%2Fbot.example.org%2Fwebhooks%2Ftwilio_sms%2Fstatus"
    alerts = [r.body for r in running.provider.requests]
    if running.channel.name() == "twilio_sms":
        assert all(body.endswith(callback) for body in alerts)
        alerts = [body.removesuffix(callback) for body in alerts]
    assert alerts == replies


async def test_an_alert_through_rasas_http_api(with_api: Running) -> None:
    await with_api.subscribe()
    status, _ = await with_api.trigger()
    assert status == 200
    assert with_api.agent.triggered == [
        ("EXTERNAL_alert", {"alert_delivery": "17"}, with_api.case.conversation)
    ]
    assert with_api.sent() == [(with_api.case.address, ALERT)]


async def test_a_refused_alert_is_http_500_for_the_notifier_with_the_retry_time_only(
    quick_with_api: Running,
) -> None:
    await quick_with_api.subscribe()
    quick_with_api.case.too_many(quick_with_api.provider, 7)
    status, body = await quick_with_api.trigger()
    assert status == 500
    refusal = "provider refused the alert: HTTP 429, retry after 7 s"
    assert json.loads(body) == {
        "reason": f"{quick_with_api.case.channel}: {refusal}",
        "permanent": False,
        "retry_after": 7.0,
        "provider_status": 429,
    }
    for secret in (*quick_with_api.case.numbers(), *SECRETS, ALERT, "Too Many", "Rate limit"):
        assert secret not in body


#: Refusals of the person themself, as each provider words them, and then a flood refusal.
REFUSED_FOR_GOOD = [
    (
        "telegram",
        403,
        {"ok": False, "error_code": 403, "description": "Forbidden: bot was blocked by the user"},
    ),
    (
        "telegram",
        403,
        {"ok": False, "error_code": 403, "description": "Forbidden: user is deactivated"},
    ),
    (
        "telegram",
        400,
        {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"},
    ),
    ("whatsapp", 400, {"error": {"code": 131026, "message": "Message undeliverable"}}),
]


@pytest.mark.parametrize(("channel", "status", "reply"), REFUSED_FOR_GOOD)
async def test_a_person_who_blocked_the_bot_is_given_up_on_at_once(
    sqlite_address_book: AddressBook, channel: str, status: int, reply: dict[str, Any]
) -> None:
    case = next(case for case in CASES if case.id == channel)
    async with start(case, sqlite_address_book, rasa_api=True) as served:
        await served.subscribe()
        served.provider.status, served.provider.reply = status, reply
        answer_status, body = await served.trigger()
    assert answer_status == 500
    assert NotDelivered.from_answer(body) == NotDelivered(
        f"{channel}: provider refused the alert: HTTP {status}", True, None, status
    )
    assert "blocked" not in body and case.address not in body


@pytest.mark.parametrize(
    ("channel", "status", "reply"),
    [
        (
            "telegram",
            400,
            {"ok": False, "error_code": 400, "description": "Bad Request: message is too long"},
        ),
        ("telegram", 500, {"ok": False, "error_code": 500, "description": "Internal Server Error"}),
        ("whatsapp", 400, {"error": {"code": 131047, "message": "Re-engagement message"}}),
    ],
)
async def test_a_refusal_of_the_moment_is_left_to_retry(
    sqlite_address_book: AddressBook, channel: str, status: int, reply: dict[str, Any]
) -> None:
    case = next(case for case in CASES if case.id == channel)
    async with start(case, sqlite_address_book, rasa_api=True) as served:
        await served.subscribe()
        served.provider.status, served.provider.reply = status, reply
        _, body = await served.trigger()
    refusal = NotDelivered.from_answer(body)
    assert refusal is not None and not refusal.gives_up()


async def test_without_a_stored_address_the_alert_is_not_delivered(quick_with_api: Running) -> None:
    expected = f"^{quick_with_api.case.channel}: no stored address$"
    with pytest.raises(AlertNotDelivered, match=expected):
        await quick_with_api.alert({"text": ALERT})
    status, body = await quick_with_api.trigger()
    assert status == 500
    assert NotDelivered.from_answer(body) == NotDelivered(
        f"{quick_with_api.case.channel}: no stored address", permanent=True
    )
    assert quick_with_api.provider.requests == []


async def test_rasas_other_errors_of_a_trigger_are_answered_as_rasa_does(
    quick_with_api: Running,
) -> None:
    url = (
        f"{quick_with_api.base_url}/conversations/{quick_with_api.case.conversation}/trigger_intent"
    )
    body = {"name": "EXTERNAL_no_such_intent", "entities": {}}
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as reply:
        status, answer = reply.status, await reply.json()
    assert status == 404
    assert (answer["status"], answer["reason"]) == ("failure", "NotFound")
    assert NotDelivered.from_answer(json.dumps(answer)) is None


async def test_an_expired_address_is_not_used(running: Running, address_book: AddressBook) -> None:
    yesterday = datetime.now(timezone.utc) - timedelta(days=1)
    await address_book.remember(
        running.case.conversation, running.case.channel, running.case.address, yesterday
    )
    with pytest.raises(AlertNotDelivered, match="no stored address"):
        await running.alert({"text": ALERT})
    assert running.provider.requests == []


async def test_too_many_requests_says_when_to_retry(quick: Running) -> None:
    await quick.subscribe()
    quick.case.too_many(quick.provider, 7)
    with pytest.raises(AlertNotDelivered) as raised:
        await quick.alert({"text": ALERT})
    assert str(raised.value).endswith("HTTP 429, retry after 7 s")
    assert (raised.value.status, raised.value.retry_after) == (429, 7)


@pytest.mark.parametrize("status", [503])
async def test_a_provider_error_is_not_delivered(quick: Running, status: int) -> None:
    await quick.subscribe()
    quick.provider.status = status
    with pytest.raises(AlertNotDelivered) as raised:
        await quick.alert({"text": ALERT})
    assert str(raised.value) == f"{quick.case.channel}: provider refused the alert: HTTP {status}"


async def test_an_unreachable_provider_is_not_delivered(
    case: ChannelCase, sqlite_address_book: AddressBook
) -> None:
    await sqlite_address_book.remember(
        case.conversation,
        case.channel,
        case.address,
        datetime.now(timezone.utc) + timedelta(days=1),
    )
    async with start(case, sqlite_address_book, provider_url=closed_port_url()) as served:
        with pytest.raises(AlertNotDelivered, match="provider unreachable"):
            await served.alert({"text": ALERT})


async def test_the_reply_path_still_logs_and_goes_on(
    quick: Running, caplog: pytest.LogCaptureFixture
) -> None:
    quick.provider.status = 500
    # Each with options: two replies with options never share one SMS (sms_base.fold).
    first = {"text": "First.", "buttons": [{"title": "Flights", "payload": "/ask_flights"}]}
    second = {"text": "Second.", "buttons": [{"title": "Menu", "payload": "/show_menu"}]}
    await quick.say("hello", [first, second])
    assert len(quick.provider.requests) == 2  # both tried: a reply never raises
    assert "500" in caplog.text


async def test_an_alert_never_stores_an_address(
    quick: Running, sqlite_address_book: AddressBook
) -> None:
    await quick.subscribe()
    await sqlite_address_book.forget(quick.case.conversation)
    with pytest.raises(AlertNotDelivered, match="no stored address"):
        await quick.alert({"text": ALERT, **remember_payload()})
    await quick.alert(remember_payload())  # nothing to send: nothing looked up, nothing fails
    assert await sqlite_address_book.lookup(quick.case.conversation) is None
    assert quick.provider.requests == []


# -- without an address book ---------------------------------------------------------------


async def test_without_an_address_book_alerts_are_refused_and_logged(
    case: ChannelCase, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with start(case, None, rasa_api=True) as served:
        await served.say("subscribe", [{"text": "Subscribed."}, remember_payload()])
        assert served.sent() == [(case.address, "Subscribed.")]
        with pytest.raises(AlertNotDelivered, match="no address book configured"):
            await served.alert({"text": ALERT})
        status, _ = await served.trigger()
        assert status == 500
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("no address book is configured" in w for w in warnings)  # on subscribing
    assert any("no address book configured" in w for w in warnings)  # on the alert


def test_alert_channels_need_the_address_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in EVERY_CONNECTOR_ENV.items():
        monkeypatch.setenv(name, value)
    channels = {case.channel: type(case.build("http://127.0.0.1:9", None)) for case in CASES}
    for name, channel in channels.items():
        assert channel.from_credentials(None).addresses is not None  # type: ignore[attr-defined]
        monkeypatch.delenv(KEY_ENV)
        with pytest.raises(RasaException, match=f"The {name} channel needs {KEY_ENV}"):
            channel.from_credentials(None)
        monkeypatch.setenv(KEY_ENV, "not a key")
        with pytest.raises(RasaException, match=f"{KEY_ENV} must be 32 random bytes"):
            channel.from_credentials(None)
        monkeypatch.setenv(KEY_ENV, "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=")


# -- WhatsApp templates outside the customer-service window ---------------------------------


@pytest.fixture
async def whatsapp(sqlite_address_book: AddressBook) -> AsyncIterator[Running]:
    async with start(WHATSAPP, sqlite_address_book) as served:
        await served.subscribe()
        yield served


async def test_a_template_alert_is_a_cloud_api_template_message(whatsapp: Running) -> None:
    template = {
        "name": "airport_status_changed",
        "language": "fa",
        "parameters": [
            "میدان هوایی کابل",
            "بسته\nهمه دروازه‌ها بسته است.\tبه میدان هوایی نیایید.      لطفاً",
        ],
    }
    await whatsapp.alert({"custom": {"whatsapp_template": template}})
    [request] = whatsapp.provider.requests
    assert request.path == "/106540352242922/messages"
    assert request.json() == {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": WHATSAPP.address,
        "type": "template",
        "template": {
            "name": "airport_status_changed",
            "language": {"code": "fa"},
            "components": [
                {
                    "type": "body",
                    "parameters": [
                        {"type": "text", "text": "میدان هوایی کابل"},
                        {
                            "type": "text",
                            "text": "بسته · همه دروازه‌ها بسته است. به میدان هوایی نیایید. لطفاً",
                        },
                    ],
                }
            ],
        },
    }


@pytest.mark.parametrize(
    ("given", "sent"),
    [
        ("Abbey Gate closed", "Abbey Gate closed"),
        ("Abbey Gate:\nclosed\r\n\r\nsince 17:00", "Abbey Gate: · closed · since 17:00"),
        ("closed\tsince\u00a017:00", "closed since 17:00"),
        ("closed     since  17:00  ", "closed since 17:00"),
        ("\n closed \n", "closed"),
    ],
    ids=["plain", "line-breaks", "tab-and-nbsp", "runs-of-spaces", "outer-space"],
)
def test_template_parameters_are_flattened_as_meta_requires(given: str, sent: str) -> None:
    flattened = template_parameter(given)
    assert flattened == sent
    assert not any(c in flattened for c in "\n\r\t") and "  " not in flattened


def test_template_parameters_are_one_bounded_line() -> None:
    flat = template_parameter("a\n\n  b\t c" + "x" * 2000)
    assert flat.startswith("a · b c") and len(flat) == 900 and "\n" not in flat
    assert flat.endswith("…")


def test_a_caseworkers_reply_as_the_action_writes_it_becomes_one_line() -> None:
    assert template_parameter("پیام کارمند شما:\nسلام، من فریده هستم.") == (
        "پیام کارمند شما: · سلام، من فریده هستم."
    )


async def test_a_template_without_parameters_has_no_components(whatsapp: Running) -> None:
    await whatsapp.alert({"custom": {"whatsapp_template": {"name": "hello", "language": "en"}}})
    assert whatsapp.provider.requests[0].json()["template"] == {
        "name": "hello",
        "language": {"code": "en"},
    }


@pytest.mark.parametrize(
    "template",
    [
        {"name": "Airport Status", "language": "fa", "parameters": []},
        {"name": "airport_status", "parameters": []},
        {"name": "airport_status", "language": "fa", "parameters": ["ok", ""]},
        {"name": "airport_status", "language": "fa", "parameters": "closed"},
        "airport_status",
    ],
    ids=["bad-name", "no-language", "empty-parameter", "parameters-not-a-list", "not-an-object"],
)
async def test_a_malformed_template_is_not_delivered(whatsapp: Running, template: Any) -> None:
    with pytest.raises(AlertNotDelivered, match=r"^whatsapp: malformed template payload$"):
        await whatsapp.alert({"custom": {"whatsapp_template": template}})
    assert whatsapp.provider.requests == []


@pytest.mark.parametrize(
    "case", [c for c in CASES if c is not WHATSAPP], ids=[c.id for c in CASES if c is not WHATSAPP]
)
async def test_other_channels_refuse_templates(quick: Running) -> None:
    await quick.subscribe()
    template = {"name": "airport_status", "language": "en", "parameters": ["closed"]}
    with pytest.raises(AlertNotDelivered, match="template messages are for the whatsapp channel"):
        await quick.alert({"custom": {"whatsapp_template": template}})
    assert quick.provider.requests == []


async def test_twilio_whatsapp_alerts_need_a_configured_sender(
    sqlite_address_book: AddressBook,
) -> None:
    async with start(TWILIO_WHATSAPP, sqlite_address_book) as served:
        await served.subscribe()
        channel: Any = served.channel
        channel.settings = replace(channel.settings, whatsapp_from=None)
        with pytest.raises(AlertNotDelivered, match="no WhatsApp sender configured"):
            await served.alert({"text": ALERT})
        assert served.provider.requests == []


# -- logs ------------------------------------------------------------------------------------


async def test_logs_at_info_and_above_carry_no_address_and_no_message_text(
    case: ChannelCase, address_book: AddressBook, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    question = "parwaz ba doha kay ast"
    reply = "QR8010 leaves for Doha at 14:30 from Abbey Gate."
    async with start(case, address_book, rasa_api=True) as served:
        await served.say(question, [{"text": reply, "buttons": MENU}, remember_payload()])
        await served.alert({"text": ALERT})
        assert (await served.trigger())[0] == 200
        served.case.too_many(served.provider, 3)
        status, answer = await served.trigger()  # refused: Rasa's 500 answer goes to the notifier
        assert status == 500
        served.provider.status = 500
        await served.say(question, [{"text": reply}])  # a failed reply is logged
    assert await address_book.lookup(case.conversation) == case.address
    loud = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert any(r.name.startswith("bot.channels") for r in loud), "nothing checked"
    texts = [record.getMessage() for record in loud] + [answer]
    texts += [str(r.exc_info[1]) for r in loud if r.exc_info]
    forbidden = (*case.numbers(), question, reply, ALERT, *SECRETS)
    for text in texts:
        for secret in forbidden:
            assert secret not in text, f"{secret!r} in log line {text!r}"
