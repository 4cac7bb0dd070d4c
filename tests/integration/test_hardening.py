"""What an attacker or a crash can do to the running stack: real processes, real sockets.

The action server only answers Rasa (a shared secret) and only on loopback; Rasa's HTTP API
takes its token as a Bearer header too and refuses large bodies before reading them; a dead
action server costs a person an apology in their language, not silence, and comes back.
"""

import http.client
import json
import os
import signal
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from actions.alerts.models import Subscription, Topic
from actions.alerts.subscriptions import Wish, subscribe
from kernel.lang.texts import CATALOGUE
from scripts.stack import Stack, stored_token
from tests.integration.conftest import running_stack

TRY_AGAIN = CATALOGUE.entry("channels.try_again")

pytestmark = pytest.mark.integration

API_TOKEN = "hardening-test-token-" + uuid.uuid4().hex


@pytest.fixture(scope="module")
def stack(content_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    env = {"RASA_API_TOKEN": API_TOKEN, "EMERGENCY_HOTLINE": "+93 700 000 100"}
    with running_stack(
        content_db_url, tmp_path_factory, "hardening-logs", extra_env=env
    ) as running:
        yield running


def webchat(stack: Stack, sender: str, text: str) -> tuple[int, list[dict[str, Any]]]:
    body = json.dumps({"sender": sender, "message": text}).encode()
    request = urllib.request.Request(
        f"{stack.rasa_url}/webchat/webhook", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        return reply.status, json.loads(reply.read())


def status_of(request: urllib.request.Request) -> int:
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return error.code


def listening_addresses(port: int) -> set[str]:
    """The local addresses a TCP socket listens on at ``port`` (from /proc/net/tcp*)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table, encoding="ascii") as rows:
            for row in list(rows)[1:]:
                local, state = row.split()[1], row.split()[3]
                address, hex_port = local.split(":")
                if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                    found.add(address)
    return found


def test_the_action_server_listens_on_loopback_only(stack: Stack) -> None:
    assert listening_addresses(stack.action_port) == {"0100007F"}  # 127.0.0.1


def test_an_action_call_without_the_secret_runs_nothing(stack: Stack) -> None:
    victim = "telegram-" + uuid.uuid4().hex
    engine = create_engine(stack.content_db_url)
    now = datetime.now(timezone.utc)
    with Session(engine) as session, session.begin():
        subscribe(session, victim, "telegram", [Wish(next(iter(Topic)))], "prs", now, timedelta(1))
    call = {
        "next_action": "action_delete_my_data",
        "sender_id": victim,
        "tracker": {"sender_id": victim, "slots": {}, "latest_message": {}, "events": []},
        "domain": {"responses": {}},
        "version": "3.6.21",
    }

    def post(headers: dict[str, str]) -> int:
        request = urllib.request.Request(
            f"{stack.action_url}/webhook",
            json.dumps(call).encode(),
            {"Content-Type": "application/json", **headers},
        )
        return status_of(request)

    assert post({}) == 403
    assert post({"X-Action-Server-Secret": "a guess"}) == 403
    with Session(engine) as session:
        count = select(func.count()).select_from(Subscription)
        assert session.scalar(count.where(Subscription.conversation_id == victim)) == 1
    engine.dispose()
    # The health check stays open for a load balancer; it runs no action.
    assert status_of(urllib.request.Request(f"{stack.action_url}/health")) == 200


@pytest.mark.parametrize(
    ("headers", "query", "status"),
    [
        ({"Authorization": f"Bearer {API_TOKEN}"}, "", 200),
        ({"Authorization": f"bearer {API_TOKEN}"}, "", 200),
        ({}, f"?token={API_TOKEN}", 200),
        ({"Authorization": "Bearer not-the-token"}, "", 401),
        ({"Authorization": f"Basic {API_TOKEN}"}, "", 401),
        ({}, "", 401),
    ],
    ids=["bearer", "bearer-lower-case", "query", "wrong-bearer", "basic", "none"],
)
def test_the_http_api_takes_its_token_as_a_bearer_header_too(
    stack: Stack, headers: dict[str, str], query: str, status: int
) -> None:
    request = urllib.request.Request(
        f"{stack.rasa_url}/model/parse{query}",
        json.dumps({"text": "salam"}).encode(),
        {"Content-Type": "application/json", **headers},
    )
    assert status_of(request) == status


def test_the_token_is_not_in_any_command_line(stack: Stack) -> None:
    for process in stack.processes().values():
        with open(f"/proc/{process.pid}/cmdline", "rb") as cmdline:
            assert API_TOKEN.encode() not in cmdline.read()


def test_a_large_body_is_refused_before_it_is_read(stack: Stack) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", stack.rasa_port, timeout=30)
    connection.putrequest("POST", "/webhooks/rest/webhook")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", str(30 * 1024 * 1024))
    connection.endheaders()  # the 30 MB never follow: the answer must not wait for them
    assert connection.getresponse().status == 413
    connection.close()


def test_a_dead_action_server_costs_an_apology_then_it_comes_back(stack: Stack) -> None:
    sender = "hardening-" + uuid.uuid4().hex
    status, replies = webchat(stack, sender, "پرواز بعدی به دوحه چه وقت است؟")
    assert status == 200 and replies
    os.killpg(stack.processes()["actions"].pid, signal.SIGKILL)
    stack.processes()["actions"].wait()

    status, replies = webchat(stack, sender, "میدان هوایی باز است؟")
    assert status == 200
    [apology] = replies
    assert apology["text"].startswith(TRY_AGAIN["prs"])  # the conversation's language
    assert "+93 700 000 100" in apology["text"]

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        stack.restart_dead()
        try:
            with urllib.request.urlopen(f"{stack.action_url}/health", timeout=2):
                break
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.5)
    status, replies = webchat(stack, sender, "میدان هوایی باز است؟")
    assert status == 200
    assert replies and not replies[0]["text"].startswith(TRY_AGAIN["prs"])


def test_make_run_keeps_its_token_in_a_file_only_its_owner_reads(tmp_path: Any) -> None:
    path = tmp_path / "var" / "rasa-api-token"
    first = stored_token(path)
    assert (path.stat().st_mode & 0o777) == 0o600
    assert stored_token(path) == first  # the same token at the next start
