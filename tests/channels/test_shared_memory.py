"""Two Rasa processes (two channel instances on two servers) sharing one Redis, as in the
production profile: a retry, a MORE or a numbered option reaching the other process, or
arriving after a restart, is handled once and right.

Each instance is built by ``from_credentials`` from the production profile's variables, as
``rasa run`` builds it, against a redis-server of the tests' own, with ``CHANNEL_INTAKE=direct``:
what is checked here is which process's memory a message meets, so each webhook takes its
turn where it arrived (the profile's queued default lets any process's worker take it:
tests/channels/test_intake.py, tests/integration/test_intake_processes.py).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import aiohttp
import pytest
from twilio.request_validator import RequestValidator

from bot.channels.redis_memory import RedisMemory
from bot.channels.sms_gateway import SmsGatewayInput
from bot.channels.telegram import SECRET_HEADER, TelegramInput
from bot.channels.twilio_sms import TwilioSmsInput
from kernel.contract import language_metadata
from kernel.lang.texts import CATALOGUE
from tests.channels.channel_support import (
    FakeBot,
    FakeProvider,
    Serve,
    fake_provider,
    fixture,
    replying,
    serve_channel,
)

MORE_HINT = CATALOGUE.entry("sms.more_hint")
NOTHING_MORE = CATALOGUE.entry("sms.nothing_more")

TOKEN = "123456:TEST-token"
SECRET = "test_secret-token"
GATEWAY_SECRET = "gateway-shared-secret-0123456789"
AUTH_TOKEN = "test-auth-token-0123456789abcdef"
PUBLIC_BASE = "https://bot.example.org"
MENU = "What do you need? Reply with a number:\n1 Next flights\n2 Airport and gates"
MENU_BUTTONS = [
    {"title": "1 Next flights", "payload": "/ask_flights"},
    {"title": "2 Airport and gates", "payload": "/ask_airport_status"},
]
FLIGHTS_PS = "\n".join(
    f"د {n} الوتنه: کابل نه دوحې ته، د ختیځې دروازې له لارې." for n in range(1, 13)
)


@pytest.fixture(autouse=True)
def turns_where_they_arrive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHANNEL_INTAKE", "direct")


async def post_json(url: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=json.dumps(body).encode(), headers=headers) as reply,
    ):
        return reply.status, await reply.text()


# -- Telegram -------------------------------------------------------------------------------


@pytest.fixture
def telegram_env(
    redis_env: dict[str, str], provider: FakeProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_SECRET_TOKEN", SECRET)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", provider.url)


async def telegram_process(serve: Serve, agent: FakeBot) -> str:
    """One more Rasa process with the Telegram channel; its webhook URL."""
    channel = TelegramInput.from_credentials(None)
    assert isinstance(channel.memory, RedisMemory)
    return await serve(channel, agent) + "/webhook"


def update(update_id: int, text: str) -> dict[str, Any]:
    payload = fixture("telegram_text_dari.json")
    payload["update_id"] = update_id
    payload["message"]["text"] = text
    return payload


async def test_a_telegram_update_retried_to_another_process_is_answered_once(
    telegram_env: None, serve: Serve, provider: FakeProvider
) -> None:
    reply = [{"text": "پرواز بعدی ساعت ۱۴:۳۰ است."}]
    first, second, restarted = replying(reply), replying(reply), replying(reply)
    url_one = await telegram_process(serve, first)
    url_two = await telegram_process(serve, second)
    auth = {SECRET_HEADER: SECRET}

    assert (await post_json(url_one, update(5001, "پرواز بعدی؟"), auth))[0] == 200
    assert (await post_json(url_two, update(5001, "پرواز بعدی؟"), auth))[0] == 200  # the retry
    url_three = await telegram_process(serve, restarted)  # a process started afterwards
    assert (await post_json(url_three, update(5001, "پرواز بعدی؟"), auth))[0] == 200

    assert len(first.messages) == 1 and second.messages == [] and restarted.messages == []
    assert [sent.json()["text"] for sent in provider.requests] == [reply[0]["text"]]


async def test_a_reply_keyboard_pressed_at_another_process_sends_its_payload(
    telegram_env: None, serve: Serve
) -> None:
    first, second = replying([{"text": MENU, "buttons": MENU_BUTTONS}]), replying()
    url_one = await telegram_process(serve, first)
    url_two = await telegram_process(serve, second)
    auth = {SECRET_HEADER: SECRET}

    await post_json(url_one, update(6001, "menu"), auth)
    await post_json(url_two, update(6002, "2 Airport and gates"), auth)
    restarted = replying()
    await post_json(await telegram_process(serve, restarted), update(6003, "1 Next flights"), auth)

    assert [m.text for m in second.messages] == ["/ask_airport_status"]
    assert [m.text for m in restarted.messages] == ["/ask_flights"]


# -- SMS gateway ------------------------------------------------------------------------------


class Gateways:
    """SMS gateway channels started one after another, all on the same Redis and gateway."""

    def __init__(self, stack: AsyncExitStack, provider: FakeProvider) -> None:
        self.stack, self.provider = stack, provider
        self.urls: list[str] = []
        self.bots: list[FakeBot] = []

    async def start(self, bot: FakeBot) -> int:
        channel = SmsGatewayInput.from_credentials(None)
        assert isinstance(channel.memory, RedisMemory)
        url = await self.stack.enter_async_context(serve_channel(channel, bot))
        self.urls.append(url + "/webhooks/sms_gateway/webhook")
        self.bots.append(bot)
        return len(self.urls) - 1

    async def say(self, process: int, text: str, message_id: str | None) -> Any:
        body = {"from": "+93700000003", "text": text}
        if message_id is not None:
            body["id"] = message_id
        status, answer = await post_json(
            self.urls[process], body, {"X-Gateway-Secret": GATEWAY_SECRET}
        )
        assert status == 200
        return json.loads(answer)

    def sent(self) -> list[str]:
        return [request.json()["text"] for request in self.provider.requests]


@pytest.fixture
async def gateways(
    redis_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Gateways]:
    async with fake_provider() as provider, AsyncExitStack() as stack:
        provider.status, provider.reply = 200, {"queued": True}
        monkeypatch.setenv("SMS_GATEWAY_SECRET", GATEWAY_SECRET)
        monkeypatch.setenv("SMS_GATEWAY_SEND_URL", provider.url + "/send")
        yield Gateways(stack, provider)


async def test_more_at_another_process_and_after_a_restart_sends_the_next_pages(
    gateways: Gateways,
) -> None:
    one = await gateways.start(
        FakeBot(respond=lambda message: [{"text": FLIGHTS_PS, "metadata": language_metadata("ps")}])
    )
    two = await gateways.start(FakeBot())

    await gateways.say(one, "الوتنې", "g-1")
    await gateways.say(two, "نور", "g-2")
    three = await gateways.start(FakeBot())  # a process (re)started afterwards
    while gateways.sent()[-1].endswith(MORE_HINT["ps"]):
        await gateways.say(three, "نور", f"g-{len(gateways.sent()) + 2}")
    await gateways.say(one, "نور", "g-last")

    *pages, that_was_all = gateways.sent()
    assert len(pages) >= 3
    shown = [line for page in pages for line in page.splitlines() if line != MORE_HINT["ps"]]
    assert shown == FLIGHTS_PS.splitlines()  # every line once, in order
    assert that_was_all == NOTHING_MORE["ps"]
    assert [len(bot.messages) for bot in gateways.bots] == [1, 0, 0]


async def test_a_numbered_option_and_a_retry_at_another_process_and_after_a_restart(
    gateways: Gateways,
) -> None:
    one = await gateways.start(
        FakeBot(respond=lambda message: [{"text": MENU, "buttons": MENU_BUTTONS}])
    )
    two = await gateways.start(FakeBot())

    await gateways.say(one, "menu", "n-1")
    assert await gateways.say(two, "2", "n-2") == {"status": "ok"}
    assert await gateways.say(one, "2", "n-2") == {"status": "duplicate"}  # the gateway retried
    assert await gateways.say(two, "2", "n-3") == {"status": "ok"}
    await gateways.say(one, "menu", "n-4")
    restarted = await gateways.start(FakeBot())  # a process (re)started after the menu
    assert await gateways.say(restarted, "۱", "n-5") == {"status": "ok"}
    assert await gateways.say(restarted, "n-4 again", "n-4") == {"status": "duplicate"}

    assert [m.text for m in gateways.bots[1].messages] == ["/ask_airport_status", "2"]
    assert [m.text for m in gateways.bots[0].messages] == ["menu", "menu"]
    assert [m.text for m in gateways.bots[restarted].messages] == ["/ask_flights"]


async def test_a_message_without_id_retried_to_another_process_is_answered_once(
    gateways: Gateways,
) -> None:
    bots = [FakeBot(respond=lambda message: [{"text": "Abbey Gate is closed."}]) for _ in "12"]
    one, two = [await gateways.start(bot) for bot in bots]

    assert await gateways.say(one, "Abbey Gate?", None) == {"status": "ok"}
    assert await gateways.say(two, "Abbey Gate?", None) == {"status": "duplicate"}
    assert await gateways.say(two, "Baron hotel?", None) == {"status": "ok"}

    assert [m.text for bot in bots for m in bot.messages] == ["Abbey Gate?", "Baron hotel?"]


# -- Twilio -----------------------------------------------------------------------------------


async def test_a_twilio_retry_at_another_process_is_answered_once(
    redis_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async with fake_provider() as provider, AsyncExitStack() as stack:
        for name, value in {
            "TWILIO_ACCOUNT_SID": "AC00000000000000000000000000000001",
            "TWILIO_AUTH_TOKEN": AUTH_TOKEN,
            "TWILIO_WEBHOOK_BASE_URL": PUBLIC_BASE,
            "TWILIO_FROM_NUMBER": "+15005550006",
            "TWILIO_API_BASE_URL": provider.url,
        }.items():
            monkeypatch.setenv(name, value)
        bots = [FakeBot(respond=lambda message: [{"text": MENU, "buttons": MENU_BUTTONS}])]
        bots.append(FakeBot(respond=lambda message: [{"text": "Next flights: ..."}]))
        urls = []
        for bot in bots:
            channel = TwilioSmsInput.from_credentials(None)
            assert isinstance(channel, TwilioSmsInput)
            assert isinstance(channel.memory, RedisMemory)
            urls.append(await stack.enter_async_context(serve_channel(channel, bot)))

        async def text(process: int, body: str, sid: str) -> None:
            fields = fixture("twilio_sms_inbound.json")
            fields.update(Body=body, MessageSid=sid, SmsMessageSid=sid, SmsSid=sid)
            path = "/webhooks/twilio_sms/webhook"
            signature = RequestValidator(AUTH_TOKEN).compute_signature(PUBLIC_BASE + path, fields)
            async with (
                aiohttp.ClientSession() as session,
                session.post(
                    urls[process] + path,
                    data=fields,
                    headers={"X-Twilio-Signature": signature},
                ) as reply,
            ):
                assert reply.status == 200

        await text(0, "menu", "SM" + "1" * 32)
        await text(1, "menu", "SM" + "1" * 32)  # Twilio retried it to the other process
        await text(1, "۱", "SM" + "2" * 32)

        assert [m.text for m in bots[0].messages] == ["menu"]
        assert [m.text for m in bots[1].messages] == ["/ask_flights"]
        assert len(provider.requests) == 2  # the menu once, then the flights
