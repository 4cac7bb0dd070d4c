"""Danger first on every channel, end to end: real Rasa and action-server processes, the fake
Bot API, Cloud API, SMS gateway and Twilio on loopback (Kannel's real bearerbox:
tests/integration/test_kannel.py; the web chat in Chromium: tests/journeys/).

Each person writes about a danger — as a first message, after a question, while a case waits —
and gets, first, the line that answers it now with its number, then that a caseworker sees
urgent cases first; the caseworkers' queue has the case as urgent. An everyday message that
shares the words gets its usual answer and opens nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.channels.identity import conversation_id
from tests.integration.test_alerts import AlertStack, alert_stack, sms
from tests.integration.test_claims_channels import TelegramChat, WhatsAppChat
from tests.integration.test_sms_answers import SmsStack, segments
from tests.integration.test_sms_answers import sms as twilio_stack  # noqa: F401  (fixture)

pytestmark = pytest.mark.integration

#: The demo's day-and-night lines for each danger.
FAMILY_LINE = "+93 700 000 121"
PROTECTION_LINE = "+93 700 000 142"
#: "A caseworker sees urgent cases first", as each language says it.
URGENT_FIRST = {
    "en": "A caseworker sees urgent cases first",
    "prs": "کارمندان اول قضیه‌های عاجل را می‌بینند",
    "ps": "کارکوونکي لومړی بیړنۍ قضیې ګوري",
}
#: Marks that keep a number's order in right-to-left text: invisible to the reader.
_INVISIBLE = re.compile("[\u200e\u200f\u2066-\u2069]")
SMS_URGENT = {
    "en": "Urgent case opened",
    "prs": "قضیهٔ عاجل باز شد",
    "ps": "بیړنۍ قضیه پرانیستل شوه",
}


@pytest.fixture(scope="module")
def channels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AlertStack]:
    """The stack of ``test_alerts``; its Telegram people (``TelegramChat``) write faster than
    Telegram's one message a second in a chat, which is not what these tests test."""
    yield from alert_stack(tmp_path_factory, telegram_per_chat=None)


def urgent_cases(channels: AlertStack, channel: str, address: str) -> list[tuple[int, str]]:
    """The conversation's cases as the caseworkers' queue sees them: priority, status."""
    return [
        (int(priority), str(status))
        for priority, status in channels.rows(
            "SELECT priority, status FROM cases WHERE conversation_id = ?",
            conversation_id(channel, address),
        )
    ]


async def test_armed_men_at_the_door_on_telegram_get_the_protection_line_first(
    channels: AlertStack,
) -> None:
    person = TelegramChat(channels, "en")
    reply = (await person.send("Taliban are at our door, what should we do")).replace("\xa0", " ")
    assert reply.startswith("If you are threatened or in danger — call now:"), reply
    assert reply.index(PROTECTION_LINE) < reply.index(URGENT_FIRST["en"])
    assert urgent_cases(channels, "telegram", str(person.chat)) == [(1, "waiting")]


async def test_a_lost_son_in_the_middle_of_a_conversation_on_whatsapp_in_pashto(
    channels: AlertStack,
) -> None:
    person = WhatsAppChat(channels)
    assert await person.send("د کابل هوايي ډګر خلاص دی؟")
    reply = (await person.send("زوی مې په ګڼه ګوڼه کې ورک شو، مرسته وکړئ")).replace("\xa0", " ")
    assert reply.startswith("ماشوم یا کوم خپلوان مو ورک دی"), reply
    assert FAMILY_LINE in reply and URGENT_FIRST["ps"] in reply
    assert urgent_cases(channels, "whatsapp", person.number) == [(1, "waiting")]


async def test_a_romanized_pashto_sms_about_a_mother_who_fainted_gets_the_number_first(
    channels: AlertStack,
) -> None:
    number = "+93701555123"
    fainted = "mor me pa gate ke behosha shwa doctor ta artia da"
    [first, *rest] = [_INVISIBLE.sub("", text) for text in await sms(channels, number, fainted)]
    assert first.startswith(FAMILY_LINE), first
    assert SMS_URGENT["ps"] in "\n".join([first, *rest])
    assert urgent_cases(channels, "sms_gateway", number) == [(1, "waiting")]


async def test_everyday_messages_that_share_the_words_open_nothing(channels: AlertStack) -> None:
    person = TelegramChat(channels, "en")
    for text in ("my son's passport is lost, what do I do", "is the gate open?", "safe journey"):
        reply = await person.send(text)
        assert FAMILY_LINE not in reply and URGENT_FIRST["en"] not in reply, reply
    assert urgent_cases(channels, "telegram", str(person.chat)) == []


def test_a_dari_twilio_sms_about_a_lost_child_fits_three_sms_with_the_number_first(
    twilio_stack: SmsStack,  # noqa: F811
) -> None:
    [first, *_] = twilio_stack.twilio("+93701555124", "طفلم پیش دروازه ابی گم شده کمک کنید")
    assert segments(first) <= 3
    first = _INVISIBLE.sub("", first)
    assert first.startswith(FAMILY_LINE), first
    assert SMS_URGENT["prs"] in first
