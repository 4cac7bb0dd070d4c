"""Telegram connector: recorded updates posted to the real blueprint, replies to a fake Bot API."""

import json
import logging
import time
from collections.abc import AsyncIterator
from datetime import timedelta

import aiohttp
import pytest
from rasa.shared.exceptions import RasaException

from bot.channels.identity import conversation_id
from bot.channels.settings import TelegramSettings
from bot.channels.telegram import SECRET_HEADER, TelegramInput, language_hint
from kernel.lang.texts import CATALOGUE
from tests.channels.channel_support import (
    FakeProvider,
    Serve,
    fixture,
    replying,
    without_person,
)

TEXT_ONLY = CATALOGUE.entry("channels.text_only")

TOKEN = "123456:TEST-token"
SECRET = "test_secret-token"
AUTH = {SECRET_HEADER: SECRET}


async def post(url: str, body: object, headers: dict[str, str] | None = None) -> int:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = AUTH if headers is None else headers
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{url}/webhook", data=data, headers=headers) as r,
    ):
        return r.status


@pytest.fixture
async def channel(provider: FakeProvider) -> TelegramInput:
    return TelegramInput(TelegramSettings(TOKEN, SECRET, provider.url))


async def test_text_reaches_the_bot_under_a_hashed_id_with_the_language_hint(
    channel: TelegramInput, serve: Serve, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, fixture("telegram_text_dari.json")) == 200
    [message] = agent.messages
    assert message.text == "پرواز بعدی چه وقت است؟"
    assert message.sender_id == conversation_id("telegram", "700000101")
    assert "700000101" not in message.sender_id
    assert without_person(message.metadata) == {"language_hint": "prs"}
    assert message.input_channel == "telegram"
    assert "700000101" not in caplog.text and "پرواز" not in caplog.text


async def test_replies_go_to_the_chat_with_buttons_as_a_reply_keyboard(
    channel: TelegramInput, serve: Serve, provider: FakeProvider
) -> None:
    buttons = [
        {"title": "1 Flights", "payload": "/ask_flights"},
        {"title": "2 Airport", "payload": "/ask_airport_status"},
    ]
    agent = replying([{"text": "What do you need?", "buttons": buttons}])
    url = await serve(channel, agent)
    assert await post(url, fixture("telegram_text_dari.json")) == 200
    [sent] = provider.requests
    assert sent.path == f"/bot{TOKEN}/sendMessage"
    assert sent.json() == {
        "chat_id": 700000101,
        "text": "What do you need?",
        "reply_markup": {
            "keyboard": [[{"text": "1 Flights"}], [{"text": "2 Airport"}]],
            "resize_keyboard": True,
            "one_time_keyboard": True,
        },
    }
    # Pressing a reply-keyboard button sends its title; the bot gets the payload back.
    pressed = fixture("telegram_text_dari.json")
    pressed["update_id"] += 100
    pressed["message"]["text"] = "2 Airport"
    assert await post(url, pressed) == 200
    assert agent.messages[-1].text == "/ask_airport_status"


async def test_long_replies_are_split_between_paragraphs(
    channel: TelegramInput, serve: Serve, provider: FakeProvider
) -> None:
    paragraphs = ["QR8010 Kabul → Doha 14:30\n" * 90, "RCH871 Kabul → Ramstein 16:00\n" * 60]
    text = "\n\n".join(p.strip() for p in paragraphs)
    buttons = [{"title": "Menu", "payload": "/show_menu"}]
    url = await serve(channel, replying([{"text": text, "buttons": buttons}]))
    assert await post(url, fixture("telegram_text_dari.json")) == 200
    first, second = (sent.json() for sent in provider.requests)
    assert first["text"] == paragraphs[0].strip() and "reply_markup" not in first
    assert second["text"] == paragraphs[1].strip() and "reply_markup" in second
    assert all(len(sent.json()["text"]) <= 4096 for sent in provider.requests)


@pytest.mark.parametrize(
    "headers",
    [{}, {SECRET_HEADER: "wrong"}, {SECRET_HEADER: SECRET.upper()}, {SECRET_HEADER: ""}],
    ids=["missing", "wrong", "wrong-case", "empty"],
)
async def test_requests_without_the_secret_token_are_refused(
    channel: TelegramInput, serve: Serve, provider: FakeProvider, headers: dict[str, str]
) -> None:
    agent = replying([{"text": "hello"}])
    url = await serve(channel, agent)
    assert await post(url, fixture("telegram_text_dari.json"), headers) == 403
    assert agent.messages == [] and provider.requests == []


@pytest.mark.parametrize(
    "body",
    [b"{not json", b"[]", b'"text"', {"message": {}}, {"update_id": 7, "message": {"text": "x"}}],
    ids=["not-json", "array", "string", "no-update-id", "no-chat"],
)
async def test_malformed_updates_are_refused(
    channel: TelegramInput, serve: Serve, body: object
) -> None:
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, body) == 400
    assert agent.messages == []


async def test_oversized_bodies_are_refused(channel: TelegramInput, serve: Serve) -> None:
    agent = replying()
    url = await serve(channel, agent)
    padded = fixture("telegram_text_dari.json")
    padded["message"]["text"] = "x" * (1024 * 1024)
    assert await post(url, padded) == 413
    assert agent.messages == []


async def test_oversized_bodies_without_a_length_are_refused_while_reading(
    channel: TelegramInput, serve: Serve
) -> None:
    async def chunks() -> AsyncIterator[bytes]:  # chunked encoding: no Content-Length to trust
        yield b'{"update_id": 1, "padding": "'
        for _ in range(80):
            yield b"x" * 16384
        yield b'"}'

    agent = replying()
    url = await serve(channel, agent)
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{url}/webhook", data=chunks(), headers=AUTH) as r,
    ):
        assert r.status == 413
    assert agent.messages == []


async def test_a_retried_update_is_handled_once(channel: TelegramInput, serve: Serve) -> None:
    agent = replying()
    url = await serve(channel, agent)
    update = fixture("telegram_text_dari.json")
    assert await post(url, update) == 200
    assert await post(url, update) == 200
    assert len(agent.messages) == 1


async def test_a_pressed_inline_button_sends_its_data_and_stops_the_spinner(
    channel: TelegramInput, serve: Serve, provider: FakeProvider
) -> None:
    agent = replying([{"text": "Next flights: ..."}])
    url = await serve(channel, agent)
    assert await post(url, fixture("telegram_callback_query.json")) == 200
    [message] = agent.messages
    assert message.text == "/ask_flights"
    assert message.sender_id == conversation_id("telegram", "700000103")
    assert without_person(message.metadata) == {"language_hint": "en"}
    answer, reply = provider.requests
    assert reply.path == f"/bot{TOKEN}/sendMessage"
    assert answer.path == f"/bot{TOKEN}/answerCallbackQuery"
    assert answer.json() == {"callback_query_id": "3008452171364012345"}


async def test_an_old_message_is_acknowledged_and_not_answered(
    provider: FakeProvider, serve: Serve
) -> None:
    """Telegram keeps an undelivered update for a day; one from before ``max_age`` is dropped."""
    channel = TelegramInput(
        TelegramSettings(TOKEN, SECRET, provider.url), max_age=timedelta(hours=6)
    )
    agent = replying([{"text": "The airport is closed today."}])
    url = await serve(channel, agent)
    old = fixture("telegram_text_dari.json")
    old["message"]["date"] = int(time.time()) - 7 * 3600
    assert await post(url, old) == 200  # 200: Telegram must not keep it either
    late = fixture("telegram_text_dari.json")
    late["update_id"] += 1
    late["message"]["date"] = int(time.time()) - 5 * 3600
    assert await post(url, late) == 200

    assert len(agent.messages) == 1
    assert [sent.json()["text"] for sent in provider.requests] == ["The airport is closed today."]


async def test_an_inline_button_on_an_old_message_still_works(
    channel: TelegramInput, serve: Serve
) -> None:
    """The date in a callback query is that of the bot's message, which may well be old."""
    agent = replying()
    url = await serve(channel, agent)
    pressed = fixture("telegram_callback_query.json")
    pressed["callback_query"]["message"]["date"] = int(time.time()) - 3 * 24 * 3600
    assert await post(url, pressed) == 200
    assert [m.text for m in agent.messages] == ["/ask_flights"]


async def test_start_command_is_a_greeting(channel: TelegramInput, serve: Serve) -> None:
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, fixture("telegram_start.json")) == 200
    assert agent.messages[0].text == "/greet"
    assert without_person(agent.messages[0].metadata) == {"language_hint": "ps"}


@pytest.mark.parametrize(
    ("name", "chat_id", "expected"),
    [
        ("telegram_voice.json", 700000104, TEXT_ONLY["ps"]),
        (
            "telegram_photo_without_caption.json",
            700000121,
            "\n\n".join(TEXT_ONLY[c] for c in ("prs", "ps", "en")),
        ),
    ],
    ids=["voice-in-pashto", "photo-without-hint"],
)
async def test_media_gets_a_polite_request_for_text(
    channel: TelegramInput,
    serve: Serve,
    provider: FakeProvider,
    name: str,
    chat_id: int,
    expected: str,
) -> None:
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, fixture(name)) == 200
    assert agent.messages == []
    [sent] = provider.requests
    assert sent.json() == {"chat_id": chat_id, "text": expected}


@pytest.mark.parametrize("name", ["telegram_edited_message.json", "telegram_new_chat_members.json"])
async def test_other_updates_are_acknowledged_and_ignored(
    channel: TelegramInput, serve: Serve, provider: FakeProvider, name: str
) -> None:
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, fixture(name)) == 200
    assert agent.messages == [] and provider.requests == []


async def test_a_failing_bot_api_is_logged_without_the_address(
    channel: TelegramInput,
    serve: Serve,
    provider: FakeProvider,
    caplog: pytest.LogCaptureFixture,
) -> None:
    provider.status = 403
    provider.reply = {"ok": False, "error_code": 403, "description": "Forbidden: blocked"}
    url = await serve(channel, replying([{"text": "hello"}]))
    assert await post(url, fixture("telegram_text_dari.json")) == 200
    assert "telegram sendMessage failed: HTTP 403 Forbidden: blocked" in caplog.text
    assert "700000101" not in caplog.text and TOKEN not in caplog.text


async def test_a_refused_reply_does_not_stop_the_next_one(
    channel: TelegramInput, serve: Serve, provider: FakeProvider
) -> None:
    # A person who blocked the bot: every reply is refused, each is still tried once, and
    # Telegram is told 200 (its retry would not reach the person either).
    provider.status = 403
    provider.reply = {"ok": False, "error_code": 403, "description": "Forbidden: blocked"}
    agent = replying([{"text": "Flights today:"}, {"text": "none from Kabul."}])
    url = await serve(channel, agent)
    assert await post(url, fixture("telegram_text_dari.json")) == 200
    texts = [sent.json()["text"] for sent in provider.requests]
    assert texts == ["Flights today:", "none from Kabul."]
    assert len(agent.messages) == 1


async def test_health(channel: TelegramInput, serve: Serve) -> None:
    url = await serve(channel, replying())
    async with aiohttp.ClientSession() as session, session.get(f"{url}/") as r:
        assert r.status == 200 and await r.json() == {"status": "ok"}


@pytest.mark.parametrize(
    ("code", "hint"),
    [
        ("fa", "prs"),
        ("fa-AF", "prs"),
        ("prs", "prs"),
        ("ps", "ps"),
        ("en-US", "en"),
        ("en", "en"),
        ("de", None),
        ("", None),
        (None, None),
    ],
)
def test_language_hint(code: object, hint: str | None) -> None:
    assert language_hint(code) == hint


def test_credentials_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.delenv("TELEGRAM_SECRET_TOKEN", raising=False)
    with pytest.raises(RasaException, match="TELEGRAM_BOT_TOKEN and TELEGRAM_SECRET_TOKEN"):
        TelegramInput.from_credentials(None)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_SECRET_TOKEN", "has spaces!")
    with pytest.raises(RasaException, match="A-Z, a-z, 0-9, _ and -"):
        TelegramInput.from_credentials({})
    monkeypatch.setenv("TELEGRAM_SECRET_TOKEN", SECRET)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", "http://127.0.0.1:9/")
    channel = TelegramInput.from_credentials(None)
    assert channel.name() == "telegram" and channel.api.base_url == "http://127.0.0.1:9"
