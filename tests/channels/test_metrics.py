"""Rasa's ``/metrics`` on a real Sanic server with a real connector: the intake's line read at
scrape time (in this process and in Redis Streams), turns and apologies counted by channel and
language, a provider's refusals by class, and nothing for a caller without the token."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from rasa.core.channels.channel import register
from sanic import Sanic

from bot.channels.counts import refusal_class
from bot.channels.intake.line import Line
from bot.channels.intake.worker import Intake
from bot.channels.metrics import metrics_blueprint
from bot.channels.settings import TelegramSettings
from bot.channels.telegram import TelegramInput
from bot.channels.transport import ProviderFailure
from tests.channels.channel_support import FakeBot, FakeProvider, serve_app
from tests.channels.test_intake import (
    SECRET,
    TOKEN,
    EchoBot,
    Lines,
    SteppedClock,
    post,
    settings,
    stepped,
    update,
)
from tests.channels.test_intake import lines as lines  # the fixture: this process's, Redis

METRICS_TOKEN = "the-metrics-token"
BEARER = {"Authorization": f"Bearer {METRICS_TOKEN}"}


@asynccontextmanager
async def assistant(
    channel: Any, bot: Any, token: str | None = METRICS_TOKEN
) -> AsyncIterator[str]:
    """The channel and ``/metrics`` on one app, as ``python -m bot.server run`` has them."""
    app = Sanic(f"metrics_{id(channel)}", configure_logging=False)
    app.ctx.agent = bot
    register([channel], app, route="/webhooks/")
    app.blueprint(metrics_blueprint(token, None))
    async with serve_app(app) as base:
        yield base


async def scrape(base: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{base}/metrics", headers=BEARER if headers is None else headers) as answer,
    ):
        return answer.status, await answer.text()


def values(text: str, name: str) -> dict[str, float]:
    """Each sample of ``name`` by its channel label."""
    return {
        sample.labels["channel"]: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name
    }


def count(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_the_line_is_read_when_prometheus_asks(provider: FakeProvider, lines: Lines) -> None:
    clock = SteppedClock()
    intake = stepped(lines, clock, workers=1)
    channel = TelegramInput(TelegramSettings(TOKEN, SECRET, provider.url), intake=intake)
    bot = EchoBot(held={"first"})
    async with assistant(channel, bot) as base:
        webhook = f"{base}/webhooks/telegram"
        # One person's messages: one line, in order; the first holds the two behind it.
        for number, text in enumerate(("first", "second", "third"), start=1):
            assert await post(webhook, update(number, 101, text)) == 200
        deadline = time.monotonic() + 10
        while bot.started != ["first"]:
            assert time.monotonic() < deadline, bot.started
            await asyncio.sleep(0.02)
        clock.advance(1.5)  # the two behind it have waited a second and a half

        status, text = await scrape(base)
        assert status == 200
        assert values(text, "eia_intake_depth") == {"telegram": 3}  # one answered, two wait
        assert values(text, "eia_intake_up") == {"telegram": 1}
        assert values(text, "eia_intake_oldest_wait_seconds")["telegram"] == pytest.approx(1.5)

        bot.go.set()
        await intake.drained()
        _, text = await scrape(base)
        assert values(text, "eia_intake_depth") == {"telegram": 0}
        assert values(text, "eia_intake_oldest_wait_seconds") == {"telegram": 0}


class BrokenLine(Line):
    """A line whose storage is down (Redis unreachable)."""

    partitions = 1

    async def _down(self, *_: Any) -> Any:
        raise ConnectionError("redis is down")

    put = lease = renew = release = take = ack = answered = _down  # type: ignore[assignment]

    async def depth(self) -> int:
        raise ConnectionError("redis is down")

    async def waiting(self, since_before: float) -> list[Any]:
        raise ConnectionError("redis is down")


async def test_an_unreadable_line_is_reported_and_the_scrape_still_answers(
    provider: FakeProvider,
) -> None:
    channel = TelegramInput(
        TelegramSettings(TOKEN, SECRET, provider.url), intake=Intake(BrokenLine(), settings())
    )
    async with assistant(channel, FakeBot()) as base:
        status, text = await scrape(base)
    assert status == 200
    assert values(text, "eia_intake_up") == {"telegram": 0}
    assert values(text, "eia_intake_depth") == {}


async def test_turns_apologies_and_refusals_are_counted(provider: FakeProvider) -> None:
    channel = TelegramInput(TelegramSettings(TOKEN, SECRET, provider.url))
    dari = {"text": "پرواز بعدی فردا است", "metadata": {"language": "prs"}}
    bot = FakeBot(respond=lambda message: [dari] if message.text != "break" else [])
    answered = {"channel": "telegram", "outcome": "answered", "language": "prs"}
    before = {
        "answered": count("eia_turns_total", **answered),
        "timed": count("eia_turn_duration_seconds_count", channel="telegram"),
        "apologies": count("eia_apologies_total", channel="telegram", language="en"),
        "limited": count("eia_provider_refusals_total", channel="telegram", reason="rate_limited"),
    }
    async with assistant(channel, bot) as base:
        webhook = f"{base}/webhooks/telegram"
        assert await post(webhook, update(1, 7, "flights?")) == 200
        assert await post(webhook, update(2, 8, "flights?")) == 200
        assert await post(webhook, update(3, 9, "break")) == 200  # nothing sent: an apology
        provider.status, provider.reply = 429, {"ok": False, "parameters": {"retry_after": 3}}
        await post(webhook, update(4, 10, "flights?"))  # Telegram refuses reply and apology

    assert count("eia_turns_total", **answered) - before["answered"] == 3
    assert count("eia_turn_duration_seconds_count", channel="telegram") - before["timed"] == 4
    assert (
        count("eia_apologies_total", channel="telegram", language="en") - before["apologies"] == 1
    )
    refused = count("eia_provider_refusals_total", channel="telegram", reason="rate_limited")
    assert refused - before["limited"] == 1


@pytest.mark.parametrize(
    ("token", "headers", "status"),
    [
        (METRICS_TOKEN, {}, 401),
        (METRICS_TOKEN, {"Authorization": "Bearer the-metrics-tokeN"}, 401),
        (METRICS_TOKEN, {"Authorization": f"Basic {METRICS_TOKEN}"}, 401),
        (METRICS_TOKEN, {"Authorization": f"bearer {METRICS_TOKEN}"}, 200),
        (None, BEARER, 403),  # no token configured: closed to everyone
    ],
    ids=["none", "wrong", "not-bearer", "lower-case-scheme", "closed"],
)
async def test_only_the_token_reads_the_metrics(
    provider: FakeProvider, token: str | None, headers: dict[str, str], status: int
) -> None:
    channel = TelegramInput(TelegramSettings(TOKEN, SECRET, provider.url))
    async with assistant(channel, FakeBot(), token) as base:
        answered, text = await scrape(base, headers)
    assert answered == status
    if status == 403:
        assert "METRICS_TOKEN" in text
    if status != 200:
        assert "eia_" not in text


@pytest.mark.parametrize(
    ("failure", "kind"),
    [
        (ProviderFailure(429, "Too Many Requests", 3), "rate_limited"),
        (ProviderFailure(403, "bot was blocked by the user", permanent=True), "refused_for_good"),
        (ProviderFailure(400, "chat not found"), "rejected"),
        (ProviderFailure(502, "Bad Gateway"), "provider_error"),
        (ProviderFailure.unreachable(TimeoutError()), "unreachable"),
    ],
)
def test_a_refusal_is_counted_by_what_the_operator_would_do_about_it(
    failure: ProviderFailure, kind: str
) -> None:
    assert refusal_class(failure) == kind
