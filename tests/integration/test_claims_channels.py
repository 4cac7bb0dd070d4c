"""Rumours forwarded on Telegram and WhatsApp, and a choice of two on SMS, end to end: real
Rasa and action-server processes, the fake Bot API, Cloud API and SMS gateway on loopback.

A Dari and an English Telegram user forward a chain message that asks nothing, a Pashto
WhatsApp user forwards it too: each gets the editors' verdict in their language (false, and
that the embassy never collects names on Facebook or WhatsApp), never the rumour quoted back.
A forwarded rumour nobody checked gets "not checked yet" with the offer; the "1" typed after it
(in each slice's digits) accepts it, the next "1" is the menu. An SMS reader picks one of two
close claims by number, and their ask is stored against that claim. A question asked in a photo's
or an image's caption gets the verdict as typed text would, and the picture is never fetched.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from bot.channels.identity import conversation_id
from scripts.fake_providers import (
    post_telegram,
    post_whatsapp,
    send_telegram,
    send_whatsapp,
    telegram_update,
)
from tests.integration.test_alerts import AlertStack, alert_stack, sms

pytestmark = pytest.mark.integration

FALSE = {"en": "False", "prs": "نادرست", "ps": "ناسمه"}
#: What the explanation says of how the embassy really works, in each language.
NEVER_ON_FACEBOOK = {
    "en": "never asks for names or documents on Facebook or WhatsApp",
    "prs": "هیچ وقت در فیسبوک یا واتساپ نام یا اسناد نمی‌خواهد",
    "ps": "هېڅکله په فېسبوک یا واټساپ کې نومونه یا اسناد نه غواړي",
}
#: Chain messages as they are forwarded: statements, no question.
FACEBOOK_RUMOUR = {
    "prs": "امریکا از طریق فیسبوک نام‌ها را جمع میکند. هر کس که با امریکایی‌ها کار کرده نام خود را"
    " در این صفحه بنویسد تا به طیاره برود",
    "en": "The US Embassy is collecting names for evacuation flights on this Facebook page. Send"
    " your name and passport photo to get a seat",
    "ps": "د امریکا سفارت په فېسبوک پاڼه کې د الوتنې لپاره نومونه راټولوي، خپل نوم او د پاسپورټ"
    " عکس ولیږئ",
}
UNKNOWN_RUMOUR = {
    "en": "Uzbekistan opens the Hairatan border tomorrow for every family with children",
    "prs": "ازبکستان فردا سرحد حیرتان را برای همه خانواده‌ها باز میکند",
    "ps": "ازبکستان سبا د حیرتان پوله د ټولو کورنیو لپاره پرانیزي",
}
NOT_CHECKED = {
    "en": "We have not checked this yet",
    "prs": "این گپ را هنوز بررسی نکرده‌ایم",
    "ps": "دا خبره مو لا نه ده کتلې",
}
REPLY_ONE = {"en": "Reply 1", "prs": "۱ بفرستید", "ps": "۱ راولېږئ"}
WILL_TELL = {
    "en": "we will tell you here",
    "prs": "همین‌جا برایتان خبر",
    "ps": "همدلته به درته ووایو",
}
#: Menu item 1, the flights: what "1" means when no offer is waiting.
FLIGHTS = {"en": "Doha", "prs": "دوحه", "ps": "دوحه"}
#: Questions about the Canada rumour, written as a picture's caption.
CANADA_QUESTION = {
    "en": "is it true that Canada takes everyone with a tazkira?",
    "prs": "راست است که کانادا همه را با تذکره می‌برد؟",
}
#: How the editors' explanation of the Canada claim begins, in each language.
TAZKIRA_ALONE = {"en": "A tazkira alone gives no place", "prs": "تنها تذکره کسی را حق رفتن نمی‌دهد"}
#: A photo's sizes as a Telegram message carries them: files that only ``getFile`` would fetch.
PHOTO_SIZES = [
    {"file_id": "AgACAgIAAxSmall", "file_unique_id": "AQADSmall", "width": 90, "height": 67},
    {"file_id": "AgACAgIAAxLarge", "file_unique_id": "AQADLarge", "width": 800, "height": 600},
]


@pytest.fixture(scope="module")
def channels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AlertStack]:
    """Rasa with the Telegram, WhatsApp and SMS gateway channels, the action server, the notifier
    and the fake providers (tests/integration/test_alerts.py), for this module's people, who
    write faster than Telegram's one message a second in a chat."""
    yield from alert_stack(tmp_path_factory, telegram_per_chat=None)


def asks(channels: AlertStack, channel: str, address: str) -> list[tuple[Any, ...]]:
    """The conversation's stored asks: masked text, group, claim, whether to be told later."""
    return channels.rows(
        "SELECT masked_text, group_key, claim_id, wants_answer FROM claim_asks"
        " WHERE conversation_id = ? ORDER BY id",
        conversation_id(channel, address),
    )


def claim_id(channels: AlertStack, slug: str) -> int:
    [(found,)] = channels.rows("SELECT id FROM claims WHERE slug = ?", slug)
    return int(found)


def shown(sent: list[Any]) -> str:
    """What the person reads: each message's text and its buttons' titles."""
    return "\n".join(part for received in sent for part in (received.text, *received.buttons))


class TelegramChat:
    """One private chat; ``send`` returns what the Bot API was asked to show in it."""

    def __init__(self, channels: AlertStack, app_language: str) -> None:
        self.channels = channels
        self.chat = 730000000 + uuid.uuid4().int % 1_000_000
        self.app_language = app_language

    async def send(self, text: str, forwarded: bool = False) -> str:
        before = len(self.sent())
        async with aiohttp.ClientSession() as session:
            await send_telegram(
                session, self.channels.stack.rasa_url, self.chat, text, self.app_language, forwarded
            )
        return shown(self.sent()[before:])

    async def send_photo(self, caption: str) -> str:
        """A photo sent with ``caption``, as the Bot API posts it (``photo``, ``caption``)."""
        before = len(self.sent())
        update = telegram_update(self.chat, caption, self.app_language)
        photo = update["message"]
        photo["caption"] = photo.pop("text")
        photo["photo"] = PHOTO_SIZES
        async with aiohttp.ClientSession() as session:
            await post_telegram(session, self.channels.stack.rasa_url, update)
        return shown(self.sent()[before:])

    def sent(self) -> list[Any]:
        return self.channels.providers.to("telegram", str(self.chat))


class WhatsAppChat:
    """One WhatsApp user writing to the business number (a signed Cloud API webhook)."""

    def __init__(self, channels: AlertStack) -> None:
        self.channels = channels
        self.number = f"93701{uuid.uuid4().int % 1_000_000:06d}"

    async def send(self, text: str, forwarded: bool = False) -> str:
        before = len(self.sent())
        async with aiohttp.ClientSession() as session:
            await send_whatsapp(session, self.channels.stack.rasa_url, self.number, text, forwarded)
        return shown(self.sent()[before:])

    async def send_image(self, caption: str) -> str:
        """An image sent with ``caption``, as Meta posts it (``image``: its caption and the
        media id that only a Graph API request would fetch)."""
        before = len(self.sent())
        image = {
            "from": self.number,
            "id": f"wamid.{secrets.token_hex(16)}",
            "timestamp": str(int(time.time())),
            "type": "image",
            "image": {"caption": caption, "mime_type": "image/jpeg", "id": "1003383421387256"},
        }
        async with aiohttp.ClientSession() as session:
            await post_whatsapp(session, self.channels.stack.rasa_url, self.number, image)
        return shown(self.sent()[before:])

    def sent(self) -> list[Any]:
        return self.channels.providers.to("whatsapp", self.number)


@pytest.mark.parametrize(("language", "app_language"), [("prs", "fa"), ("en", "en")])
async def test_a_forwarded_rumour_on_telegram_gets_the_verdict_in_the_persons_language(
    channels: AlertStack, language: str, app_language: str
) -> None:
    person = TelegramChat(channels, app_language)
    reply = await person.send(FACEBOOK_RUMOUR[language], forwarded=True)
    assert FALSE[language] in reply and NEVER_ON_FACEBOOK[language] in reply, reply
    assert FACEBOOK_RUMOUR[language] not in reply  # named by the editors' words, not quoted
    [(_, group, claim, _)] = asks(channels, "telegram", str(person.chat))
    assert group == "us-embassy-facebook-whatsapp"
    assert claim == claim_id(channels, "us-embassy-facebook-whatsapp")


async def test_a_forwarded_rumour_on_whatsapp_gets_the_verdict_in_pashto(
    channels: AlertStack,
) -> None:
    person = WhatsAppChat(channels)
    reply = await person.send(FACEBOOK_RUMOUR["ps"], forwarded=True)
    assert FALSE["ps"] in reply and NEVER_ON_FACEBOOK["ps"] in reply, reply
    assert FACEBOOK_RUMOUR["ps"] not in reply


async def test_a_rumour_asked_in_a_photos_caption_on_telegram_gets_the_verdict(
    channels: AlertStack,
) -> None:
    person = TelegramChat(channels, "en")
    unserved = len(channels.providers.unserved)
    reply = await person.send_photo(CANADA_QUESTION["en"])
    assert FALSE["en"] in reply and TAZKIRA_ALONE["en"] in reply, reply
    [(_, group, claim, _)] = asks(channels, "telegram", str(person.chat))
    assert group == "canada-every-tazkira" and claim == claim_id(channels, "canada-every-tazkira")
    assert channels.providers.unserved[unserved:] == []  # no getFile, no download: not fetched


async def test_a_rumour_asked_in_an_images_caption_on_whatsapp_gets_the_verdict_in_dari(
    channels: AlertStack,
) -> None:
    person = WhatsAppChat(channels)
    unserved = len(channels.providers.unserved)
    reply = await person.send_image(CANADA_QUESTION["prs"])
    assert FALSE["prs"] in reply and TAZKIRA_ALONE["prs"] in reply, reply
    [(_, group, _, _)] = asks(channels, "whatsapp", person.number)
    assert group == "canada-every-tazkira"
    assert channels.providers.unserved[unserved:] == []  # the media id was never asked for


@pytest.mark.parametrize(
    ("language", "app_language", "digit"),
    [("prs", "fa", "۱"), ("ps", "ps", "١"), ("en", "en", "1")],
    ids=["prs-persian-digit", "ps-arabic-digit", "en"],
)
async def test_an_unchecked_forwarded_rumour_on_telegram_then_a_typed_one_accepts_the_offer(
    channels: AlertStack, language: str, app_language: str, digit: str
) -> None:
    person = TelegramChat(channels, app_language)
    offer = await person.send(UNKNOWN_RUMOUR[language], forwarded=True)
    assert NOT_CHECKED[language] in offer and REPLY_ONE[language] in offer, offer
    assert UNKNOWN_RUMOUR[language] not in offer
    [(_, _, claim, wants)] = asks(channels, "telegram", str(person.chat))
    assert claim is None and not wants

    accepted = await person.send(digit)
    assert WILL_TELL[language] in accepted, accepted
    [(_, _, claim, wants)] = asks(channels, "telegram", str(person.chat))
    assert claim is None and wants

    menu = await person.send(digit)  # no offer waits now: "1" is the flights
    assert FLIGHTS[language] in menu and WILL_TELL[language] not in menu, menu


async def test_an_unchecked_forwarded_rumour_on_whatsapp_then_a_typed_one_accepts_the_offer(
    channels: AlertStack,
) -> None:
    person = WhatsAppChat(channels)
    offer = await person.send(UNKNOWN_RUMOUR["prs"], forwarded=True)
    assert NOT_CHECKED["prs"] in offer and "۱ خبرم کنید" in offer, offer
    accepted = await person.send("۱")
    assert WILL_TELL["prs"] in accepted, accepted
    [(_, _, claim, wants)] = asks(channels, "whatsapp", person.number)
    assert claim is None and wants


async def test_one_of_two_close_claims_picked_by_number_on_sms_gets_the_ask(
    channels: AlertStack,
) -> None:
    number = f"+93702{uuid.uuid4().int % 1_000_000:06d}"
    which = "\n".join(
        await sms(channels, number, "is it true that canada takes every afghan who worked?")
    )
    assert "1" in which and "2" in which and "Canada" in which, which
    assert asks(channels, "sms_gateway", number) == []
    # The closer one (every Afghan with a tazkira) is listed first.
    picked = "\n".join(await sms(channels, number, "1"))
    assert FALSE["en"] in picked and "tazkira" in picked, picked
    [(masked, group, claim, _)] = asks(channels, "sms_gateway", number)
    assert group == "canada-every-tazkira" and claim == claim_id(channels, "canada-every-tazkira")
    assert "canada takes every afghan who worked" in masked
