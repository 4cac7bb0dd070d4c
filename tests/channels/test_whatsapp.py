"""WhatsApp connector: signed notifications posted to the real blueprint, a fake Graph API."""

import hashlib
import hmac
import json
import logging
import time
from typing import Any

import aiohttp
import pytest
from rasa.shared.exceptions import RasaException

from bot.channels.identity import conversation_id
from bot.channels.settings import WhatsAppSettings
from bot.channels.whatsapp import SIGNATURE_HEADER, WhatsAppInput
from kernel.contract import language_metadata
from kernel.lang.texts import CATALOGUE
from kernel.notices import text_only
from tests.channels.channel_support import FakeProvider, Serve, fixture, replying

TEXT_ONLY = CATALOGUE.entry("channels.text_only")

APP_SECRET = "test-app-secret"
VERIFY_TOKEN = "test-verify-token"
ACCESS_TOKEN = "EAATestAccessToken"
PHONE_NUMBER_ID = "106540352242922"  # as in the recorded notifications
USER = "93700000201"


def signature(body: bytes, secret: str = APP_SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


async def post(url: str, payload: object, headers: dict[str, str] | None = None) -> int:
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    headers = {SIGNATURE_HEADER: signature(body)} if headers is None else headers
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{url}/webhook", data=body, headers=headers) as r,
    ):
        return r.status


def user() -> str:
    return conversation_id("whatsapp", USER)


@pytest.fixture
async def channel(provider: FakeProvider) -> WhatsAppInput:
    provider.reply = {"messaging_product": "whatsapp", "messages": [{"id": "wamid.sent"}]}
    return WhatsAppInput(
        WhatsAppSettings(APP_SECRET, VERIFY_TOKEN, ACCESS_TOKEN, PHONE_NUMBER_ID, provider.url)
    )


@pytest.mark.parametrize(
    ("query", "status", "body"),
    [
        (
            {"hub.mode": "subscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "1158"},
            200,
            "1158",
        ),
        (
            {"hub.mode": "subscribe", "hub.verify_token": "guess", "hub.challenge": "1158"},
            403,
            None,
        ),
        ({"hub.mode": "subscribe", "hub.challenge": "1158"}, 403, None),
        ({"hub.verify_token": VERIFY_TOKEN, "hub.challenge": "1158"}, 403, None),
    ],
    ids=["right-token", "wrong-token", "no-token", "no-mode"],
)
async def test_verification_handshake(
    channel: WhatsAppInput, serve: Serve, query: dict[str, str], status: int, body: str | None
) -> None:
    url = await serve(channel, replying())
    async with aiohttp.ClientSession() as session, session.get(f"{url}/webhook", params=query) as r:
        assert r.status == status
        if body is not None:
            assert await r.text() == body


async def test_text_reaches_the_bot_and_the_reply_goes_to_the_sender(
    channel: WhatsAppInput,
    serve: Serve,
    provider: FakeProvider,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    agent = replying([{"text": "بلی، دروازه‌ها خلاص دي."}])
    url = await serve(channel, agent)
    assert await post(url, fixture("whatsapp_text.json")) == 200
    [message] = agent.messages
    assert message.text == "د کابل هوايي ډګر خلاص دی؟"
    assert message.sender_id == user() and USER not in message.sender_id
    assert message.input_channel == "whatsapp"
    [sent] = provider.requests
    assert sent.path == f"/{PHONE_NUMBER_ID}/messages"
    assert sent.headers["Authorization"] == f"Bearer {ACCESS_TOKEN}"
    assert sent.json() == {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": USER,
        "type": "text",
        "text": {"body": "بلی، دروازه‌ها خلاص دي."},
    }
    assert USER not in caplog.text and "ډګر" not in caplog.text


@pytest.mark.parametrize(
    ("name", "payload"),
    [
        ("whatsapp_button_reply.json", "/ask_flights"),
        ("whatsapp_list_reply.json", "/ask_airport_status"),
    ],
)
async def test_pressed_buttons_and_list_rows_send_their_payload(
    channel: WhatsAppInput, serve: Serve, name: str, payload: str
) -> None:
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, fixture(name)) == 200
    assert [m.text for m in agent.messages] == [payload]


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {SIGNATURE_HEADER: "sha256=" + "0" * 64},
        {SIGNATURE_HEADER: signature(b"{}")},
        {SIGNATURE_HEADER: "forged"},
    ],
    ids=["missing", "zeros", "other-body", "garbage"],
)
async def test_unsigned_or_forged_notifications_are_refused(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider, headers: dict[str, str]
) -> None:
    agent = replying([{"text": "hello"}])
    url = await serve(channel, agent)
    assert await post(url, fixture("whatsapp_text.json"), headers) == 403
    assert agent.messages == [] and provider.requests == []


async def test_signed_with_another_apps_secret_is_refused(
    channel: WhatsAppInput, serve: Serve
) -> None:
    agent = replying()
    url = await serve(channel, agent)
    body = json.dumps(fixture("whatsapp_text.json")).encode()
    assert await post(url, body, {SIGNATURE_HEADER: signature(body, "other-secret")}) == 403
    assert agent.messages == []


@pytest.mark.parametrize(
    "payload",
    [
        b"{not json",
        b"[]",
        {"object": "whatsapp_business_account"},
        {
            "entry": [
                {"changes": [{"field": "messages", "value": {"messages": [{"type": "text"}]}}]}
            ]
        },
    ],
    ids=["not-json", "array", "no-entry", "message-without-id"],
)
async def test_signed_notifications_that_cannot_be_read_are_acknowledged(
    channel: WhatsAppInput,
    serve: Serve,
    provider: FakeProvider,
    payload: object,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Meta signed them: a refusal would only bring the same bytes back for seven days."""
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, payload) == 200
    assert agent.messages == [] and provider.requests == []
    assert "whatsapp: a" in caplog.text  # logged, without the body


async def test_oversized_bodies_are_refused(channel: WhatsAppInput, serve: Serve) -> None:
    agent = replying()
    url = await serve(channel, agent)
    padded = fixture("whatsapp_text.json")
    padded["padding"] = "x" * (1024 * 1024)
    assert await post(url, padded) == 413
    assert agent.messages == []


async def test_a_retried_message_is_handled_once(channel: WhatsAppInput, serve: Serve) -> None:
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, fixture("whatsapp_text.json")) == 200
    assert await post(url, fixture("whatsapp_text.json")) == 200
    assert len(agent.messages) == 1


@pytest.mark.parametrize("name", ["whatsapp_status_sent.json", "whatsapp_status_read.json"])
async def test_a_delivery_status_is_acknowledged_and_is_not_a_message_to_answer(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider, name: str
) -> None:
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, fixture(name)) == 200
    assert agent.messages == [] and provider.requests == []


@pytest.mark.parametrize("name", ["whatsapp_audio.json", "whatsapp_video.json"])
async def test_media_gets_a_polite_request_for_text_in_all_three_languages(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider, name: str
) -> None:
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, fixture(name)) == 200
    assert agent.messages == []
    [sent] = provider.requests
    number = fixture(name)["entry"][0]["changes"][0]["value"]["messages"][0]["from"]
    assert sent.json()["to"] == number and sent.json()["text"] == {"body": text_only(None)}
    assert all(TEXT_ONLY[code] in text_only(None) for code in ("prs", "ps", "en"))


async def test_a_message_for_another_business_number_is_ignored(
    channel: WhatsAppInput, serve: Serve
) -> None:
    agent = replying()
    url = await serve(channel, agent)
    payload = fixture("whatsapp_text.json")
    payload["entry"][0]["changes"][0]["value"]["metadata"]["phone_number_id"] = "999"
    assert await post(url, payload) == 200
    assert agent.messages == []


LANGUAGE_BUTTONS = [
    {"title": "English", "payload": '/set_language{"language": "en"}'},
    {"title": "دری", "payload": '/set_language{"language": "prs"}'},
    {"title": "پښتو", "payload": '/set_language{"language": "ps"}'},
]
MENU = [
    {"title": "۱ پروازها", "payload": "/ask_flights"},
    {"title": "۲ میدان هوایی", "payload": "/ask_airport_status"},
    {"title": "۳ اعلامیه‌ها", "payload": "/ask_announcements"},
    {"title": "۴ اسناد", "payload": "/ask_documents"},
    {"title": "۵ کمک", "payload": "/ask_help"},
    {"title": "۶ یک عنوان بسیار طولانی برای آزمایش", "payload": "/set_language"},
]


async def reply_with(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider, reply: dict[str, Any]
) -> list[dict[str, Any]]:
    url = await serve(channel, replying([reply]))
    assert await post(url, fixture("whatsapp_text.json")) == 200
    return [sent.json() for sent in provider.requests]


async def test_up_to_three_buttons_are_reply_buttons(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider
) -> None:
    buttons = [*LANGUAGE_BUTTONS[:2], {"title": "A title longer than twenty", "payload": "/x"}]
    [sent] = await reply_with(
        channel, serve, provider, {"text": "Which language?", "buttons": buttons}
    )
    assert sent["type"] == "interactive"
    assert sent["interactive"] == {
        "type": "button",
        "body": {"text": "Which language?"},
        "action": {
            "buttons": [
                {
                    "type": "reply",
                    "reply": {"id": '/set_language{"language": "en"}', "title": "English"},
                },
                {
                    "type": "reply",
                    "reply": {"id": '/set_language{"language": "prs"}', "title": "دری"},
                },
                {"type": "reply", "reply": {"id": "/x", "title": "A title longer than…"}},
            ]
        },
    }


async def test_four_to_ten_buttons_are_a_list_labelled_in_the_reply_language(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider
) -> None:
    [sent] = await reply_with(
        channel,
        serve,
        provider,
        {
            "text": "به کدام معلومات ضرورت دارید؟",
            "buttons": MENU,
            "metadata": language_metadata("prs"),
        },
    )
    interactive = sent["interactive"]
    assert interactive["type"] == "list"
    assert interactive["body"] == {"text": "به کدام معلومات ضرورت دارید؟"}
    assert interactive["action"]["button"] == "انتخاب کنید"
    [section] = interactive["action"]["sections"]
    assert [row["id"] for row in section["rows"]] == [b["payload"] for b in MENU]
    assert all(len(row["title"]) <= 24 for row in section["rows"])
    assert section["rows"][0]["title"] == "۱ پروازها"


async def test_more_than_ten_buttons_fall_back_to_text(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider
) -> None:
    buttons = [{"title": f"Option {n}", "payload": f"/o{n}"} for n in range(11)]
    [sent] = await reply_with(channel, serve, provider, {"text": "Choose:", "buttons": buttons})
    assert sent["type"] == "text"
    assert sent["text"]["body"].startswith("Choose:\n\n• Option 0\n• Option 1")


async def test_long_texts_are_split_and_the_choices_ride_on_the_last_part(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider
) -> None:
    lines = [f"QR{8000 + n} Kabul → Doha 2021-08-{n % 28 + 1:02d} 14:30" for n in range(200)]
    text = "\n".join(lines)
    sent = await reply_with(channel, serve, provider, {"text": text, "buttons": LANGUAGE_BUTTONS})
    *texts, last = sent
    assert [s["type"] for s in texts] == ["text"] * len(texts) and last["type"] == "interactive"
    assert all(len(s["text"]["body"]) <= 4096 for s in texts)
    assert len(last["interactive"]["body"]["text"]) <= 1024
    received = [s["text"]["body"] for s in texts] + [last["interactive"]["body"]["text"]]
    assert "\n".join(received).split("\n") == lines  # nothing lost, no line cut in half


def notification(text: str, message_id: str, sent_at: object) -> dict[str, Any]:
    payload = fixture("whatsapp_text.json")
    message = payload["entry"][0]["changes"][0]["value"]["messages"][0]
    message.update(id=message_id, timestamp=sent_at)
    message["text"]["body"] = text
    return payload


async def test_an_old_signed_message_is_acknowledged_and_not_answered(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider
) -> None:
    """Meta signs no time: a captured request can be sent again after the ids are forgotten."""
    agent = replying([{"text": "The airport is closed today."}])
    url = await serve(channel, agent)
    hours = 3600
    old = notification("Is the airport open?", "wamid.old", str(int(time.time()) - 7 * hours))
    assert await post(url, old) == 200  # 200: Meta must not retry it either
    assert agent.messages == [] and provider.requests == []

    late = notification("Is the airport open?", "wamid.late", str(int(time.time()) - 5 * hours))
    assert await post(url, late) == 200  # within six hours: late, still answered
    assert [m.text for m in agent.messages] == ["Is the airport open?"]
    assert len(provider.requests) == 1


@pytest.mark.parametrize("sent_at", ["", "soon", "1e400", str(10**400), "99999999999999"])
async def test_a_send_time_that_cannot_be_read_is_answered(
    channel: WhatsAppInput, serve: Serve, sent_at: str
) -> None:
    agent = replying()
    url = await serve(channel, agent)
    assert await post(url, notification("salam", "wamid.odd", sent_at)) == 200
    assert len(agent.messages) == 1


async def test_the_age_limit_is_configurable(
    provider: FakeProvider, serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MESSAGE_MAX_AGE", "30m")
    for name, value in {
        "WHATSAPP_APP_SECRET": APP_SECRET,
        "WHATSAPP_VERIFY_TOKEN": VERIFY_TOKEN,
        "WHATSAPP_ACCESS_TOKEN": ACCESS_TOKEN,
        "WHATSAPP_PHONE_NUMBER_ID": PHONE_NUMBER_ID,
        "WHATSAPP_API_BASE_URL": provider.url,
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("REDIS_HOST", raising=False)
    agent = replying()
    url = await serve(WhatsAppInput.from_credentials(None), agent)
    an_hour_ago = str(int(time.time()) - 3600)
    assert await post(url, notification("salam", "wamid.hour", an_hour_ago)) == 200
    assert agent.messages == []
    ten_minutes_ago = str(int(time.time()) - 600)
    assert await post(url, notification("salam", "wamid.ten", ten_minutes_ago)) == 200
    assert len(agent.messages) == 1

    monkeypatch.setenv("MESSAGE_MAX_AGE", "soon")
    with pytest.raises(ValueError, match="MESSAGE_MAX_AGE"):
        WhatsAppInput.from_credentials(None)


def test_credentials_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    names = ["WHATSAPP_APP_SECRET", "WHATSAPP_VERIFY_TOKEN", "WHATSAPP_ACCESS_TOKEN"]
    for name in [*names, "WHATSAPP_PHONE_NUMBER_ID", "WHATSAPP_API_BASE_URL"]:
        monkeypatch.delenv(name, raising=False)
    for name in names:
        monkeypatch.setenv(name, "set")
    with pytest.raises(RasaException, match="needs WHATSAPP_PHONE_NUMBER_ID in the environment"):
        WhatsAppInput.from_credentials(None)
    monkeypatch.setenv("WHATSAPP_PHONE_NUMBER_ID", PHONE_NUMBER_ID)
    channel = WhatsAppInput.from_credentials({})
    assert channel.name() == "whatsapp"
    assert channel.api.base_url == "https://graph.facebook.com/v19.0"


async def test_a_failing_graph_api_is_logged_without_the_number(
    channel: WhatsAppInput,
    serve: Serve,
    provider: FakeProvider,
    caplog: pytest.LogCaptureFixture,
) -> None:
    provider.status = 400
    provider.reply = {
        "error": {
            "message": "(#131030) Recipient phone number not in allowed list",
            "type": "OAuthException",
            "code": 131030,
            "fbtrace_id": "AbCdEfGhIjK",
        }
    }
    url = await serve(channel, replying([{"text": "hello"}]))
    assert await post(url, fixture("whatsapp_text.json")) == 200
    assert "whatsapp send message failed: HTTP 400 (error code 131030)" in caplog.text
    assert USER not in caplog.text and ACCESS_TOKEN not in caplog.text
