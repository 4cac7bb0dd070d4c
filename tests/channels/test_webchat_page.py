"""The web chat page as served: each reply with its language, the first screen from the domain,
the notice for browsers without JavaScript, and the table of page languages it is built from."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from rasa.shared.core.domain import Domain

from bot.channels.identity import conversation_id
from bot.channels.settings import WebchatSettings
from bot.channels.webchat import WebchatInput
from bot.channels.webchat_page import NO_WAY_IN_WARNING
from kernel.contract import DELETED_CONFIRMATION, language_metadata
from kernel.lang.codes import LANGUAGES
from kernel.lang.tags import PAGE_LANGUAGES
from scripts.stack import ROOT, WAYS_IN_ENV, demo_ways_in
from tests.channels.channel_support import FakeBot, Serve
from tests.channels.test_webchat import SENDER, get, post

ENGLISH_MENU = "What do you need? Reply with a number:\n1 Next flights"
#: The English menu names the languages in their own letters; it is still English.
MENU_EN = {"text": "1 Next flights\n6 Language / زبان / ژبه", "metadata": language_metadata("en")}


@dataclass
class BotWithDomain(FakeBot):
    """The stand-in for Rasa's agent, with the loaded model's domain (the real one)."""

    domain: Domain | None = field(default=None)


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Domain.load(str(ROOT / "bot" / "domain"))


async def test_each_reply_names_its_language_whatever_its_letters(serve: Serve) -> None:
    dari = {"text": "پروازها", "metadata": language_metadata("prs")}
    untagged = {"text": "Sorry"}
    bot = FakeBot(respond=lambda message: [MENU_EN, dari, untagged])
    url = await serve(WebchatInput(), bot)
    status, replies = await post(url, {"sender": SENDER, "message": "menu"})
    assert status == 200
    assert [reply.get("language") for reply in replies] == ["en", "prs", None]
    assert replies[0]["text"] == MENU_EN["text"]
    assert all("metadata" not in reply and "utter_action" not in reply for reply in replies)


async def test_the_deletion_confirmation_tells_the_page_to_forget_the_chat(serve: Serve) -> None:
    confirmation = {"text": "Deleted.", "utter_action": DELETED_CONFIRMATION}
    bot = FakeBot(respond=lambda message: [confirmation, {"text": "Hello again"}])
    url = await serve(WebchatInput(), bot)
    _, replies = await post(url, {"sender": SENDER, "message": "delete my data"})
    assert [reply.get("deleted") for reply in replies] == [True, None]


async def welcome(url: str, query: str = "") -> tuple[int, Any]:
    """What the page asks for its first screen: status and JSON."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{url}/welcome{query}") as answer,
    ):
        return answer.status, await answer.json()


@pytest.mark.parametrize(
    ("language", "greeting", "first_button"),
    [
        ("en", "Hello!", "1 Flights"),
        ("prs", "سلام! من به سوالات شما", "۱ پروازها"),
        ("ps", "سلام! زه ستاسو", "۱ الوتنې"),
    ],
)
async def test_the_first_screen_is_the_greeting_and_the_menu_in_the_pages_language(
    serve: Serve, domain: Domain, language: str, greeting: str, first_button: str
) -> None:
    bot = BotWithDomain(domain=domain)
    url = await serve(WebchatInput(), bot)
    status, shown = await welcome(url, f"?language={language}")
    assert status == 200
    [hello, menu] = shown
    assert hello["text"].startswith(greeting) and hello["language"] == language
    assert menu["language"] == language and menu["buttons"][0]["title"] == first_button
    assert bot.messages == []  # no turn: the conversation starts when the person writes


async def test_the_first_screen_of_an_unknown_language_is_english_and_waits_for_a_model(
    serve: Serve, domain: Domain
) -> None:
    url = await serve(WebchatInput(), BotWithDomain(domain=domain))
    _, shown = await welcome(url, "?language=xx")
    assert [message["language"] for message in shown] == ["en", "en"]
    url = await serve(WebchatInput(), BotWithDomain(domain=None))
    assert (await welcome(url))[0] == 503


def page_config(body: bytes) -> dict[str, Any]:
    found = re.search(rb'<script id="webchat-config" type="application/json">(.*?)</script>', body)
    assert found is not None
    config: dict[str, Any] = json.loads(found.group(1))
    return config


async def test_the_page_carries_every_languages_tag_direction_words_and_digits(
    serve: Serve,
) -> None:
    url = await serve(WebchatInput(), FakeBot())
    _, _, body = await get(f"{url}/")
    config = page_config(body)
    assert list(config["languages"]) == list(LANGUAGES)
    assert config["languages"]["prs"]["tag"] == "fa-AF"
    assert config["languages"]["ps"]["dir"] == "rtl"
    assert config["languages"]["ps"]["words"]["title"] == "د وېستلو معلومات"
    assert config["languages"]["prs"]["words"]["retry_in"].endswith("پس از {seconds} ثانیه.")
    assert config["languages"]["prs"]["digits"] == "۰۱۲۳۴۵۶۷۸۹"
    # A browser in fa-AF opens in Dari: widget.js reads the browser's language by this table.
    assert config["locales"] == {"en": "en", "fa": "prs", "prs": "prs", "ps": "ps"}
    for code, page in PAGE_LANGUAGES.items():
        assert f'data-lang="{code}" lang="{page.tag}" dir="{page.direction}"'.encode() in body


def no_script(body: bytes) -> str:
    found = re.search(rb"<noscript>(.*?)</noscript>", body, re.S)
    assert found is not None
    return found.group(1).decode()


async def test_without_javascript_the_notice_names_the_other_ways_in_every_language(
    serve: Serve,
) -> None:
    settings = WebchatSettings(sms_number="+93 700 000 000", telegram="@evacuee_info_bot")
    url = await serve(WebchatInput(settings=settings), FakeBot())
    _, _, body = await get(f"{url}/")
    notice = no_script(body)
    assert body.index(b"<noscript>") < body.index(b'<main class="chat">')  # at the top
    for tag in ("en", "fa-AF", "ps-AF"):
        assert f'<p lang="{tag}"' in notice
    assert notice.count('<bdi dir="ltr">+93 700 000 000</bdi>') == 3
    assert notice.count('<bdi dir="ltr">@evacuee_info_bot</bdi>') == 3
    assert "by SMS" in notice and "پیام کوتاه" in notice and "لنډ پیغام" in notice


async def test_without_settings_the_notice_names_no_way_it_does_not_have(serve: Serve) -> None:
    url = await serve(WebchatInput(settings=WebchatSettings()), FakeBot())
    notice = no_script((await get(f"{url}/"))[2])
    assert "needs JavaScript" in notice
    assert "SMS" not in notice and "Telegram" not in notice and "<bdi" not in notice


def without_ways_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """No SMS number, Telegram bot or help line in the environment, and no address key (the
    channel would then open the address book)."""
    for name in (*WAYS_IN_ENV, "ADDRESS_ENCRYPTION_KEY", "REDIS_HOST"):
        monkeypatch.delenv(name, raising=False)


async def test_make_runs_demo_names_its_day_and_night_line_without_javascript(
    serve: Serve, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """`make run` sets nothing of the operator's: the page still names a number to call, the
    demo content's ICRC line that answers day and night, in every language."""
    without_ways_in(monkeypatch)
    for name, value in demo_ways_in({}).items():
        monkeypatch.setenv(name, value)
    with caplog.at_level(logging.WARNING):
        channel = WebchatInput.from_credentials(None)
    assert NO_WAY_IN_WARNING not in caplog.messages
    url = await serve(channel, FakeBot())
    notice = no_script((await get(f"{url}/"))[2])
    assert notice.count('<bdi dir="ltr">+93 700 000 121 (ICRC)</bdi>') == 3
    assert "If you need help now, call" in notice
    assert "زنگ بزنید" in notice and "ته زنګ ووهئ" in notice


def test_the_demo_line_is_only_for_a_deployment_that_names_no_way_in() -> None:
    assert demo_ways_in({}) == {"EMERGENCY_HOTLINE": "+93 700 000 121 (ICRC)"}
    for name in WAYS_IN_ENV:
        assert demo_ways_in({name: "+93 799 000 111"}) == {}, name
    assert demo_ways_in({"EMERGENCY_HOTLINE": "  "}) != {}  # blank is unset


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        (None, None),
        ("WEBCHAT_SMS_NUMBER", "+93 700 000 000"),
        ("WEBCHAT_TELEGRAM", "@evacuee_info_bot"),
        ("EMERGENCY_HOTLINE", "+93 700 000 100"),
    ],
)
def test_a_page_without_any_other_way_in_is_logged_once_at_the_start(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    variable: str | None,
    value: str | None,
) -> None:
    """The operator hears of it when the chat starts, by the variables' names alone."""
    without_ways_in(monkeypatch)
    if variable and value:
        monkeypatch.setenv(variable, value)
    with caplog.at_level(logging.WARNING):
        WebchatInput.from_credentials(None)
    warned = [r for r in caplog.records if r.getMessage() == NO_WAY_IN_WARNING]
    assert len(warned) == (0 if variable else 1)
    assert all(r.levelno == logging.WARNING for r in warned)
    assert "JavaScript" in NO_WAY_IN_WARNING and "EMERGENCY_HOTLINE" in NO_WAY_IN_WARNING


def test_the_settings_take_the_twilio_number_and_refuse_a_bad_proxy() -> None:
    loaded = WebchatSettings.load({"TWILIO_FROM_NUMBER": "+1 555 0100"})
    assert (loaded.sms_number, loaded.telegram, loaded.trusted_proxies) == ("+1 555 0100", None, ())
    assert (
        WebchatSettings.load({"WEBCHAT_SMS_NUMBER": "+93 1", "TWILIO_FROM_NUMBER": "x"}).sms_number
        == "+93 1"
    )
    with pytest.raises(ValueError, match="WEBCHAT_TRUSTED_PROXIES has 'proxy'"):
        WebchatSettings.load({"WEBCHAT_TRUSTED_PROXIES": "10.0.0.1,proxy"})
    with pytest.raises(ValueError, match="WEBCHAT_MESSAGES_PER_MINUTE"):
        WebchatSettings.load({"WEBCHAT_MESSAGES_PER_MINUTE": "0"})


async def test_a_message_out_of_turn_keeps_its_language_in_the_mailbox() -> None:
    channel = WebchatInput()
    conversation = conversation_id("webchat", SENDER)
    reply = {"text": "ستاسو کارکوونکی: سبا راشئ", "metadata": language_metadata("ps")}
    await channel.get_output_channel().send_response(conversation, reply)
    [message] = await channel.mailbox.collect(conversation)
    assert (message["text"], message["language"]) == (reply["text"], "ps")


@pytest.mark.parametrize(("hint", "language"), [("prs", "prs"), (None, None)])
async def test_the_apology_names_its_language_when_it_is_in_one(
    serve: Serve, hint: str | None, language: str | None
) -> None:
    url = await serve(WebchatInput(), FakeBot(fail=True))
    body: dict[str, Any] = {"sender": SENDER, "message": "سلام"}
    if hint:
        body["metadata"] = {"language_hint": hint}
    status, replies = await post(url, body)
    assert status == 200
    assert [reply.get("language") for reply in replies] == [language] * len(replies)
    # Unknown language: the apology in all three, one bubble each, the browser lays them out.
    assert len(replies) == (1 if language else 3)


async def test_a_person_told_to_wait_is_given_the_wait_in_minutes_and_the_other_ways(
    serve: Serve,
) -> None:
    """What the page says to someone told to wait half an hour: the minutes in their language,
    and the SMS number and the help line meanwhile, the numbers kept left to right."""
    settings = WebchatSettings(sms_number="+93 700 000 000")
    channel = WebchatInput(settings=settings, hotline="+93 700 000 100")
    url = await serve(channel, FakeBot())
    _, _, body = await get(f"{url}/")
    languages = page_config(body)["languages"]
    dari = languages["prs"]
    assert dari["words"]["too_many_minutes"].startswith("همین حالا از این شبکه")
    assert "پس از {minutes} دقیقه" in dari["words"]["too_many_minutes"]
    assert "په {minutes} دقیقو کې" in languages["ps"]["words"]["too_many_minutes"]
    assert dari["ways"] == [
        ["همین سوال‌ها را با پیام کوتاه (SMS) بپرسید: ", "+93 700 000 000", ""],
        ["اگر همین حالا به کمک ضرورت دارید، به ", "+93 700 000 100", " زنگ بزنید."],
    ]
    assert [way[1] for way in languages["en"]["ways"]] == ["+93 700 000 000", "+93 700 000 100"]
    assert b'<script src="work.js"></script>' in body


async def test_without_an_sms_number_or_a_help_line_the_wait_names_none(serve: Serve) -> None:
    url = await serve(WebchatInput(settings=WebchatSettings()), FakeBot())
    languages = page_config((await get(f"{url}/"))[2])["languages"]
    assert all(language["ways"] == [] for language in languages.values())
