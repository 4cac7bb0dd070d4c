"""WhatsApp as people use it: usernames instead of numbers, captions, forwards, shared places,
poster links and notifications that cannot all be used, posted as documented and signed
notifications to the real blueprint, replies to a fake Graph API."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from typing import Any

import aiohttp
import pytest

from bot.channels.identity import conversation_id
from bot.channels.settings import WhatsAppSettings
from bot.channels.transport import ProviderApi
from bot.channels.whatsapp import SIGNATURE_HEADER, WhatsAppAlertOutput, WhatsAppInput
from kernel.contract import FORWARDED, LANGUAGE_HINT, LOCATION
from kernel.lang.texts import CATALOGUE
from kernel.notices import text_only
from tests.channels.channel_support import (
    FakeProvider,
    KnowingBot,
    Serve,
    Tracker,
    fixture,
    without_person,
)

APP_SECRET = "test-app-secret"
PHONE_NUMBER_ID = "106540352242922"
USER_ID = "AF.1502576394655843"  # the business-scoped user id of whatsapp_username_text.json
TEXT_ONLY = CATALOGUE.entry("channels.text_only")


def signed(payload: object) -> tuple[bytes, dict[str, str]]:
    body = json.dumps(payload).encode()
    digest = hmac.new(APP_SECRET.encode(), body, hashlib.sha256).hexdigest()
    return body, {SIGNATURE_HEADER: f"sha256={digest}"}


async def post(url: str, payload: object) -> int:
    body, headers = signed(payload)
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{url}/webhook", data=body, headers=headers) as r,
    ):
        return r.status


def first_message(payload: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = payload["entry"][0]["changes"][0]["value"]["messages"][0]
    return message


@pytest.fixture
def channel(provider: FakeProvider) -> WhatsAppInput:
    provider.reply = {"messaging_product": "whatsapp", "messages": [{"id": "wamid.sent"}]}
    return WhatsAppInput(
        WhatsAppSettings(APP_SECRET, "verify", "EAAToken", PHONE_NUMBER_ID, provider.url)
    )


# -- people known by a username ---------------------------------------------------------------


async def test_a_person_with_a_username_is_answered_at_their_user_id(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider
) -> None:
    bot = KnowingBot()
    url = await serve(channel, bot)
    assert await post(url, fixture("whatsapp_username_text.json")) == 200
    [message] = bot.messages
    assert message.text == "میدان هوایی کابل باز است؟"
    assert message.sender_id == conversation_id("whatsapp", USER_ID)
    without_person(message.metadata)
    [sent] = provider.requests
    assert sent.json() == {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "recipient": USER_ID,
        "type": "text",
        "text": {"body": "answer"},
    }


async def test_the_phone_number_is_the_key_when_both_are_given(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider
) -> None:
    bot = KnowingBot()
    url = await serve(channel, bot)
    payload = fixture("whatsapp_text.json")
    first_message(payload)["from_user_id"] = USER_ID
    assert await post(url, payload) == 200
    [message] = bot.messages
    assert message.sender_id == conversation_id("whatsapp", "93700000201")
    assert provider.requests[0].json()["to"] == "93700000201"
    assert "recipient" not in provider.requests[0].json()


async def test_an_alert_to_a_stored_user_id_goes_as_recipient(provider: FakeProvider) -> None:
    provider.reply = {"messaging_product": "whatsapp", "messages": [{"id": "wamid.sent"}]}
    api = ProviderApi(provider.url)
    try:
        output = await WhatsAppAlertOutput(api, PHONE_NUMBER_ID, None).open("conv-1", USER_ID)
        await output.send_text_message("conv-1", "The East Gate is closed.")
    finally:
        await api.close()
    [sent] = provider.requests
    assert sent.json()["recipient"] == USER_ID and "to" not in sent.json()


async def test_unusable_messages_are_skipped_and_the_person_beside_them_is_answered(
    channel: WhatsAppInput,
    serve: Serve,
    provider: FakeProvider,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    bot = KnowingBot()
    url = await serve(channel, bot)
    payload = fixture("whatsapp_text.json")
    person = first_message(payload)
    no_sender = {**person, "id": "wamid.nosender", "from": "not a number"}
    no_id = {key: value for key, value in person.items() if key != "id"}
    not_a_message = "garbage"
    messages = payload["entry"][0]["changes"][0]["value"]["messages"]
    messages[:] = [no_sender, no_id, not_a_message, person]

    assert await post(url, payload) == 200
    [message] = bot.messages
    assert message.sender_id == conversation_id("whatsapp", "93700000201")
    assert [r.json()["to"] for r in provider.requests] == ["93700000201"]
    assert "from no phone number or user id skipped" in caplog.text
    assert "without id or type skipped" in caplog.text
    assert "not a number" not in caplog.text and "93700000201" not in caplog.text


@pytest.mark.parametrize(
    "sender",
    [{"from": "+93 700 000 201"}, {"from": ""}, {"from_user_id": "kabul.friend"}, {}],
    ids=["formatted-number", "empty", "username-not-id", "none"],
)
async def test_a_sender_that_is_no_number_and_no_user_id_is_not_answered(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider, sender: dict[str, str]
) -> None:
    bot = KnowingBot()
    url = await serve(channel, bot)
    payload = fixture("whatsapp_text.json")
    message = first_message(payload)
    del message["from"]
    message.update(sender)
    assert await post(url, payload) == 200
    assert bot.messages == [] and provider.requests == []


# -- captions and media -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("whatsapp_image.json", "tazkira"),
        ("whatsapp_document.json", "Is this letter enough for the flight?"),
    ],
)
async def test_a_caption_is_the_question_and_the_media_is_never_fetched(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider, name: str, text: str
) -> None:
    bot = KnowingBot()
    url = await serve(channel, bot)
    assert await post(url, fixture(name)) == 200
    assert [m.text for m in bot.messages] == [text]
    assert [r.path for r in provider.requests] == [f"/{PHONE_NUMBER_ID}/messages"]


@pytest.mark.parametrize(
    "name", ["whatsapp_video.json", "whatsapp_contacts.json", "whatsapp_unsupported.json"]
)
async def test_media_without_words_is_answered_in_the_conversations_language(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider, name: str
) -> None:
    bot = KnowingBot()
    payload = fixture(name)
    number = first_message(payload)["from"]
    bot.tracker_store.trackers[conversation_id("whatsapp", number)] = Tracker("ps")
    url = await serve(channel, bot)
    assert await post(url, payload) == 200
    assert bot.messages == []
    [sent] = provider.requests
    assert sent.json()["to"] == number
    assert sent.json()["text"] == {"body": text_only("ps")} == {"body": TEXT_ONLY["ps"]}


# -- forwarded messages and shared places -------------------------------------------------------


@pytest.mark.parametrize("marker", ["forwarded", "frequently_forwarded"])
async def test_a_forwarded_message_is_marked_for_the_assistant(
    channel: WhatsAppInput, serve: Serve, marker: str
) -> None:
    bot = KnowingBot()
    url = await serve(channel, bot)
    payload = fixture("whatsapp_forwarded.json")
    first_message(payload)["context"] = {marker: True}
    assert await post(url, payload) == 200
    assert await post(url, fixture("whatsapp_text.json")) == 200
    forwarded, own = bot.messages
    assert forwarded.text == "همه کسانی که تذکره دارند فردا پرواز می‌کنند"
    assert forwarded.metadata[FORWARDED] is True
    assert FORWARDED not in own.metadata


async def test_a_shared_location_asks_for_help_and_carries_its_coordinates(
    channel: WhatsAppInput, serve: Serve, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    bot = KnowingBot()
    url = await serve(channel, bot)
    assert await post(url, fixture("whatsapp_location.json")) == 200
    [message] = bot.messages
    assert message.text == "/ask_help"
    assert message.metadata[LOCATION] == {"lat": 34.5656, "lon": 69.2165}
    assert "34.5656" not in caplog.text


async def test_a_location_that_is_no_place_gets_the_request_to_write(
    channel: WhatsAppInput, serve: Serve, provider: FakeProvider
) -> None:
    bot = KnowingBot()
    url = await serve(channel, bot)
    payload = fixture("whatsapp_location.json")
    first_message(payload)["location"] = {"latitude": 134.5, "longitude": "east"}
    assert await post(url, payload) == 200
    assert bot.messages == []
    [sent] = provider.requests
    assert sent.json()["text"] == {"body": text_only(None)}


# -- links on posters ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "text", "hint"),
    [
        ("start gate_abbey", '/ask_airport_status{"gate": "KBL/abbey-gate"}', None),
        ("Start lang_ps", '/set_language{"language": "ps"}', "ps"),
        (" start lang_prs-gate_baron ", '/ask_airport_status{"gate": "KBL/baron-hotel"}', "prs"),
        ("start site_mzr", '/ask_airport_status{"airport": "MZR"}', None),
        ("start free_visas", "/greet", None),
        ("start the engine please", "start the engine please", None),
    ],
)
async def test_the_prefilled_text_of_a_poster_link_opens_its_conversation(
    channel: WhatsAppInput, serve: Serve, typed: str, text: str, hint: str | None
) -> None:
    bot = KnowingBot()
    url = await serve(channel, bot)
    payload = fixture("whatsapp_text.json")
    first_message(payload)["text"]["body"] = typed
    assert await post(url, payload) == 200
    [message] = bot.messages
    assert message.text == text
    assert without_person(message.metadata) == ({LANGUAGE_HINT: hint} if hint else {})
