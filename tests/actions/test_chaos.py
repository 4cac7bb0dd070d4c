"""The chaos test's own parts: how it tells an apology from an answer, how its clients fail over
and resend as the web chat page does, how it times a recovery, and its own Redis. The whole run
is `make chaos` (minutes; docs/OPERATIONS.md)."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from scripts import chaos
from scripts.loadtest import webchat_people as people
from scripts.loadtest.redis_server import RedisServer, answers_ping
from scripts.stack import free_port

APOLOGY = people.apology_patterns(people.apologies())


@pytest.mark.parametrize("language", ["prs", "ps", "en"])
def test_the_bots_apology_counts_as_apologised_in_each_language(language: str) -> None:
    sentence = people.try_again_sentences()[language]
    # The web chat may split a reply at blank lines, and the hotline may follow the apology.
    assert people.classify([sentence, "+93 20 000 0000"], APOLOGY) == people.APOLOGISED
    assert people.classify([sentence.replace(" ", "\n")], APOLOGY) == people.APOLOGISED


@pytest.mark.parametrize("language", ["prs", "ps", "en"])
def test_the_word_that_an_answer_was_cut_off_counts_as_apologised(language: str) -> None:
    sentence = people.sentences("channels.cut_off")[language]
    assert people.classify([sentence], APOLOGY) == people.APOLOGISED


def test_other_sorries_and_answers_are_answers_and_an_empty_reply_is_lost() -> None:
    assert people.classify(["Sorry, I did not understand that."], APOLOGY) == people.ANSWERED
    assert people.classify(["پرواز بعدی ساعت ۱۰ است."], APOLOGY) == people.ANSWERED
    assert people.classify([], APOLOGY) == people.LOST
    assert people.classify(["", " "], APOLOGY) == people.LOST


def test_a_placeholder_in_the_apology_matches_any_number() -> None:
    patterns = people.apology_patterns({"en": "Sorry. Call {hotline} now."})
    assert people.classify(["Sorry. Call 112 now."], patterns) == people.APOLOGISED
    assert people.classify(["Sorry."], patterns) == people.ANSWERED


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Serve = Callable[[Handler], Awaitable[str]]


@pytest.fixture
async def rasa() -> AsyncIterator[Serve]:
    """Fake Rasa processes on free loopback ports, each answering the web chat webhook."""
    runners: list[web.AppRunner] = []

    async def serve(handler: Handler) -> str:
        app = web.Application()
        app.router.add_post(people.WEBHOOK, handler)
        runner = web.AppRunner(app)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        runners.append(runner)
        return f"http://127.0.0.1:{port}"

    yield serve
    for runner in runners:
        await runner.cleanup()


async def deliver(urls: list[str], give_up: float = 10.0) -> people.Message:
    message = people.Message("chaostest1", "prs", "سلام", 0.0)
    start = time.monotonic()
    async with aiohttp.ClientSession() as session:
        await people.deliver(
            session,
            people.Balancer(urls),
            message,
            APOLOGY,
            lambda: time.monotonic() - start,
            give_up,
        )
    return message


async def test_a_refused_connection_goes_to_the_other_rasa_at_once(rasa: Serve) -> None:
    async def hello(request: web.Request) -> web.Response:
        assert (await request.json())["metadata"] == {"language_hint": "prs"}
        return web.json_response([{"text": "سلام! چطور کمک کنم؟"}])

    alive = await rasa(hello)
    dead = f"http://127.0.0.1:{free_port()}"
    message = await deliver([dead, alive])
    assert message.outcome == people.ANSWERED
    assert message.failures == []  # a load balancer's failover: the person sees nothing


async def test_a_5xx_is_sent_again_like_the_page_does_and_then_answered(rasa: Serve) -> None:
    calls: list[float] = []

    async def busy_once(request: web.Request) -> web.Response:
        calls.append(time.monotonic())
        if len(calls) == 1:
            return web.json_response({"error": "the assistant failed"}, status=503)
        return web.json_response([{"text": "Flights leave at 10."}])

    message = await deliver([await rasa(busy_once)])
    assert message.outcome == people.ANSWERED and message.retried
    assert message.failures == ["HTTP 503"]
    assert calls[1] - calls[0] >= people.FIRST_RETRY_SECONDS * 0.9


async def test_silence_and_a_server_that_never_recovers_are_lost(rasa: Serve) -> None:
    async def silent(request: web.Request) -> web.Response:
        return web.json_response([])

    async def failing(request: web.Request) -> web.Response:
        return web.json_response({"error": "the assistant failed"}, status=500)

    quiet = await deliver([await rasa(silent)])
    assert (quiet.outcome, quiet.failures) == (people.LOST, ["200, no reply"])
    broken = await deliver([await rasa(failing)], give_up=2.0)
    assert broken.outcome == people.LOST
    assert broken.failures == ["HTTP 500", "HTTP 500", "no answer in 2 s"]


def _message(written: float, outcome: str, latency: float = 0.2, *failures: str) -> people.Message:
    message = people.Message("s", "en", "hi", written, outcome=outcome, failures=list(failures))
    message.settled = written + latency
    message.answered_at = message.settled if outcome != people.LOST else None
    return message


def test_recovery_is_the_first_of_the_normal_answers_that_close_the_phase() -> None:
    async def nothing() -> None:
        return None

    async def healthy() -> bool:
        return True

    fault = chaos.Fault("action server", 10.0, nothing, healthy, killed_at=10.0)
    messages = [
        _message(5.0, people.ANSWERED),
        _message(9.9, people.APOLOGISED, 0.3),  # in flight at the kill: counts for the fault
        _message(11.0, people.ANSWERED),  # a greeting needs no action: not yet recovered
        _message(12.0, people.APOLOGISED),
        _message(14.0, people.ANSWERED, 3.0, "HTTP 503"),  # resent: trouble too
        *(_message(16.0 + i / 2, people.ANSWERED, 0.5) for i in range(chaos.CALM_MESSAGES)),
    ]
    messages[4].troubled_at = 14.1
    baseline, killed = chaos.phases(messages, [fault], end=30.0)
    assert [len(baseline.messages), len(killed.messages)] == [1, 5 + chaos.CALM_MESSAGES - 1]
    assert baseline.recovered_after() is None
    assert killed.recovered_after() == pytest.approx(6.5)  # 16.5 s, the answer to 16.0
    assert killed.count(people.APOLOGISED) == 2

    # Fewer normal answers in a row than that: a lull between failures, not a recovery.
    _, killed = chaos.phases(messages[:-1], [fault], end=30.0)
    assert killed.recovered_after() is None
    messages.append(_message(22.0, people.LOST, 0.0, "200, no reply"))
    _, killed = chaos.phases(messages, [fault], end=30.0)
    assert killed.recovered_after() is None  # ended in trouble: "never"


def test_a_message_held_up_by_a_kill_counts_for_it_however_late_its_answer() -> None:
    async def nothing() -> None:
        return None

    async def healthy() -> bool:
        return True

    faults = [
        chaos.Fault("one Rasa process", 50.0, nothing, healthy, killed_at=50.0),
        chaos.Fault("Redis", 90.0, nothing, healthy, killed_at=90.0),
    ]
    victim = _message(49.9, people.ANSWERED, 46.0, "ServerDisconnectedError", "HTTP 500")
    victim.troubled_at = 50.0
    _, rasa, redis = chaos.phases([victim], faults, end=130.0)
    assert (len(rasa.messages), len(redis.messages)) == (1, 0)


async def test_its_own_redis_can_be_killed_and_started_again(tmp_path: Path) -> None:
    if shutil.which("redis-server") is None:
        # Visible, as the shared-store tests do; in CI (CI=true) Redis is part of the machine.
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("redis-server is missing (CI=true)")
        pytest.skip("redis-server is missing: apt-get install redis-server")
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        assert redis.port != 6379 and answers_ping(redis.host, redis.port)
        redis.kill()
        assert not answers_ping(redis.host, redis.port)
        await asyncio.to_thread(redis.start)
        assert answers_ping(redis.host, redis.port)
    finally:
        redis.stop()
    assert not answers_ping(redis.host, redis.port)
    assert "Ready to accept connections" in (tmp_path / "redis.log").read_text()


async def test_a_fault_strikes_while_someone_is_being_answered() -> None:
    start = time.monotonic()
    answering: list[bool] = []

    async def kill() -> None:
        assert answering, "killed before anyone was being answered"

    async def healthy() -> bool:
        return True

    fault = chaos.Fault("one Rasa process", 0.0, kill, healthy, aim=lambda: bool(answering))
    asyncio.get_running_loop().call_later(0.3, answering.append, True)
    await chaos.inject([fault], lambda: time.monotonic() - start)
    assert fault.killed_at is not None
    assert 0.3 + chaos.INTO_THE_TURN_SECONDS <= fault.killed_at < 1.0
