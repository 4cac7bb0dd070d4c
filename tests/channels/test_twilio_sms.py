"""Recorded Twilio webhooks posted to the real blueprint; replies caught by a fake Twilio API."""

from __future__ import annotations

import base64
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import urlencode

import aiohttp
import pytest
from rasa.shared.exceptions import RasaException
from twilio.request_validator import RequestValidator

from bot.channels.alerts import AlertNotDelivered
from bot.channels.identity import conversation_id
from bot.channels.twilio_sms import (
    EMPTY_TWIML,
    TwilioAlertOutput,
    TwilioSettings,
    TwilioSmsInput,
    concatenated_text,
    signature_valid,
    twilio_signature,
)
from kernel.contract import language_metadata
from kernel.lang.texts import CATALOGUE
from kernel.settings_values import SettingsError
from kernel.sms_segments import message_units, segment_count
from tests.channels.channel_support import (
    FakeBot,
    FakeProvider,
    fake_provider,
    fixture,
    fixture_text,
    serve_channel,
    without_person,
)

MORE_HINT = CATALOGUE.entry("sms.more_hint")
TEXT_ONLY = CATALOGUE.entry("channels.text_only")
NOTHING_MORE = CATALOGUE.entry("sms.nothing_more")

ACCOUNT_SID = "AC00000000000000000000000000000001"
AUTH_TOKEN = "test-auth-token-0123456789abcdef"
PUBLIC_BASE = "https://bot.example.org"
WEBHOOK_PATH = "/webhooks/twilio_sms/webhook"
SMS_FROM = "+15005550006"
WHATSAPP_FROM = "whatsapp:+14155238886"
LANGUAGE_BUTTONS = [
    {"title": "English", "payload": '/set_language{"language": "en"}'},
    {"title": "دری", "payload": '/set_language{"language": "prs"}'},
    {"title": "پښتو", "payload": '/set_language{"language": "ps"}'},
]


@dataclass
class Setup:
    base_url: str
    bot: FakeBot
    provider: FakeProvider
    channel: TwilioSmsInput

    async def post(
        self, fields: dict[str, str], signature: str | None = "sign", url: str | None = None
    ) -> tuple[int, str, str]:
        """POST form ``fields`` as Twilio would; "sign" signs them for the public URL."""
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if signature == "sign":
            signature = RequestValidator(AUTH_TOKEN).compute_signature(
                url or PUBLIC_BASE + WEBHOOK_PATH, fields
            )
        if signature is not None:
            headers["X-Twilio-Signature"] = signature
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                self.base_url + WEBHOOK_PATH, data=urlencode(fields).encode(), headers=headers
            ) as reply,
        ):
            return reply.status, reply.headers.get("Content-Type", ""), await reply.text()

    def sent(self) -> list[dict[str, str]]:
        return [request.form() for request in self.provider.requests]


def sms(body: str, sid: str = "SM00000000000000000000000000000002") -> dict[str, str]:
    fields = fixture("twilio_sms_inbound.json")
    fields.update(Body=body, MessageSid=sid, SmsMessageSid=sid, SmsSid=sid)
    return fields


@pytest.fixture
async def twilio() -> AsyncIterator[Setup]:
    async with fake_provider() as provider:
        settings = TwilioSettings(
            account_sid=ACCOUNT_SID,
            auth_token=AUTH_TOKEN,
            webhook_base_url=PUBLIC_BASE,
            sms_from=SMS_FROM,
            whatsapp_from=WHATSAPP_FROM,
            api_base_url=provider.url,
        )
        channel = TwilioSmsInput(settings)
        bot = FakeBot()
        async with serve_channel(channel, bot) as base_url:
            yield Setup(base_url, bot, provider, channel)


async def test_signed_sms_reaches_the_bot_under_a_hashed_sender_id(twilio: Setup) -> None:
    twilio.bot.respond = lambda message: [{"text": "Next flight: QR8010 to Doha at 14:30."}]
    fields = fixture("twilio_sms_inbound.json")

    status, content_type, body = await twilio.post(fields)

    assert (status, body) == (200, EMPTY_TWIML)
    assert content_type.startswith("text/xml")
    [message] = twilio.bot.messages
    assert message.text == "parwaz chi waqt ast"
    assert message.sender_id == conversation_id("twilio_sms", "+93700000001")
    assert "93700000001" not in message.sender_id
    assert message.input_channel == "twilio_sms"
    assert message.message_id == fields["MessageSid"]
    assert without_person(message.metadata) == {"transport": "sms"}
    [request] = twilio.provider.requests
    assert request.path == f"/2010-04-01/Accounts/{ACCOUNT_SID}/Messages.json"
    assert request.headers["Authorization"] == (
        "Basic " + base64.b64encode(f"{ACCOUNT_SID}:{AUTH_TOKEN}".encode()).decode()
    )
    assert request.form() == {
        "To": "+93700000001",
        "From": SMS_FROM,
        "Body": "Next flight: QR8010 to Doha at 14:30.",
    }


@pytest.mark.parametrize(
    "signature",
    [
        None,
        "",
        "0/KCTR6DLpKmkAf8muzZqo1nDgQ=",
        "not base64 at all",
    ],
    ids=["missing", "empty", "someone-elses", "garbage"],
)
async def test_forged_or_missing_signature_is_refused(twilio: Setup, signature: str | None) -> None:
    status, _, _ = await twilio.post(fixture("twilio_sms_inbound.json"), signature)

    assert status == 403
    assert twilio.bot.messages == []
    assert twilio.provider.requests == []


async def test_signature_of_changed_fields_is_refused(twilio: Setup) -> None:
    fields = fixture("twilio_sms_inbound.json")
    signature = RequestValidator(AUTH_TOKEN).compute_signature(PUBLIC_BASE + WEBHOOK_PATH, fields)

    status, _, _ = await twilio.post({**fields, "Body": "1"}, signature)

    assert status == 403
    assert twilio.bot.messages == []


async def test_signature_for_the_internal_url_is_refused(twilio: Setup) -> None:
    """Twilio signs the public URL; a request signed for another address was not Twilio's."""
    status, _, _ = await twilio.post(
        fixture("twilio_sms_inbound.json"), url=twilio.base_url + WEBHOOK_PATH
    )

    assert status == 403


async def test_empty_body_gets_a_polite_request_to_write(twilio: Setup) -> None:
    status, _, body = await twilio.post(fixture("twilio_mms_without_text.json"))

    assert (status, body) == (200, EMPTY_TWIML)
    assert twilio.bot.messages == []
    [sent] = twilio.sent()
    assert sent["To"] == "+93700000001"
    # Nothing is known about this conversation yet: the sentence comes in all three languages.
    assert sent["Body"] == "\n".join(TEXT_ONLY.values())
    assert segment_count(sent["Body"]) <= 3


async def test_empty_body_is_answered_in_the_conversations_language(twilio: Setup) -> None:
    twilio.bot.respond = lambda message: [
        {"text": "سلام! به کدام معلومات ضرورت دارید؟", "metadata": language_metadata("prs")}
    ]
    await twilio.post(sms("salam"))

    await twilio.post(sms("", sid="MM00000000000000000000000000000003"))

    assert twilio.sent()[-1]["Body"] == TEXT_ONLY["prs"]
    assert len(twilio.bot.messages) == 1


async def test_repeated_delivery_is_processed_once(twilio: Setup) -> None:
    twilio.bot.respond = lambda message: [{"text": "Kabul airport: Abbey Gate closed."}]
    fields = fixture("twilio_sms_inbound.json")

    first = await twilio.post(fields)
    second = await twilio.post(fields)

    assert first[0] == second[0] == 200
    assert second[2] == EMPTY_TWIML
    assert len(twilio.bot.messages) == 1
    assert len(twilio.provider.requests) == 1


async def test_delivery_status_callback_is_not_taken_for_a_message(twilio: Setup) -> None:
    fields = fixture("twilio_sms_inbound.json")
    fields.update(SmsStatus="delivered", MessageStatus="delivered", Body="")

    status, _, body = await twilio.post(fields)

    assert (status, body) == (200, EMPTY_TWIML)
    assert twilio.bot.messages == []
    assert twilio.provider.requests == []


#: A long Dari SMS as Twilio posts it when it hands a concatenated SMS over base64-encoded.
#: The fields are those of Twilio's "Twilio's request to your incoming message Webhook URL"
#: (https://www.twilio.com/docs/messaging/guides/webhook-request), which marks no encoding;
#: that Twilio base64-encodes some concatenated SMS, unmarked, and that such a body can end
#: inside a letter, is what courier's TwiML handler (github.com/nyaruka/courier,
#: handlers/twiml) decodes and tests. Body: the UTF-8 of LONG_DARI and the first byte of "ب".
BASE64_BODY_SMS = {
    **fixture("twilio_sms_inbound.json"),
    "NumSegments": "2",
    "Body": (
        "2LPZhNin2YXYjCDZhdinINm+2YbYrCDZhtmB2LEg2YfYs9iq24zZhSDZiCDZvtin2LPZvtmI2LHYquKAjNmH"
        "2KfbjCDZhdinINiv2LEg2K7Yp9mG2Ycg2YXYp9mG2K8uINii24zYpyDYqNinINiq2LDaqdix2Ycg2YfZhSDZ"
        "hduM4oCM2KrZiNin2YbbjNmFINio2Ycg2YXbjNiv2KfZhiDZh9mI2KfbjNuMINio2LHZiNuM2YXYn9g="
    ),
}
LONG_DARI = (
    "سلام، ما پنج نفر هستیم و پاسپورت‌های ما در خانه ماند. "
    "آیا با تذکره هم می‌توانیم به میدان هوایی برویم؟"
)


async def test_a_long_sms_twilio_base64_encoded_reaches_the_bot_as_written(twilio: Setup) -> None:
    twilio.bot.respond = lambda message: [{"text": "بلی، با تذکره."}]

    status, _, body = await twilio.post(BASE64_BODY_SMS)

    assert (status, body) == (200, EMPTY_TWIML)
    assert [message.text for message in twilio.bot.messages] == [LONG_DARI]


@pytest.mark.parametrize(
    "body",
    [
        LONG_DARI,
        "A" * 96,  # base64 of zero bytes: not text
        "SGVsbG8sIHdvcmxkIQ==",  # "Hello, world!": too short to be a concatenated SMS
        "RCH871RCH618GAF614QR8010" * 4,  # flight numbers without spaces: not UTF-8 as base64
        base64.b64encode(b"\x00\x01" * 48).decode(),  # control characters
    ],
    ids=["dari", "zeros", "short", "flights", "controls"],
)
def test_a_body_a_person_could_have_written_is_never_decoded(body: str) -> None:
    assert concatenated_text(body) == body


def test_an_english_base64_body_is_decoded_and_its_line_breaks_kept() -> None:
    text = "Hello, we are five people.\nOur passports stayed at home. Can we go with a tazkira?"
    encoded = base64.b64encode(text.encode()).decode()

    assert concatenated_text(encoded) == text
    assert concatenated_text(encoded[:76] + "\r\n" + encoded[76:]) == text  # MIME line breaks


@pytest.mark.parametrize(
    ("sender", "kind"),
    [("AWCC", "a sender name"), ("Etisalat", "a sender name"), ("8050", "a short code")],
)
async def test_an_sms_from_an_operators_sender_is_acknowledged_not_answered(
    twilio: Setup, caplog: pytest.LogCaptureFixture, sender: str, kind: str
) -> None:
    fields = fixture("twilio_sms_inbound.json")
    fields.update(From=sender, Body="Your balance is 12 AFN. Recharge now.")

    with caplog.at_level(logging.INFO):
        status, _, body = await twilio.post(fields)

    assert (status, body) == (200, EMPTY_TWIML)
    assert twilio.bot.messages == [] and twilio.provider.requests == []
    [line] = [
        r.getMessage() for r in caplog.records if "acknowledged, not answered" in r.getMessage()
    ]
    assert line == f"twilio_sms: an SMS from {kind} acknowledged, not answered"
    assert not any(sender in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize("missing", ["From", "MessageSid"])
async def test_signed_request_without_sender_or_id_is_malformed(
    twilio: Setup, missing: str
) -> None:
    fields = fixture("twilio_sms_inbound.json")
    del fields[missing]
    if missing == "MessageSid":
        del fields["SmsMessageSid"]

    status, _, _ = await twilio.post(fields)

    assert status == 400
    assert twilio.bot.messages == []


@pytest.mark.parametrize(("signature", "status"), [("some-signature", 400), (None, 403)])
async def test_undecodable_body_is_malformed_once_signed_and_forbidden_unsigned(
    twilio: Setup, signature: str | None, status: int
) -> None:
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if signature:
        headers["X-Twilio-Signature"] = signature
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            twilio.base_url + WEBHOOK_PATH, data=b"Body=\xff\xfe&From=x", headers=headers
        ) as reply,
    ):
        assert reply.status == status
    assert twilio.bot.messages == []


async def test_long_dari_reply_is_cut_to_three_segments_and_more_sends_the_rest(
    twilio: Setup,
) -> None:
    long_reply = fixture_text("long_reply_prs.txt")
    twilio.bot.respond = lambda message: [
        {"text": long_reply, "metadata": language_metadata("prs")}
    ]
    await twilio.post(sms("پرواز ها"))
    words = ["بیشتر", "MORE", "بيشتر"]  # the last typed on an Arabic keyboard (ي)
    for number in range(10):
        if not twilio.sent()[-1]["Body"].endswith(MORE_HINT["prs"]):
            break
        await twilio.post(sms(words[number % 3], sid=f"SM{number:032d}"))
    await twilio.post(sms("بیشتر", sid="SM" + "9" * 32))

    pages = [sent["Body"] for sent in twilio.sent()]
    assert len(twilio.bot.messages) == 1, "MORE is answered by the channel, not the bot"
    assert all(message_units(page) <= 201 and segment_count(page) <= 3 for page in pages)
    *cut, last, nothing_left = pages
    assert cut and all(page.endswith("\n" + MORE_HINT["prs"]) for page in cut)
    assert not last.endswith(MORE_HINT["prs"])
    shown = [line for page in cut for line in page.splitlines()[:-1]] + last.splitlines()
    assert shown == long_reply.splitlines(), "whole lines, in order, nothing lost"
    assert nothing_left == NOTHING_MORE["prs"]


async def test_number_after_a_language_question_sends_that_buttons_payload(
    twilio: Setup,
) -> None:
    twilio.bot.respond = lambda message: [
        {"text": "Which language should I answer in?", "buttons": LANGUAGE_BUTTONS}
    ]
    await twilio.post(sms("language"))
    twilio.bot.respond = lambda message: []

    await twilio.post(sms("2", sid="SM00000000000000000000000000000005"))

    assert twilio.sent()[0]["Body"] == (
        "Which language should I answer in?\n1 English\n2 دری\n3 پښتو"
    )
    assert twilio.bot.messages[-1].text == '/set_language{"language": "prs"}'


async def test_number_without_options_reaches_the_bot_as_typed(twilio: Setup) -> None:
    await twilio.post(sms("۲"))

    assert twilio.bot.messages[-1].text == "۲"


async def test_whatsapp_gets_plain_messages_from_the_whatsapp_sender(twilio: Setup) -> None:
    long_line = "QR8010 Doha 14:30 Abbey Gate. " * 70
    twilio.bot.respond = lambda message: [{"text": long_line}]

    status, _, _ = await twilio.post(fixture("twilio_whatsapp_inbound.json"))

    assert status == 200
    [message] = twilio.bot.messages
    assert message.text == "میدان هوایی باز است؟"
    assert message.sender_id == conversation_id("twilio_whatsapp", "+93700000002")
    assert without_person(message.metadata) == {"transport": "whatsapp"}
    sent = twilio.sent()
    assert len(sent) == 2
    assert all(s["To"] == "whatsapp:+93700000002" and s["From"] == WHATSAPP_FROM for s in sent)
    assert all(len(s["Body"]) <= 1600 for s in sent)
    assert " ".join(s["Body"] for s in sent).split() == long_line.split()


async def test_bot_failure_is_apologised_for_not_crashed_on(twilio: Setup) -> None:
    twilio.bot.fail = True

    status, _, body = await twilio.post(fixture("twilio_sms_inbound.json"))

    assert (status, body) == (200, EMPTY_TWIML)
    [sent] = twilio.sent()
    assert "Sorry, something went wrong" in sent["Body"]


async def test_provider_error_is_logged_without_the_number(
    twilio: Setup, caplog: pytest.LogCaptureFixture
) -> None:
    twilio.provider.status = 400
    twilio.provider.reply = {
        "code": 21211,
        "message": "The 'To' number +93700000001 is not a valid phone number.",
        "status": 400,
    }
    twilio.bot.respond = lambda message: [{"text": "Hello"}]
    caplog.set_level(logging.DEBUG, logger="bot.channels")

    status, _, _ = await twilio.post(fixture("twilio_sms_inbound.json"))

    assert status == 200
    assert "21211" in caplog.text
    assert "93700000001" not in caplog.text


def test_signature_matches_twilios_documented_example() -> None:
    params = {
        "CallSid": ["CA1234567890ABCDE"],
        "Caller": ["+12349013030"],
        "Digits": ["1234"],
        "From": ["+12349013030"],
        "To": ["+18005551212"],
    }
    url = "https://mycompany.com/myapp.php?foo=1&bar=2"

    assert twilio_signature("12345", url, params) == "0/KCTR6DLpKmkAf8muzZqo1nDgQ="
    assert signature_valid("12345", url, params, "0/KCTR6DLpKmkAf8muzZqo1nDgQ=")
    # Twilio sometimes signs with the default port in the URL.
    assert signature_valid(
        "12345",
        "https://mycompany.com:443/myapp.php?foo=1&bar=2",
        params,
        twilio_signature("12345", url, params),
    )
    assert not signature_valid("12346", url, params, "0/KCTR6DLpKmkAf8muzZqo1nDgQ=")


def test_settings_come_from_the_environment_and_name_what_is_missing() -> None:
    environ = {
        "TWILIO_ACCOUNT_SID": ACCOUNT_SID,
        "TWILIO_AUTH_TOKEN": AUTH_TOKEN,
        "TWILIO_WEBHOOK_BASE_URL": PUBLIC_BASE + "/",
        "TWILIO_FROM_NUMBER": SMS_FROM,
    }
    settings = TwilioSettings.load(None, environ)
    assert settings.webhook_base_url == PUBLIC_BASE
    assert settings.api_base_url == "https://api.twilio.com"
    assert settings.whatsapp_from is None

    with pytest.raises(SettingsError, match=r"TWILIO_AUTH_TOKEN.*TWILIO_WEBHOOK_BASE_URL"):
        TwilioSettings.load({}, {"TWILIO_ACCOUNT_SID": ACCOUNT_SID, "TWILIO_FROM_NUMBER": "x"})
    with pytest.raises(SettingsError, match="public address"):
        TwilioSettings.load({"webhook_base_url": "bot.example.org"}, environ)


def test_rasa_stops_with_the_settings_message(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_WEBHOOK_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(RasaException, match=r"TWILIO_ACCOUNT_SID.*TWILIO_WEBHOOK_BASE_URL"):
        TwilioSmsInput.from_credentials({"from_number": SMS_FROM})


async def test_health_check_and_alerts_only_with_an_address_book(twilio: Setup) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(twilio.base_url + "/webhooks/twilio_sms/") as reply,
    ):
        assert (reply.status, await reply.json()) == (200, {"status": "ok"})
    # A hashed conversation id cannot be turned back into a number to write to: alerts need
    # the address book (test_alerts.py), and without one they fail instead of vanishing.
    output = twilio.channel.get_output_channel()
    assert isinstance(output, TwilioAlertOutput) and output.name() == "twilio_sms"
    with pytest.raises(AlertNotDelivered, match="no address book configured"):
        await output.send_text_message(conversation_id("twilio_sms", "+93700000001"), "hi")
    assert twilio.provider.requests == []
