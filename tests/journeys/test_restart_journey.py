"""A restart in the middle of a crowd's messages, on `make run`: nobody's message is lost.

Telegram is told at once that each message was taken (its webhook answers 200 before the turn)
and will not send it again. Twelve people write within a second; Rasa is killed while most of
them still wait in line, and `make run` starts it again, as it does for any server that stops.
Every one of them then gets an answer: the line was kept in ``var/intake.db``.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator

import pytest

from scripts.chaos import kill_server
from scripts.fake_providers import (
    CHANNEL_SECRETS,
    TELEGRAM_SECRET_HEADER,
    FakeProviders,
    ProvidersInThread,
    telegram_update,
)
from scripts.stack import ROOT, free_port
from tests.journeys.conftest import MODEL, Running, in_line, start_running, wait_for_the_line

pytestmark = pytest.mark.integration

#: Twelve people's first questions, as they came in August 2021.
ASKED = [
    "is abbey gate open",
    "when is the next flight",
    "parwaz baray germany kay ast?",
    "دروازهٔ ابی باز است؟",
    "راتلونکې الوتنه کله ده؟",
    "what documents do i need",
    "is the airport open today",
    "flights to qatar",
    "salam, maidan hawayi baz ast?",
    "د ایبي ګیټ خلاص دی؟",
    "who can help me",
    "is north gate open",
]


@pytest.fixture(scope="module")
def crowd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Running, FakeProviders]]:
    """`make run`'s stack with Telegram switched on, to a local fake of the Bot API."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    base = tmp_path_factory.mktemp("make-run-restart")
    credentials = base / "credentials.yml"
    credentials.write_text(
        (ROOT / "credentials.yml").read_text() + "bot.channels.telegram.TelegramInput:\n"
    )
    providers = FakeProviders(sms_rate=None)
    serving = ProvidersInThread(providers)
    env = {**CHANNEL_SECRETS, **FakeProviders.environment(serving.start(free_port()))}
    started = start_running(base, env, credentials)
    try:
        yield started, providers
    finally:
        started.stack.stop()
        serving.stop()


def test_a_crowd_writing_while_rasa_restarts_is_answered_every_one(
    crowd: tuple[Running, FakeProviders],
) -> None:
    running, providers = crowd
    chats = [7_100 + n for n in range(len(ASKED))]
    for chat, text in zip(chats, ASKED, strict=True):
        request = urllib.request.Request(
            f"{running.stack.rasa_url}/webhooks/telegram/webhook",
            json.dumps(telegram_update(chat, text, "en")).encode(),
            {"Content-Type": "application/json", **TELEGRAM_SECRET_HEADER},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status == 200  # Telegram will not send it again
    waited = in_line(running.stack)
    kill_server(running.stack, "rasa")
    assert waited > 0, "every message was answered before the kill: the journey proves nothing"

    deadline = time.monotonic() + 30
    while not any("started again" in line for line in running.stack.restart_dead()):
        assert time.monotonic() < deadline, "make run did not start Rasa again"
        time.sleep(0.25)
    wait_for_the_line(running.stack, timeout=240)  # the model loads, then the line is answered

    unanswered = [
        text
        for chat, text in zip(chats, ASKED, strict=True)
        if not any(r.text for r in providers.to("telegram", str(chat)))
    ]
    assert unanswered == [], f"{waited} waited at the kill; no answer for {unanswered}"
