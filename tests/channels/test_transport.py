"""Message splitting and the channel-level sentences shared by Telegram and WhatsApp."""

from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from bot.channels.transport import ProviderApi, ProviderFailure
from kernel.contract import reply_language
from kernel.lang.texts import CATALOGUE
from kernel.notices import text_only
from kernel.sms_segments import split_message

CHOOSE = CATALOGUE.entry("channels.choose")
TEXT_ONLY = CATALOGUE.entry("channels.text_only")


def test_short_text_is_one_piece() -> None:
    assert split_message("  Flights today  ", 4096) == ["Flights today"]
    assert split_message("", 4096) == []


def test_paragraphs_are_preferred_over_lines_and_lines_over_words() -> None:
    assert split_message("aaaa\nbb\n\ncc", 8) == ["aaaa\nbb", "cc"]
    assert split_message("aaaa\nbbbbb cc", 8) == ["aaaa", "bbbbb cc"]
    assert split_message("aaa bbb ccc", 8) == ["aaa bbb", "ccc"]


def test_a_word_longer_than_the_limit_is_cut() -> None:
    assert split_message("x" * 10, 4) == ["xxxx", "xxxx", "xx"]


def test_emoji_count_twice_as_the_providers_count_them() -> None:
    assert split_message("✈️🛫🛫", 3) == ["✈️", "🛫", "🛫"]  # ✈ + variation selector = 2 units


@pytest.mark.parametrize("limit", [20, 100, 1024])
def test_nothing_is_lost(limit: int) -> None:
    text = "\n".join(f"QR{n} Kabul → Doha 14:30" for n in range(100))
    pieces = split_message(text, limit)
    assert all(len(piece) <= limit for piece in pieces)
    assert "\n".join(pieces).split() == text.split()


def test_sentences_exist_in_every_language() -> None:
    for sentences in (TEXT_ONLY, CHOOSE):
        assert set(sentences) == {"en", "prs", "ps"}
    assert all(len(label) <= 20 for label in CHOOSE.values())  # WhatsApp's limit
    assert text_only("ps") == TEXT_ONLY["ps"]
    assert text_only(None).split("\n\n") == [TEXT_ONLY["prs"], TEXT_ONLY["ps"], TEXT_ONLY["en"]]


@pytest.mark.parametrize(
    ("kwargs", "language"),
    [
        ({"metadata": {"language": "ps"}}, "ps"),
        ({"metadata": {"language": "prs", "utter_action": "utter_menu"}}, "prs"),
        ({"metadata": {"language": "ur"}}, "en"),
        ({"metadata": "prs"}, "en"),
        ({}, "en"),
    ],
)
def test_a_reply_names_its_language_and_an_unnamed_one_is_english(
    kwargs: dict[str, object], language: str
) -> None:
    assert reply_language(kwargs) == language


@pytest.fixture
async def plain_text_provider() -> AsyncIterator[str]:
    """A provider that answers ``OK`` as plain text, as many SMS gateways do."""

    async def answer(request: web.Request) -> web.Response:
        status = 500 if request.path == "/down" else 200
        return web.Response(text="OK", status=status)

    app = web.Application()
    app.router.add_post("/{tail:.*}", answer)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    yield f"http://{host}:{port}"
    await runner.cleanup()


async def test_an_answer_that_is_not_json_is_a_failure_only_where_json_is_promised(
    plain_text_provider: str,
) -> None:
    gateway = ProviderApi(plain_text_provider, answers_json=False, reason=lambda _: "refused")
    bot_api = ProviderApi(plain_text_provider)
    try:
        assert await gateway.send("/send", {"to": "+93", "text": "hi"}, call="send") == {}
        with pytest.raises(ProviderFailure, match="not JSON") as unreadable:
            await bot_api.send("/sendMessage", {"text": "hi"}, call="sendMessage")
        assert unreadable.value.call == "sendMessage"
        with pytest.raises(ProviderFailure, match="HTTP 500 refused") as refused:
            await gateway.send("/down", {"text": "hi"}, call="send", form=True)
        assert (refused.value.status, refused.value.call) == (500, "send")
    finally:
        await gateway.close()
        await bot_api.close()


async def test_an_unreachable_provider_is_named_by_the_error_type_only() -> None:
    api = ProviderApi("http://127.0.0.1:9")
    try:
        with pytest.raises(ProviderFailure, match="provider unreachable") as failure:
            await api.send("/bot123:SECRET/sendMessage", {"chat_id": 1}, call="sendMessage")
        assert failure.value.status is None and "SECRET" not in str(failure.value)
    finally:
        await api.close()


def test_what_may_go_through_later_and_what_stays_refused() -> None:
    """Held and tried again: the provider unreachable, failing itself, or asking to slow down.
    Not: a refusal of the message or the person (blocked, wrong address, bad request)."""
    assert ProviderFailure.unreachable(TimeoutError()).passing
    for status in (500, 502, 503, 429, 408):
        assert ProviderFailure(status, "busy").passing, status
    for status in (400, 403, 404):
        assert not ProviderFailure(status, "refused").passing, status
    assert not ProviderFailure(503, "refused for good", permanent=True).passing
