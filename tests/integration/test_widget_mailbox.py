"""Messages the web chat did not ask for, in a real browser against real processes: a Pashto
speaker asks for a person, the case is closed through Rasa's HTTP API with
``output_channel=webchat`` (as the console's close does), and the page shows "I am back" without
the person typing anything, right to left, once.

Each test runs twice: with the channels' memory in the Rasa process (``make run``) and in Redis
(the production profile's ``REDIS_HOST``; a redis-server of the test's own). The last one runs
the production profile itself: two Rasa processes sharing PostgreSQL and Redis, the page talking
to one, the close reaching the other.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from playwright.sync_api import Browser, Page, expect

from bot.channels import identity
from bot.channels.identity import conversation_id
from scripts.stack import ROOT, Stack, free_port, fresh_keys, production_store_env
from tests.channels.redis_support import RedisServer
from tests.integration import test_handoff, test_shared_stores, test_widget
from tests.integration.conftest import MODEL, running_stack
from tests.integration.test_widget import PASHTO_ONLY, REPLY, REPLY_TIMEOUT_MS
from tests.screenshots import for_docs

pytestmark = pytest.mark.integration

#: The widget tests' Chromium at 360 px, each test with storage of its own.
browser = test_widget.browser
page = test_widget.page
#: The demo's caseworkers take cases at any hour: the test does not depend on the clock.
caseworkers_round_the_clock = test_handoff.caseworkers_round_the_clock
#: PostgreSQL (and Redis) must be there for the production profile; skipped visibly, except in CI.
services = test_shared_stores.services
PG_ADMIN = test_shared_stores.PG_ADMIN

CONVERSATION_KEY = "integration-test-webchat-mailbox"
ASK_FOR_A_PERSON = "زه له یو انسان سره خبرې کول غواړم"
PROBLEM = "زما ویزه رد شوه"
I_AM_BACK = "زه بیا دلته یم"  # action_case_closed in Pashto
#: The widget asks every 5 s after activity, at most every 15 s while a caseworker answers.
MAILBOX_TIMEOUT_MS = 25_000


@pytest.fixture(scope="module", params=["process", "redis"])
def redis(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RedisServer | None]:
    """Where the channels' memory is: None for the Rasa process, else the test's own Redis."""
    if request.param == "process":
        yield None
        return
    server = RedisServer(tmp_path_factory.mktemp("mailbox-redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack(
    redis: RedisServer | None, content_db_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    """Rasa and the action server, with a conversation key this test knows (to name the
    conversation in Rasa's API as the console does) and the channels' memory in ``redis``."""
    env = {"CONVERSATION_ID_KEY": CONVERSATION_KEY}
    if redis is not None:
        env.update(redis.env("mailboxtest"))
    with running_stack(content_db_url, tmp_path_factory, "mailbox-logs", extra_env=env) as running:
        yield running


@pytest.fixture(autouse=True)
def same_conversation_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONVERSATION_ID_KEY", CONVERSATION_KEY)
    identity.forget_key()  # read once per process: take this one


def close_case(rasa_url: str, conversation: str) -> int:
    """What actions/cases/handback.py sends, naming the web chat as the output channel; Rasa's
    HTTP status."""
    query = urllib.parse.urlencode({"output_channel": "webchat", "include_events": "NONE"})
    url = (
        f"{rasa_url}/conversations/{urllib.parse.quote(conversation, safe='')}"
        f"/trigger_intent?{query}"
    )
    headers = {"Content-Type": "application/json"}
    if os.environ.get("RASA_API_TOKEN"):
        headers["Authorization"] = f"Bearer {os.environ['RASA_API_TOKEN']}"
    body = json.dumps({"name": "EXTERNAL_case_closed", "entities": {}}).encode()
    request = urllib.request.Request(url, body, headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def paused(stack: Stack, conversation: str) -> bool:
    tracker = test_handoff.get_json(f"{stack.rasa_url}/conversations/{conversation}/tracker")
    return bool(tracker["paused"])


def fetch_mailbox(stack: Stack, sender: str) -> list[dict[str, object]]:
    """The mailbox as the page sees it (without acknowledging anything)."""
    request = urllib.request.Request(
        f"{stack.rasa_url}/webchat/mailbox",
        json.dumps({"sender": sender}).encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return list(json.loads(response.read())["messages"])


def hand_over_to_a_caseworker(page: Page, stack: Stack) -> str:
    """In Pashto: ask for a person, then write the problem (only "received": a person will
    answer). The page's sender secret, as only that page knows it."""
    page.goto(f"{stack.rasa_url}/webchat/")
    page.get_by_label("Your question").fill(ASK_FOR_A_PERSON)
    page.keyboard.press("Enter")
    expect(page.locator(REPLY, has_text="کارکوونکی").first).to_be_visible(timeout=REPLY_TIMEOUT_MS)
    expect(page.locator(".msg.user.pending")).to_have_count(0, timeout=REPLY_TIMEOUT_MS)
    answers = page.locator(REPLY).count()
    page.get_by_role("textbox").fill(PROBLEM)
    page.keyboard.press("Enter")
    expect(page.locator(".msg.user.pending")).to_have_count(0, timeout=REPLY_TIMEOUT_MS)
    received = page.locator(REPLY, has_text="ستاسو پیغام راورسېد")
    expect(received).to_have_count(1, timeout=REPLY_TIMEOUT_MS)
    assert page.locator(REPLY).count() == answers + 1  # nothing but "received"
    return str(page.evaluate("localStorage.getItem('evacuee-webchat.sender')"))


def expect_i_am_back_once(page: Page) -> None:
    back = page.locator(REPLY, has_text=I_AM_BACK)
    expect(back).to_have_count(1, timeout=MAILBOX_TIMEOUT_MS)
    assert set(back.inner_text()) & PASHTO_ONLY
    assert back.get_attribute("lang") == "ps-AF"
    assert back.evaluate("el => getComputedStyle(el).direction") == "rtl"
    assert page.evaluate("document.documentElement.dir") == "rtl"
    # Acknowledged: the page's list of ids to acknowledge empties, and nothing is shown again.
    page.wait_for_function(
        "() => localStorage.getItem('evacuee-webchat.acks') === '[]'", timeout=MAILBOX_TIMEOUT_MS
    )
    page.wait_for_timeout(6_000)  # at least one more fetch
    expect(back).to_have_count(1)


@pytest.mark.usefixtures("caseworkers_round_the_clock")
def test_the_open_page_shows_i_am_back_when_the_case_is_closed(
    page: Page,
    stack: Stack,
) -> None:
    sender = hand_over_to_a_caseworker(page, stack)
    conversation = conversation_id("webchat", sender)
    assert close_case(stack.rasa_url, conversation) == 200
    expect_i_am_back_once(page)
    assert fetch_mailbox(stack, sender) == []  # taken out of the mailbox once shown
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(for_docs("webchat-mailbox-ps.png")))

    # The conversation is the assistant's again: a question is answered in the turn.
    answers = page.locator(REPLY).count()
    page.get_by_role("textbox").fill("راتلونکې الوتکه کله ځي")
    page.keyboard.press("Enter")
    expect(page.locator(REPLY).nth(answers)).to_be_visible(timeout=REPLY_TIMEOUT_MS)


@pytest.mark.usefixtures("caseworkers_round_the_clock")
def test_a_message_that_came_while_the_page_was_closed_is_shown_when_it_opens(
    page: Page,
    stack: Stack,
) -> None:
    sender = hand_over_to_a_caseworker(page, stack)
    context = page.context
    page.close()  # the person put the phone away
    assert close_case(stack.rasa_url, conversation_id("webchat", sender)) == 200
    [waiting] = fetch_mailbox(stack, sender)
    assert I_AM_BACK in str(waiting["text"])
    assert fetch_mailbox(stack, "someone-else-0123456789") == []

    reopened = context.new_page()  # same browser storage: the same person
    reopened.goto(f"{stack.rasa_url}/webchat/")
    expect_i_am_back_once(reopened)
    assert fetch_mailbox(stack, sender) == []


@pytest.mark.usefixtures("caseworkers_round_the_clock")
def test_when_redis_is_down_the_close_fails_and_its_retry_reaches_the_page(
    page: Page, stack: Stack, redis: RedisServer | None
) -> None:
    if redis is None:
        pytest.skip("the memory in the Rasa process cannot be down on its own")
    sender = hand_over_to_a_caseworker(page, stack)
    conversation = conversation_id("webchat", sender)
    redis.kill()
    try:
        # The console would keep the case open and say so; nothing changed in the conversation.
        assert close_case(stack.rasa_url, conversation) == 500
        assert paused(stack, conversation)
        page.wait_for_timeout(6_000)  # the page asks meanwhile, and is told to try later
        expect(page.locator(REPLY, has_text=I_AM_BACK)).to_have_count(0)
    finally:
        redis.start()  # empty, as after losing it
    page.wait_for_timeout(2_500)  # Rasa tries Redis again 2 s after a failure
    assert close_case(stack.rasa_url, conversation) == 200  # the caseworker closes again
    assert not paused(stack, conversation)
    expect_i_am_back_once(page)


@pytest.fixture(scope="module")
def two_servers(services: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The production profile: two Rasa processes, a fresh PostgreSQL database (tracker store
    and content), the test's own Redis (lock store and channels' memory)."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    base = tmp_path_factory.mktemp("mailbox-production")
    redis_server = RedisServer(base / "redis")
    redis_server.start()
    name = f"test_mailbox_{uuid.uuid4().hex[:12]}"
    pg = urllib.parse.urlsplit(PG_ADMIN)
    with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    database = pg._replace(path=f"/{name}").geturl()
    running: Stack | None = None
    try:
        content_url = f"postgresql+psycopg://{pg.netloc}/{name}"
        test_shared_stores._content_cli(content_url, "migrate")
        test_shared_stores._content_cli(content_url, "seed")
        with psycopg.connect(database, autocommit=True) as connection:
            connection.execute("UPDATE organisations SET case_hours = '00:00-00:00'")
        running = Stack(
            model=MODEL,
            content_db_url=content_url,
            log_dir=base / "logs",
            rasa_port=free_port(),
            more_rasa_ports=(free_port(),),
            action_port=free_port(),
            endpoints=ROOT / "endpoints.production.yml",
            extra_env={
                **fresh_keys(),
                "CONVERSATION_ID_KEY": CONVERSATION_KEY,
                **production_store_env(
                    database, f"redis://127.0.0.1:{redis_server.port}/0", "mailboxprod"
                ),
            },
        )
        running.start()
        yield running
    finally:
        if running is not None:
            running.stop()
        redis_server.stop()
        with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_close_reaching_another_rasa_process_reaches_the_page(
    two_servers: Stack, browser: Browser
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
    try:
        chat = context.new_page()
        sender = hand_over_to_a_caseworker(chat, two_servers)
        assert chat.url.startswith(two_servers.rasa_urls[0])  # the page talks to the first
        assert close_case(two_servers.rasa_urls[1], conversation_id("webchat", sender)) == 200
        expect_i_am_back_once(chat)  # fetched through the first process
    finally:
        context.close()
