"""A number typed after a reply with numbered buttons: that button on Telegram and WhatsApp,
the menu otherwise (the very next message only, for a short time)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from rasa.core.channels.channel import UserMessage

from bot.channels.settings import TelegramSettings, WhatsAppSettings
from bot.channels.telegram import TelegramInput
from bot.channels.typed_numbers import TypedNumbers, numbered_payloads
from bot.channels.whatsapp import WhatsAppInput
from kernel.memory import ChannelMemory
from tests.channels import test_telegram, test_whatsapp
from tests.channels.channel_support import FakeBot, FakeProvider, Serve, fixture

NOTIFY = '/check_claim{"detail": "notify"}'
#: The offer to be told later, as each language's variation titles its button.
OFFERS = {
    "en": [{"title": "1 Tell me when known", "payload": NOTIFY}],
    "prs": [{"title": "۱ خبرم کنید", "payload": NOTIFY}],
    "ps": [{"title": "۱ خبر مې کړئ", "payload": NOTIFY}],
}
RUMOUR = "all gates open tonight for women and children"
#: The five language slices, each with the digit its writers type.
TYPED = [
    ("en", "1"),
    ("prs", "۱"),  # Dari in Arabic script: Persian digit
    ("ps", "١"),  # Pashto typed on an Arabic keyboard: Arabic-Indic digit
    ("prs", "1"),  # Dari in Latin letters
    ("ps", "1."),  # Pashto in Latin letters, as a numbered line is written
]
SLICES = ["en", "prs-Arab", "ps-Arab", "prs-Latn", "ps-Latn"]


def offering(language: str) -> FakeBot:
    """Answers the rumour with the offer (its one numbered button), anything else plainly."""

    def respond(message: UserMessage) -> list[dict[str, Any]]:
        if message.text == RUMOUR:
            return [{"text": "Not checked yet. Reply 1 …", "buttons": OFFERS[language]}]
        return [{"text": "answer"}]

    return FakeBot(respond=respond)


@pytest.mark.parametrize(("language", "digit"), TYPED, ids=SLICES)
async def test_a_typed_one_after_the_offer_accepts_it_on_telegram(
    serve: Serve, provider: FakeProvider, language: str, digit: str
) -> None:
    channel = TelegramInput(
        TelegramSettings(test_telegram.TOKEN, test_telegram.SECRET, provider.url)
    )
    bot = offering(language)
    url = await serve(channel, bot)
    for number, text in enumerate((RUMOUR, digit, digit)):
        update = fixture("telegram_text_dari.json")
        update["update_id"] += number
        update["message"]["text"] = text
        assert await test_telegram.post(url, update) == 200
    _, accepted, menu = (message.text for message in bot.messages)
    assert accepted == NOTIFY
    # The next "1" follows a reply without numbered buttons: menu item 1, as typed.
    assert menu == digit


@pytest.mark.parametrize(("language", "digit"), TYPED, ids=SLICES)
async def test_a_typed_one_after_the_offer_accepts_it_on_whatsapp(
    serve: Serve, provider: FakeProvider, language: str, digit: str
) -> None:
    provider.reply = {"messaging_product": "whatsapp", "messages": [{"id": "wamid.sent"}]}
    settings = WhatsAppSettings(
        test_whatsapp.APP_SECRET,
        test_whatsapp.VERIFY_TOKEN,
        test_whatsapp.ACCESS_TOKEN,
        test_whatsapp.PHONE_NUMBER_ID,
        provider.url,
    )
    bot = offering(language)
    url = await serve(WhatsAppInput(settings), bot)
    for number, text in enumerate((RUMOUR, digit, digit)):
        notification = fixture("whatsapp_text.json")
        message = notification["entry"][0]["changes"][0]["value"]["messages"][0]
        message["id"] += str(number)
        message["text"]["body"] = text
        assert await test_whatsapp.post(url, notification) == 200
    _, accepted, menu = (message.text for message in bot.messages)
    assert accepted == NOTIFY and menu == digit
    # The offer itself went out as a reply button: tapping it sends the same payload.
    interactive = json.loads(provider.requests[0].body)["interactive"]
    assert interactive["action"]["buttons"][0]["reply"]["id"] == NOTIFY


async def test_a_number_not_offered_and_unnumbered_buttons_leave_the_menu(
    memory: ChannelMemory,
) -> None:
    numbers = TypedNumbers(memory)
    await numbers.offered("c1", OFFERS["en"])
    assert await numbers.payload_for("c1", "2") is None  # only "1" was offered
    assert await numbers.payload_for("c1", "1") is None  # and that was the next message
    await numbers.offered("c1", [{"title": "English", "payload": "/set_language"}])
    assert await numbers.payload_for("c1", "1") is None
    await numbers.offered("c1", OFFERS["ps"])
    assert await numbers.payload_for("c2", "1") is None  # another conversation's offer
    assert await numbers.payload_for("c1", "1.") == NOTIFY


async def test_the_offer_is_forgotten_after_its_time(memory: ChannelMemory) -> None:
    numbers = TypedNumbers(memory, ttl_seconds=1)
    await numbers.offered("c1", OFFERS["prs"])
    await asyncio.sleep(1.3)
    assert await numbers.payload_for("c1", "۱") is None


def test_only_buttons_whose_title_starts_with_a_number_are_numbered() -> None:
    buttons = [
        {"title": "۱ کانادا هر افغانی را که تذکره دارد می‌برد", "payload": "/check_claim"},
        {"title": "2 Canada takes Afghans who worked", "payload": "/check_claim2"},
        {"title": "Menu", "payload": "/show_menu"},
        {"title": "10 seconds", "payload": "/x"},
    ]
    assert numbered_payloads(buttons) == {1: "/check_claim", 2: "/check_claim2", 10: "/x"}
