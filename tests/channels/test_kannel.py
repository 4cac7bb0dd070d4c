"""The Kannel channel: smsbox's get-url fields as Kannel sends them (recorded from Kannel 1.4.5
with fakesmsc), the sendsms requests it makes, the kannel.conf groups it prints, and the real
blueprint on a real server with a fake smsbox recording each sendsms GET. Reports recorded on
an alert's row: test_delivery_statuses.py."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from urllib.parse import parse_qs, quote_from_bytes, unquote_to_bytes

import aiohttp
import pytest
from aiohttp import web

from bot.channels import kannel
from bot.channels.identity import conversation_id
from bot.channels.kannel import (
    KannelInput,
    decode_text,
    delivery_report_url,
    parse_incoming,
    parse_posted,
    query_fields,
    sendsms_query,
)
from bot.channels.kannel_conf import conf_groups, receive_url
from bot.channels.settings import KannelSettings
from bot.channels.transport import BODY_LIMITS, MalformedRequest
from kernel.settings_values import SettingsError
from tests.channels.channel_support import FakeBot, serve_channel

SECRET = "kannel-secret-0123456789"
SETTINGS = KannelSettings(
    secret=SECRET,
    username="assistant",
    password="p&ss word",
    send_url="http://127.0.0.1:13013/cgi-bin/sendsms",
    sender="1234",
    webhook_base_url="http://bot.internal:5005",
)
#: "پرواز به ثابت" then "دو" on a second line, as smsbox sent it (%b of a UCS-2 SMS): the
#: spaces as "+", bytes 0x27 and 0x28 bare, 0x2B (the high byte of "ث") as %2B.
DARI_QUERY = (
    "secret=" + SECRET + "&from=%2B93700000002&to=1234"
    "&text=%06~%061%06H%06'%062%00+%06(%06G%00+%06%2B%06'%06(%06*%00%0A%06/%06H"
    "&coding=2&charset=UTF-16BE&id=3d9c1012-966e-4ea1-bcd5-32c8f16a8ff4"
)
ENGLISH_QUERY = (
    "secret=" + SECRET + "&from=%2B93700000001&to=1234&text=hello++world%2Bx%2541"
    "&coding=0&charset=UTF-8&id=ad6005fe-31ec-444a-86d3-1f86c49c5438"
)


def test_ucs2_text_is_read_from_its_utf16_bytes_with_kannels_url_encoding() -> None:
    message = parse_incoming(DARI_QUERY)

    assert message.text == "پرواز به ثابت\nدو"
    assert message.sender == "+93700000002"
    assert message.message_id == "3d9c1012-966e-4ea1-bcd5-32c8f16a8ff4"


def test_gsm_text_keeps_its_spaces_plus_signs_and_percent_signs() -> None:
    assert parse_incoming(ENGLISH_QUERY).text == "hello  world+x%41"


@pytest.mark.parametrize(
    ("raw", "coding", "charset", "text"),
    [
        ("سلام".encode("utf-16-be"), "2", "", "سلام"),  # no %C: the coding says UCS-2
        ("سلام".encode("utf-16-be"), "2", "UTF-16BE", "سلام"),
        ("caf\xe9".encode("cp1252"), "0", "WINDOWS-1252", "caf\xe9"),  # mo-recode
        (b"salam", "0", "", "salam"),
    ],
)
def test_text_is_decoded_by_charset_else_by_coding(
    raw: bytes, coding: str, charset: str, text: str
) -> None:
    assert decode_text(raw, coding, charset) == text


@pytest.mark.parametrize(
    ("query", "complaint"),
    [
        ("text=hi", "from"),
        ("from=%2B93700000001", "text"),
        ("from=%2B93700000001&text=%06&coding=2", "even"),
        ("from=%2B93700000001&text=hi&coding=7", "unknown coding"),
    ],
)
def test_unreadable_fields_say_what_to_fix(query: str, complaint: str) -> None:
    with pytest.raises(MalformedRequest, match=complaint):
        parse_incoming(query)


def test_dari_reply_goes_out_as_ucs2_bytes_and_english_as_utf8() -> None:
    dari = parse_qs(
        sendsms_query(SETTINGS, "+93700000002", "دروازهٔ ابی بسته است."), encoding="latin-1"
    )
    english = parse_qs(sendsms_query(SETTINGS, "+93700000002", "Abbey Gate is closed."))

    assert dari["coding"] == ["2"] and dari["charset"] == ["UTF-16BE"]
    assert dari["text"][0].encode("latin-1").decode("utf-16-be") == "دروازهٔ ابی بسته است."
    assert "coding" not in english and english["charset"] == ["UTF-8"]
    assert english["text"] == ["Abbey Gate is closed."]
    assert english["username"] == ["assistant"] and english["password"] == ["p&ss word"]
    assert english["to"] == ["+93700000002"] and english["from"] == ["1234"]


#: The id of one SMS as ``kannel.new_message_id`` makes it.
MESSAGE_ID = "kannel-" + "5e" * 16
#: What the delivered route reads from the dlr-url Kannel calls: the SMS's id, the report's type.
REPORT = re.compile(r"&id=(kannel-[0-9a-f]{32})&type=%d")


def test_each_sms_asks_for_its_delivery_report_by_its_id_without_the_number() -> None:
    report = delivery_report_url(SETTINGS, MESSAGE_ID)
    fields = parse_qs(sendsms_query(SETTINGS, "+93700000002", "hi", report))

    assert fields["dlr-mask"] == [str(kannel.DLR_MASK)]
    (url,) = fields["dlr-url"]
    assert url == (  # %d: Kannel fills in the report's type
        f"http://bot.internal:5005/webhooks/kannel/delivered?secret={SECRET}"
        f"&id={MESSAGE_ID}&type=%d"
    )
    assert "93700000002" not in url


def dlr_ids(smsbox: FakeSmsbox) -> list[str]:
    """The id in the dlr-url of each sendsms GET, in order."""
    ids = []
    for query in smsbox.queries:
        found = REPORT.search(query_fields(query)["dlr-url"].decode("ascii"))
        assert found is not None, "a sendsms GET without its id in its dlr-url"
        ids.append(found.group(1))
    return ids


def test_conf_prints_the_groups_kannel_needs_filled_from_the_settings() -> None:
    printed = conf_groups(SETTINGS)

    assert "group = sms-service" in printed and "group = sendsms-user" in printed
    assert f'get-url = "{receive_url(SETTINGS)}"' in printed
    assert receive_url(SETTINGS) == (
        "http://bot.internal:5005/webhooks/kannel/receive?secret="
        + SECRET
        + "&from=%p&to=%P&text=%b&coding=%c&charset=%C&id=%I"
    )
    assert "max-messages = 0" in printed  # the answer comes through sendsms, not the reply
    assert "max-messages = 3" in printed and "concatenation = true" in printed
    assert 'username = "assistant"' in printed and 'password = "p&ss word"' in printed
    assert 'default-sender = "1234"' in printed


def test_conf_command_reads_the_environment_and_names_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in {
        "KANNEL_SECRET": SECRET,
        "KANNEL_USERNAME": "assistant",
        "KANNEL_PASSWORD": "pw",
        "KANNEL_SEND_URL": "http://127.0.0.1:13013/cgi-bin/sendsms",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("KANNEL_FROM", raising=False)
    monkeypatch.delenv("KANNEL_WEBHOOK_BASE_URL", raising=False)

    assert kannel.main(["conf"]) == 0
    printed = capsys.readouterr().out
    assert "http://127.0.0.1:5005/webhooks/kannel/receive?secret=" + SECRET in printed
    assert "default-sender" not in printed

    monkeypatch.delenv("KANNEL_PASSWORD")
    assert kannel.main(["conf"]) == 2
    assert "KANNEL_PASSWORD" in capsys.readouterr().err


@pytest.mark.parametrize("secret", ["short", "has a space in it!!", "percent%dsecret-0123456"])
def test_a_secret_that_cannot_travel_in_kannels_urls_is_refused(secret: str) -> None:
    environ = {
        "KANNEL_SECRET": secret,
        "KANNEL_USERNAME": "u",
        "KANNEL_PASSWORD": "p",
        "KANNEL_SEND_URL": "http://127.0.0.1:13013/cgi-bin/sendsms",
    }
    with pytest.raises(SettingsError, match="KANNEL_SECRET"):
        KannelSettings.load(None, environ)


@dataclass
class FakeSmsbox:
    """smsbox's sendsms: records each GET's raw query, answers as Kannel does."""

    url: str = ""
    queries: list[str] = field(default_factory=list)
    status: int = 202

    async def handle(self, request: web.Request) -> web.Response:
        self.queries.append(request.query_string)
        return web.Response(text="0: Accepted for delivery", status=self.status)

    def texts(self) -> list[str]:
        sent = []
        for query in self.queries:
            fields = query_fields(query)
            codec = "utf-16-be" if fields.get("coding") == b"2" else "utf-8"
            sent.append(fields["text"].decode(codec))
        return sent


@dataclass
class Setup:
    base_url: str
    bot: FakeBot
    smsbox: FakeSmsbox

    async def post(self, query: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        """What smsbox does with a ``post-url``: the text as the body."""
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                f"{self.base_url}/webhooks/kannel/receive?{query}", data=body, headers=headers
            ) as reply,
        ):
            return reply.status, await reply.text()

    async def get(self, path: str, query: str) -> tuple[int, str]:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{self.base_url}/webhooks/kannel/{path}?{query}") as reply,
        ):
            return reply.status, await reply.text()


@pytest.fixture
async def channel() -> AsyncIterator[Setup]:
    smsbox = FakeSmsbox()
    app = web.Application()
    app.router.add_get("/cgi-bin/sendsms", smsbox.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    settings = KannelSettings(
        secret=SECRET,
        username="assistant",
        password="pw",
        send_url=f"http://{host}:{port}/cgi-bin/sendsms",
        sender="1234",
    )
    bot = FakeBot()
    try:
        async with serve_channel(KannelInput(settings), bot) as base_url:
            yield Setup(base_url, bot, smsbox)
    finally:
        await runner.cleanup()


async def test_a_dari_sms_reaches_the_bot_and_the_reply_goes_out_through_sendsms(
    channel: Setup,
) -> None:
    channel.bot.respond = lambda message: [{"text": "دروازهٔ ابی بسته است."}]

    status, body = await channel.get("receive", DARI_QUERY)

    assert (status, body) == (200, "")  # smsbox sends nothing itself
    [message] = channel.bot.messages
    assert message.text == "پرواز به ثابت\nدو"
    assert message.sender_id == conversation_id("kannel", "+93700000002")
    assert message.input_channel == "kannel"
    assert channel.smsbox.texts() == ["دروازهٔ ابی بسته است."]
    fields = query_fields(channel.smsbox.queries[0])
    assert fields["to"] == b"+93700000002" and fields["coding"] == b"2"
    assert unquote_to_bytes(quote_from_bytes(fields["text"])) == fields["text"]


async def test_the_same_kannel_message_id_is_answered_once(channel: Setup) -> None:
    channel.bot.respond = lambda message: [{"text": "Hello."}]

    for _ in range(2):
        assert (await channel.get("receive", ENGLISH_QUERY))[0] == 200

    assert len(channel.bot.messages) == 1
    assert channel.smsbox.texts() == ["Hello."]


@pytest.mark.parametrize("secret", ["", "wrong", SECRET + "x", SECRET[:-1]])
async def test_a_wrong_or_missing_secret_is_refused_before_anything_runs(
    channel: Setup, secret: str
) -> None:
    query = ENGLISH_QUERY.replace("secret=" + SECRET, f"secret={secret}")

    assert (await channel.get("receive", query))[0] == 403
    assert (await channel.get("delivered", f"secret={secret}&id={MESSAGE_ID}&type=1"))[0] == 403
    assert channel.bot.messages == [] and channel.smsbox.queries == []


async def test_a_refused_sendsms_is_logged_without_the_number_and_not_run_again(
    channel: Setup, caplog: pytest.LogCaptureFixture
) -> None:
    channel.smsbox.status = 403
    channel.bot.respond = lambda message: [{"text": "Hello."}]

    with caplog.at_level(logging.WARNING):
        status, _ = await channel.get("receive", ENGLISH_QUERY)

    # The turn ran: running it again on smsbox's retry would repeat it (turns.take_turn).
    assert status == 200 and len(channel.bot.messages) == 1
    assert "kannel sendsms failed: HTTP 403 Kannel refused" in caplog.text
    assert "93700000001" not in caplog.text and "pw" not in caplog.text


async def test_each_sms_sent_carries_its_own_id_in_its_dlr_url(channel: Setup) -> None:
    channel.bot.respond = lambda message: [{"text": "Hello."}]

    for query in (ENGLISH_QUERY, DARI_QUERY):
        assert (await channel.get("receive", query))[0] == 200

    ids = dlr_ids(channel.smsbox)
    assert len(ids) == 2 and len(set(ids)) == 2


@pytest.mark.parametrize(
    ("query", "complaint"),
    [
        ("type=1", "id must be"),
        ("id=kannel-abc&type=1", "id must be"),  # not an id we give
        (f"id={MESSAGE_ID}", "type must be"),
        (f"id={MESSAGE_ID}&type=3", "type must be"),
    ],
)
async def test_a_report_our_dlr_url_did_not_ask_for_says_what_to_fix(
    channel: Setup, query: str, complaint: str
) -> None:
    status, body = await channel.get("delivered", f"secret={SECRET}&{query}")

    assert status == 400 and complaint in body


async def test_a_report_without_an_address_book_is_acknowledged(channel: Setup) -> None:
    """Without an address book the channel sends no alerts: a reply's report changes nothing."""
    assert await channel.get("delivered", f"secret={SECRET}&id={MESSAGE_ID}&type=1") == (200, "")


@pytest.mark.parametrize(
    ("sender", "kind"),
    [("MTN", "a sender name"), ("AWCC", "a sender name"), ("222", "a short code")],
)
async def test_an_sms_from_an_operators_sender_is_acknowledged_not_answered(
    channel: Setup, caplog: pytest.LogCaptureFixture, sender: str, kind: str
) -> None:
    query = ENGLISH_QUERY.replace("from=%2B93700000001", f"from={sender}")

    with caplog.at_level(logging.INFO):
        assert await channel.get("receive", query) == (200, "")

    assert channel.bot.messages == [] and channel.smsbox.queries == []
    assert f"kannel: an SMS from {kind} acknowledged, not answered" in caplog.text
    assert not any(sender in record.getMessage() for record in caplog.records)


async def test_a_request_above_kannels_body_limit_is_refused(channel: Setup) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            f"{channel.base_url}/webhooks/kannel/receive?{ENGLISH_QUERY}",
            data=b"x" * (BODY_LIMITS["kannel"] + 1),
        ) as reply,
    ):
        assert reply.status == 413
    assert channel.bot.messages == []


#: The headers smsbox sends with a post-url (Kannel's user guide, "Kannel POST"): UCS-2 text
#: as UTF-16BE with its charset in Content-Type, the coding, the sender with send-sender.
POSTED_UCS2 = {
    "Content-Type": "text/plain; charset=UTF-16BE",
    "X-Kannel-From": "+93700000003",
    "X-Kannel-To": "1234",
    "X-Kannel-Coding": "2",
    "X-Kannel-Service": "default",
}
POSTED_QUERY = "secret=" + SECRET + "&from=%2B93700000003&to=1234&id=7e1c2f0a-posted"


def test_a_posted_sms_is_read_from_its_body_by_the_content_types_charset() -> None:
    text = "دروازهٔ ابی باز است؟"
    message = parse_posted(
        POSTED_QUERY, {k.lower(): v for k, v in POSTED_UCS2.items()}, text.encode("utf-16-be")
    )
    assert (message.sender, message.text, message.message_id) == (
        "+93700000003",
        text,
        "7e1c2f0a-posted",
    )
    gsm = parse_posted(
        "secret=x&from=%2B93700000004&id=1", {"content-type": "text/plain"}, b"when are flights"
    )
    assert (gsm.sender, gsm.text) == ("+93700000004", "when are flights")


@pytest.mark.parametrize(
    ("headers", "body", "complaint"),
    [
        ({"content-type": "text/plain"}, b"hi", "sender"),  # no X-Kannel-From, no from
        ({"content-type": "text/plain; charset=UTF-16BE", "x-kannel-from": "+1"}, b"abc", "even"),
        ({"content-type": "text/plain; charset=klingon", "x-kannel-from": "+1",
          "x-kannel-coding": "7"}, b"hi", "unknown coding"),
    ],
)  # fmt: skip
def test_an_unreadable_post_says_what_to_fix(
    headers: dict[str, str], body: bytes, complaint: str
) -> None:
    with pytest.raises(MalformedRequest, match=complaint):
        parse_posted("secret=x", headers, body)


def test_conf_post_prints_a_post_url_without_the_text_in_it() -> None:
    printed = conf_groups(SETTINGS, post=True)

    assert f'post-url = "{receive_url(SETTINGS, post=True)}"' in printed
    assert "send-sender = true" in printed and "get-url" not in printed
    assert receive_url(SETTINGS, post=True).endswith("&from=%p&to=%P&id=%I")
    assert "%b" not in printed


async def test_a_posted_pashto_sms_is_answered_through_sendsms_once(channel: Setup) -> None:
    channel.bot.respond = lambda message: [{"text": "ابي دروازه تړلې ده."}]
    text = "ابي دروازه خلاصه ده؟"

    for _ in range(2):  # smsbox's retry of the same id
        status, body = await channel.post(POSTED_QUERY, text.encode("utf-16-be"), POSTED_UCS2)
        assert (status, body) == (200, "")

    [message] = channel.bot.messages
    assert message.text == text
    assert message.sender_id == conversation_id("kannel", "+93700000003")
    assert channel.smsbox.texts() == ["ابي دروازه تړلې ده."]


async def test_a_post_without_the_secret_or_unreadable_is_refused_and_not_answered(
    channel: Setup,
) -> None:
    body = "سلام".encode("utf-16-be")
    forged = POSTED_QUERY.replace(SECRET, "wrong")
    assert (await channel.post(forged, body, POSTED_UCS2))[0] == 403
    odd = {**POSTED_UCS2, "Content-Type": "text/plain; charset=UTF-16BE"}
    assert (await channel.post(POSTED_QUERY, b"abc", odd))[0] == 400
    assert channel.bot.messages == [] and channel.smsbox.queries == []
