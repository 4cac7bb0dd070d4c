"""Telegram as people use it: groups, captions, forwards, shared places and poster links,
posted as documented updates to the real blueprint, replies to a fake Bot API."""

from __future__ import annotations

import json
import logging
from typing import Any

import aiohttp
import pytest

from bot.channels.identity import conversation_id
from bot.channels.settings import TelegramSettings
from bot.channels.telegram import SECRET_HEADER, TelegramInput
from kernel.contract import FORWARDED, LOCATION
from kernel.lang.texts import CATALOGUE
from kernel.memory import ProcessMemory
from kernel.notices import write_privately
from tests.channels.channel_support import (
    FakeProvider,
    KnowingBot,
    Serve,
    Tracker,
    fixture,
    without_person,
)

TOKEN = "123456:TEST-token"
SECRET = "test_secret-token"
USERNAME = "evac_info_bot"
TEXT_ONLY = CATALOGUE.entry("channels.text_only")
WRITE_PRIVATELY = CATALOGUE.entry("channels.write_privately")


async def post(url: str, body: dict[str, Any]) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{url}/webhook", data=json.dumps(body).encode(), headers={SECRET_HEADER: SECRET}
        ) as r,
    ):
        return r.status


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def channel_with(provider: FakeProvider, username: str | None = USERNAME, **kw: Any) -> Any:
    return TelegramInput(TelegramSettings(TOKEN, SECRET, provider.url, username), **kw)


def in_group(name: str, group: int = -1001500000120) -> dict[str, Any]:
    """A documented private-chat update as it arrives from a supergroup instead."""
    update = fixture(name)
    update["message"]["chat"] = {"id": group, "title": "Kabul evacuees", "type": "supergroup"}
    return update


# -- groups ------------------------------------------------------------------------------


async def test_a_group_is_told_once_a_day_to_write_privately_and_never_answered(
    provider: FakeProvider, serve: Serve, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    clock = Clock()
    bot = KnowingBot()
    url = await serve(channel_with(provider, memory=ProcessMemory(clock=clock)), bot)

    assert await post(url, fixture("telegram_group_text.json")) == 200
    later = fixture("telegram_group_text.json")
    later["update_id"] += 1
    later["message"]["text"] = "When is the next flight?"
    assert await post(url, later) == 200

    assert bot.messages == []  # no conversation, so no subscription and no case either
    [notice] = provider.requests
    assert notice.path == f"/bot{TOKEN}/sendMessage"
    assert notice.json() == {
        "chat_id": -1001500000120,
        "text": write_privately(f"https://t.me/{USERNAME}"),
    }
    text = notice.json()["text"]
    assert all(WRITE_PRIVATELY[code] in text for code in ("prs", "ps", "en"))
    assert text.index(WRITE_PRIVATELY["prs"]) < text.index(WRITE_PRIVATELY["en"])
    assert "1001500000120" not in caplog.text

    clock.now += 24 * 3600 + 1  # the next day: told again, once
    tomorrow = fixture("telegram_group_text.json")
    tomorrow["update_id"] += 2
    assert await post(url, tomorrow) == 200
    assert len(provider.requests) == 2 and bot.messages == []


@pytest.mark.parametrize(
    "name",
    ["telegram_text_dari.json", "telegram_photo.json", "telegram_location.json"],
    ids=["text", "photo-with-caption", "location"],
)
async def test_nothing_a_group_sends_reaches_the_assistant(
    provider: FakeProvider, serve: Serve, name: str
) -> None:
    bot = KnowingBot()
    url = await serve(channel_with(provider), bot)
    assert await post(url, in_group(name)) == 200
    assert bot.messages == []
    assert [r.json()["chat_id"] for r in provider.requests] == [-1001500000120]


async def test_a_channel_post_and_a_joining_member_get_no_notice(
    provider: FakeProvider, serve: Serve
) -> None:
    bot = KnowingBot()
    url = await serve(channel_with(provider), bot)
    post_in_channel = {"update_id": 581000030, "channel_post": in_group("telegram_text_dari.json")}
    joined = in_group("telegram_new_chat_members.json")
    assert await post(url, post_in_channel) == 200
    assert await post(url, joined) == 200
    assert bot.messages == [] and provider.requests == []


async def test_without_a_configured_username_the_link_comes_from_get_me_once(
    provider: FakeProvider, serve: Serve
) -> None:
    provider.reply = {"ok": True, "result": {"id": 123456, "is_bot": True, "username": USERNAME}}
    url = await serve(channel_with(provider, username=None), KnowingBot())
    assert await post(url, fixture("telegram_group_text.json")) == 200
    other_group = in_group("telegram_text_dari.json", group=-1001500000777)
    assert await post(url, other_group) == 200
    paths = [r.path.rsplit("/", 1)[-1] for r in provider.requests]
    assert paths == ["getMe", "sendMessage", "sendMessage"]
    assert all(f"https://t.me/{USERNAME}" in r.json()["text"] for r in provider.requests[1:])


def test_the_username_setting_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_SECRET_TOKEN", SECRET)
    monkeypatch.setenv("TELEGRAM_BOT_USERNAME", "@evac_info_bot")
    assert TelegramSettings.load().username == USERNAME
    monkeypatch.setenv("TELEGRAM_BOT_USERNAME", "https://t.me/evac")
    with pytest.raises(ValueError, match="TELEGRAM_BOT_USERNAME"):
        TelegramSettings.load()


# -- captions and media ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "hint"),
    [
        ("telegram_photo.json", "my tazkira", None),
        ("telegram_document_caption.json", "ایا دا لیک زما د الوتنې لپاره بس دی؟", "ps"),
    ],
    ids=["photo", "document"],
)
async def test_a_caption_is_the_question_and_the_file_is_never_fetched(
    provider: FakeProvider, serve: Serve, name: str, text: str, hint: str | None
) -> None:
    bot = KnowingBot()
    url = await serve(channel_with(provider), bot)
    assert await post(url, fixture(name)) == 200
    [message] = bot.messages
    assert message.text == text
    assert without_person(message.metadata) == ({"language_hint": hint} if hint else {})
    assert [r.path for r in provider.requests] == [f"/bot{TOKEN}/sendMessage"]  # no getFile


async def test_media_without_caption_is_answered_in_the_conversations_language(
    provider: FakeProvider, serve: Serve
) -> None:
    bot = KnowingBot()
    update = fixture("telegram_photo_without_caption.json")
    chat = update["message"]["chat"]["id"]
    bot.tracker_store.trackers[conversation_id("telegram", str(chat))] = Tracker("prs")
    url = await serve(channel_with(provider), bot)
    assert await post(url, update) == 200
    assert bot.messages == []
    [sent] = provider.requests
    assert sent.json() == {"chat_id": chat, "text": TEXT_ONLY["prs"]}


# -- forwarded messages and shared places ---------------------------------------------------


@pytest.mark.parametrize("name", ["telegram_forwarded.json", "telegram_forwarded_before_7.json"])
async def test_a_forwarded_message_is_marked_for_the_assistant(
    provider: FakeProvider, serve: Serve, name: str
) -> None:
    bot = KnowingBot()
    url = await serve(channel_with(provider), bot)
    assert await post(url, fixture(name)) == 200
    assert await post(url, fixture("telegram_text_dari.json")) == 200
    forwarded, own = bot.messages
    assert forwarded.text == fixture(name)["message"]["text"]
    assert forwarded.metadata[FORWARDED] is True
    assert FORWARDED not in own.metadata


@pytest.mark.parametrize(
    ("name", "lat", "lon"),
    [("telegram_location.json", 34.561195, 69.212487), ("telegram_venue.json", 34.5656, 69.2165)],
    ids=["location", "venue"],
)
async def test_a_shared_place_asks_for_help_and_carries_its_coordinates(
    provider: FakeProvider,
    serve: Serve,
    caplog: pytest.LogCaptureFixture,
    name: str,
    lat: float,
    lon: float,
) -> None:
    caplog.set_level(logging.INFO)
    bot = KnowingBot()
    url = await serve(channel_with(provider), bot)
    assert await post(url, fixture(name)) == 200
    [message] = bot.messages
    assert message.text == "/ask_help"
    assert message.metadata[LOCATION] == {"lat": lat, "lon": lon}
    assert str(lat) not in caplog.text


# -- links on posters -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "text", "hint"),
    [
        ("/start gate_abbey", '/ask_airport_status{"gate": "KBL/abbey-gate"}', "ps"),
        ("/start lang_prs", '/set_language{"language": "prs"}', "prs"),
        ("/start lang_en-gate_north", '/ask_airport_status{"gate": "KBL/north-gate"}', "en"),
        (f"/start@{USERNAME} site_kbl", '/ask_airport_status{"airport": "KBL"}', "ps"),
        ("/start Gate_East", '/ask_airport_status{"gate": "KBL/east-gate"}', "ps"),
        ("/start free_visas", "/greet", "ps"),
        ("/start", "/greet", "ps"),
    ],
)
async def test_a_poster_link_opens_the_conversation_it_stands_for(
    provider: FakeProvider, serve: Serve, command: str, text: str, hint: str
) -> None:
    bot = KnowingBot()
    url = await serve(channel_with(provider), bot)
    update = fixture("telegram_start.json")  # the person's Telegram speaks Pashto
    update["message"]["text"] = command
    assert await post(url, update) == 200
    [message] = bot.messages
    assert message.text == text
    assert without_person(message.metadata) == {"language_hint": hint}
