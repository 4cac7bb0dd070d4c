"""Recorded gateway requests posted to the real blueprint; replies caught by a fake gateway."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest
from rasa.shared.exceptions import RasaException

from bot.channels import sms_gateway
from bot.channels.identity import conversation_id
from bot.channels.sms_gateway import GatewaySettings, SmsGatewayInput
from kernel.contract import language_metadata
from kernel.lang.texts import CATALOGUE
from kernel.settings_values import SettingsError
from kernel.sms_segments import message_units, segment_count
from tests.channels.channel_support import (
    FakeBot,
    FakeProvider,
    fake_provider,
    fixture,
    replying,
    serve_channel,
    without_person,
)

MORE_HINT = CATALOGUE.entry("sms.more_hint")
TEXT_ONLY = CATALOGUE.entry("channels.text_only")

SECRET = "gateway-shared-secret-0123456789"
WEBHOOK_PATH = "/webhooks/sms_gateway/webhook"
MENU_BUTTONS = [
    {"title": "1 Flights", "payload": "/ask_flights"},
    {"title": "2 Airport", "payload": "/ask_airport_status"},
]


@dataclass
class Setup:
    base_url: str
    bot: FakeBot
    provider: FakeProvider

    async def post(
        self,
        body: bytes | dict[str, Any],
        *,
        secret: str | None = SECRET,
        content_type: str = "application/json",
    ) -> tuple[int, Any]:
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        headers = {"Content-Type": content_type}
        if secret is not None:
            headers["X-Gateway-Secret"] = secret
        async with (
            aiohttp.ClientSession() as session,
            session.post(self.base_url + WEBHOOK_PATH, data=data, headers=headers) as reply,
        ):
            return reply.status, await reply.json()

    async def say(self, text: str, message_id: str) -> None:
        status, _ = await self.post({"from": "+93700000003", "text": text, "id": message_id})
        assert status == 200

    def sent_texts(self) -> list[str]:
        return [request.json()["text"] for request in self.provider.requests]


@pytest.fixture
async def gateway() -> AsyncIterator[Setup]:
    async with fake_provider() as provider:
        provider.status, provider.reply = 200, {"queued": True}
        settings = GatewaySettings(secret=SECRET, send_url=provider.url + "/send")
        bot = FakeBot()
        async with serve_channel(SmsGatewayInput(settings), bot) as base_url:
            yield Setup(base_url, bot, provider)


async def test_json_sms_reaches_the_bot_and_the_reply_goes_to_the_gateway(
    gateway: Setup,
) -> None:
    gateway.bot.respond = lambda message: [{"text": "Abbey Gate is closed."}]

    status, answer = await gateway.post(fixture("sms_gateway_inbound.json"))

    assert (status, answer) == (200, {"status": "ok"})
    [message] = gateway.bot.messages
    assert message.text == "alwatka kala da"
    assert message.sender_id == conversation_id("sms_gateway", "+93700000003")
    assert "93700000003" not in message.sender_id
    assert message.input_channel == "sms_gateway"
    assert without_person(message.metadata) == {"transport": "sms"}
    [request] = gateway.provider.requests
    assert request.path == "/send"
    assert request.headers["X-Gateway-Secret"] == SECRET
    assert request.headers["Content-Type"].startswith("application/json")
    assert request.json() == {"to": "+93700000003", "text": "Abbey Gate is closed."}


async def test_form_fields_are_accepted_and_spacing_of_the_number_does_not_matter(
    gateway: Setup,
) -> None:
    form = urlencode({"from": "+93 700 000 003", "text": "salam", "id": "k-1"}).encode()

    status, _ = await gateway.post(form, content_type="application/x-www-form-urlencoded")

    assert status == 200
    assert gateway.bot.messages[0].sender_id == conversation_id("sms_gateway", "+93700000003")


@pytest.mark.parametrize("secret", [None, "", "wrong", SECRET + "x"])
async def test_wrong_or_missing_secret_is_refused(gateway: Setup, secret: str | None) -> None:
    status, answer = await gateway.post(fixture("sms_gateway_inbound.json"), secret=secret)

    assert status == 403
    assert "X-Gateway-Secret" in answer["error"]
    assert gateway.bot.messages == []
    assert gateway.provider.requests == []


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        (b"{not json", "JSON"),
        (b'["+93700000003", "hi"]', "JSON object"),
        (b'{"text": "hi"}', '"from"'),
        (b'{"from": "", "text": "hi"}', '"from"'),
        (b'{"from": "+93700000003"}', '"text"'),
        (b'{"from": "+93700000003", "text": 5}', '"text"'),
        (b'{"from": "+93700000003", "text": "hi", "id": [1]}', '"id"'),
    ],
)
async def test_malformed_request_is_400_and_says_what_to_fix(
    gateway: Setup, body: bytes, complaint: str
) -> None:
    status, answer = await gateway.post(body)

    assert status == 400
    assert complaint in answer["error"]
    assert gateway.bot.messages == []


async def test_repeated_id_is_processed_once(gateway: Setup) -> None:
    gateway.bot.respond = lambda message: [{"text": "Hello"}]
    payload = fixture("sms_gateway_inbound.json")

    first = await gateway.post(payload)
    second = await gateway.post(payload)

    assert first == (200, {"status": "ok"})
    assert second == (200, {"status": "duplicate"})
    assert len(gateway.bot.messages) == 1
    assert len(gateway.provider.requests) == 1


async def test_without_an_id_the_same_text_just_now_is_a_retry(
    gateway: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sms_gateway, "REPEAT_WINDOW_SECONDS", 0.5)
    gateway.bot.respond = lambda message: [{"text": "Abbey Gate is closed."}]
    sms = {"from": "+93700000003", "text": "Abbey Gate?"}

    assert await gateway.post(sms) == (200, {"status": "ok"})
    assert await gateway.post(sms) == (200, {"status": "duplicate"})
    assert await gateway.post({**sms, "text": "Baron hotel?"}) == (200, {"status": "ok"})
    await asyncio.sleep(0.6)
    assert await gateway.post(sms) == (200, {"status": "ok"})  # later: the person asks again

    assert [m.text for m in gateway.bot.messages] == ["Abbey Gate?", "Baron hotel?", "Abbey Gate?"]
    assert len(gateway.provider.requests) == 3


async def test_empty_text_gets_a_polite_request_to_write(gateway: Setup) -> None:
    status, _ = await gateway.post({"from": "+93700000003", "text": "  ", "id": "e-1"})

    assert status == 200
    assert gateway.bot.messages == []
    assert gateway.sent_texts() == ["\n".join(TEXT_ONLY.values())]


async def test_replies_of_one_turn_share_an_sms_only_when_they_fit_in_it(
    gateway: Setup,
) -> None:
    long = "x" * 450  # with "First." 457 of the 459 GSM-7 characters of three segments
    gateway.bot.respond = lambda message: [{"text": "First."}, {"text": long}, {"text": "Last."}]

    await gateway.say("salam", "r-1")

    assert gateway.sent_texts() == ["First.\n" + long, "Last."]


async def test_long_pashto_reply_is_cut_and_nor_sends_the_rest(gateway: Setup) -> None:
    lines = [f"د {n} الوتنه: کابل نه دوحې ته، د ختیځې دروازې له لارې." for n in range(1, 9)]
    gateway.bot.respond = lambda message: [
        {"text": "\n".join(lines), "metadata": language_metadata("ps")}
    ]
    await gateway.say("الوتنې", "p-1")

    await gateway.say("نور", "p-2")

    first, second = gateway.sent_texts()
    assert message_units(first) <= 201
    assert segment_count(first) <= 3
    assert first.endswith("\n" + MORE_HINT["ps"])
    assert second.splitlines()[0] == lines[len(first.splitlines()) - 1]
    assert len(gateway.bot.messages) == 1


async def test_a_dari_flight_list_of_latin_numbers_gets_the_dari_more_hint(gateway: Setup) -> None:
    # Mostly flight numbers, destinations and times: its letters would say English; Rasa's
    # tag says Dari, the conversation's language.
    lines = [f"QR80{n:02d} Doha 14:{n:02d} Boarding, East Gate" for n in range(1, 12)]
    reply = {"text": "\n".join(["پروازها:", *lines]), "metadata": language_metadata("prs")}
    gateway.bot.respond = lambda message: [reply]

    await gateway.say("پروازها", "d-1")

    [first] = gateway.sent_texts()
    assert first.endswith("\n" + MORE_HINT["prs"])


async def test_number_picks_the_buttons_payload_and_keeps_the_menus_numbering(
    gateway: Setup,
) -> None:
    menu = "What do you need? Reply with a number:\n1 Next flights\n2 Airport and gates"
    gateway.bot.respond = lambda message: [{"text": menu, "buttons": MENU_BUTTONS}]
    await gateway.say("menu", "m-1")
    gateway.bot.respond = lambda message: [{"text": "Airport: open."}]

    await gateway.say("2", "m-2")
    await gateway.say("2", "m-3")

    assert gateway.sent_texts() == [menu, "Airport: open.", "Airport: open."]
    assert [m.text for m in gateway.bot.messages] == ["menu", "/ask_airport_status", "2"]


def test_settings_need_secret_and_send_url(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SettingsError, match="SMS_GATEWAY_SECRET, SMS_GATEWAY_SEND_URL"):
        GatewaySettings.load(None, {})
    for name in ("SMS_GATEWAY_SECRET", "SMS_GATEWAY_SEND_URL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(RasaException, match="SMS_GATEWAY_SECRET, SMS_GATEWAY_SEND_URL"):
        SmsGatewayInput.from_credentials(None)
    settings = GatewaySettings.load(
        {"send_url": "http://127.0.0.1:8080/send"}, {"SMS_GATEWAY_SECRET": SECRET}
    )
    assert settings == GatewaySettings(SECRET, "http://127.0.0.1:8080/send")


def test_the_hotline_is_read_once_when_the_channel_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EMERGENCY_HOTLINE", " +93 700\n000 100 ")
    channel = SmsGatewayInput.from_credentials({"secret": SECRET, "send_url": "http://gw/send"})
    monkeypatch.delenv("EMERGENCY_HOTLINE")
    assert isinstance(channel, SmsGatewayInput) and channel.hotline == "+93 700 000 100"


async def test_the_send_url_is_posted_to_exactly_as_configured() -> None:
    async with fake_provider() as provider:
        provider.status, provider.reply = 200, {"queued": True}
        send_url = provider.url + "/api/send/?account=kabul"
        bot = replying([{"text": "Abbey Gate is closed."}])
        channel = SmsGatewayInput(GatewaySettings(secret=SECRET, send_url=send_url))
        async with serve_channel(channel, bot) as base_url, aiohttp.ClientSession() as session:
            url = base_url + "/webhooks/sms_gateway/webhook"
            body = {"from": "+93700000003", "text": "gate", "id": "m-9"}
            async with session.post(url, json=body, headers={"X-Gateway-Secret": SECRET}) as r:
                assert r.status == 200
        [sent] = provider.requests
        assert sent.path == "/api/send/" and sent.headers["X-Gateway-Secret"] == SECRET
        assert sent.json() == {"to": "+93700000003", "text": "Abbey Gate is closed."}


SHORT_ANSWER = {
    "text": "Abbey Gate: closed.\nchecked 40 min ago, US Embassy Kabul",
    "buttons": [{"title": "2 All gates", "payload": "/ask_airport_status"}],
    "utter_action": "utter_gate_status",
    "metadata": language_metadata("en"),
}
NOTICE = {
    "text": 'For your safety: write "safety" to learn how to delete these messages.',
    "utter_action": "utter_safety_offer",
    "metadata": language_metadata("en"),
}


async def test_a_new_persons_notice_is_folded_into_an_answer_that_leaves_room(
    gateway: Setup,
) -> None:
    gateway.bot.respond = lambda message: [SHORT_ANSWER, NOTICE]

    await gateway.say("is abbey gate open", "fold-1")

    [sms] = gateway.sent_texts()
    assert sms == (
        "Abbey Gate: closed.\nchecked 40 min ago, US Embassy Kabul\n"
        'For your safety: write "safety" to learn how to delete these messages.\n'
        "2 All gates"
    )
    assert segment_count(sms) == 1
    # The option still answers a bare number.
    await gateway.say("2", "fold-2")
    assert gateway.bot.messages[-1].text == "/ask_airport_status"


FULL_ANSWERS = {
    # Three UCS-2 segments already (189 and 194 characters): no room for the notice after them.
    "prs": (
        "پروازها برای دوحه (وقت کابل):\n"
        "RCH871 امروز ۳:۵۸ شب، مسافرها سوار می‌شوند\n"
        "تایید ۳ ساعت پیش، سفارت امریکا در کابل\n"
        "فقط وقتی بروید که خبرتان کنند.\n"
        "بعداً: QR8010، RCH618"
    ),
    "ps": (
        "د دوحه الوتنې (د کابل وخت):\n"
        "RCH871 نن د شپې ۳:۵۸ بجې، مسافر سپرېږي\n"
        "تایید ۳ ساعته مخکې، په کابل کې د امریکا سفارت\n"
        "یوازې چې ووايي، ولاړ شئ.\n"
        "وروسته: QR8010، RCH618"
    ),
}
SMS_NOTICES = {
    "prs": "پاک کردن پیام‌ها: «امنیت» بنویسید.",
    "ps": "د پیغامونو پاکول: «خوندیتوب» ولېږئ.",
}
DETAILS = {"prs": "۱ جزئیات RCH871", "ps": "۱ د RCH871 جزئیات"}


@pytest.mark.parametrize("language", ["prs", "ps"])
async def test_after_a_full_answer_every_flight_stays_and_the_notice_comes_alone(
    gateway: Setup, language: str
) -> None:
    answer = {
        "text": FULL_ANSWERS[language],
        "buttons": [{"title": DETAILS[language], "payload": "/ask_flights"}],
        "metadata": language_metadata(language),
    }
    notice = {
        "text": SMS_NOTICES[language],
        "utter_action": "utter_safety_offer",
        "metadata": language_metadata(language),
    }
    assert segment_count(f"{answer['text']}\n{DETAILS[language]}\n{notice['text']}") == 4
    gateway.bot.respond = lambda message: [answer, notice]

    await gateway.say("doha", f"full-{language}")

    # The later flights' numbers are never dropped to make room: a reader would take QR8010
    # for no flight at all. The notice is a one-segment SMS of its own.
    [sms, alone] = gateway.sent_texts()
    assert segment_count(sms) <= 3 and "QR8010" in sms and "RCH618" in sms, sms
    assert sms.splitlines() == [*FULL_ANSWERS[language].splitlines(), DETAILS[language]]
    assert alone == SMS_NOTICES[language] and segment_count(alone) == 1
    await gateway.say("1", f"one-{language}")
    assert gateway.bot.messages[-1].text == "/ask_flights"


async def test_a_full_answer_ending_with_its_check_line_keeps_it_and_the_notice_comes_alone(
    gateway: Setup,
) -> None:
    lines = FULL_ANSWERS["prs"].splitlines()
    ends_with_check = "\n".join([lines[0], lines[1], lines[3], lines[3], lines[2]])
    answer = {"text": ends_with_check, "metadata": language_metadata("prs")}
    notice = {
        "text": SMS_NOTICES["prs"],
        "utter_action": "utter_safety_offer",
        "metadata": language_metadata("prs"),
    }
    gateway.bot.respond = lambda message: [answer, notice]

    await gateway.say("doha", "check-last")

    assert gateway.sent_texts() == [ends_with_check, SMS_NOTICES["prs"]]


async def test_a_notice_too_long_for_one_segment_is_not_squeezed_into_the_answer(
    gateway: Setup,
) -> None:
    full = "دروازهٔ ابی: بسته. " * 10  # 190 UCS-2 characters: three segments with nothing spare
    answer = {"text": full.strip(), "metadata": language_metadata("prs")}
    long_reply = {
        "text": "برای امنیت شما: " * 5,
        "utter_action": "utter_safety_offer",
        "metadata": language_metadata("prs"),
    }
    gateway.bot.respond = lambda message: [answer, long_reply]

    await gateway.say("دروازه ابی", "fold-3")

    sent = gateway.sent_texts()
    assert sent == [full.strip(), long_reply["text"].strip()]
    assert [segment_count(text) for text in sent] == [3, 2]


async def test_a_greeting_and_the_menu_fold_but_two_replies_with_options_do_not(
    gateway: Setup,
) -> None:
    greeting = {"text": "Hello!", "metadata": language_metadata("en")}
    menu = {"text": "Reply with a number:", "buttons": MENU_BUTTONS}
    menu["metadata"] = language_metadata("en")
    gateway.bot.respond = lambda message: [greeting, menu, SHORT_ANSWER]

    await gateway.say("hi", "fold-4")

    assert gateway.sent_texts() == [
        "Hello!\nReply with a number:\n1 Flights\n2 Airport",
        "Abbey Gate: closed.\nchecked 40 min ago, US Embassy Kabul\n2 All gates",
    ]


@pytest.mark.parametrize(
    ("sender", "kind"),
    [("Roshan", "a sender name"), ("SALAAM", "a sender name"), ("333", "a short code")],
)
async def test_an_sms_from_an_operators_sender_is_acknowledged_not_answered(
    gateway: Setup, caplog: pytest.LogCaptureFixture, sender: str, kind: str
) -> None:
    message = {"from": sender, "text": "1 GB for 50 AFN, reply YES", "id": "op-1"}

    with caplog.at_level(logging.INFO):
        assert await gateway.post(message) == (200, {"status": "ok"})

    assert gateway.bot.messages == [] and gateway.provider.requests == []
    assert f"sms_gateway: an SMS from {kind} acknowledged, not answered" in caplog.text
    assert not any(sender in record.getMessage() for record in caplog.records)
