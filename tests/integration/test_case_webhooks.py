"""A helpdesk receives a real conversation's case, end to end on real processes: Rasa (whose
tracker store queues the person's messages), the action server (which opens the case), the
notifier (which posts), and a caseworker taking and closing it; every event signed, in order,
and none naming the person's conversation."""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from actions.cases import queue
from actions.content import db
from actions.content.models import Organisation
from scripts.stack import Stack, free_port
from tests.actions.webhook_support import verify
from tests.integration.conftest import MODEL, _content_cli, post_json

SECRET = secrets.token_hex(32)
SENDER = "helpdesk-dari-7f3a"


class Helpdesk(ThreadingHTTPServer):
    """A helpdesk's webhook endpoint: keeps every request, answers 204."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", free_port()), _Hook)
        self.received: list[tuple[dict[str, str], bytes]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hooks/cases"

    def events(self) -> list[dict[str, Any]]:
        return [json.loads(body) for _, body in self.received]


class _Hook(BaseHTTPRequestHandler):
    server: Helpdesk

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.received.append((dict(self.headers.items()), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def helpdesk() -> Iterator[Helpdesk]:
    server = Helpdesk()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def stack_with_a_helpdesk(
    helpdesk: Helpdesk, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Stack, str]]:
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    url = f"sqlite:///{tmp_path_factory.mktemp('helpdesk') / 'content.db'}"
    _content_cli(url, "migrate")
    _content_cli(url, "seed")
    engine = db.create_content_engine(url)
    with engine.begin() as connection:  # caseworkers at any hour: the test runs at any hour
        connection.execute(
            update(Organisation)
            .where(Organisation.slug == "kabul-aid-network")
            .values(case_hours="00:00-00:00")
        )
    engine.dispose()
    stack = Stack(
        model=MODEL,
        content_db_url=url,
        log_dir=Path(tmp_path_factory.mktemp("helpdesk-logs")),
        rasa_port=free_port(),
        action_port=free_port(),
        with_notifier=True,
        extra_env={
            "RASA_API_TOKEN": secrets.token_urlsafe(24),
            "CASE_WEBHOOK_URL": helpdesk.url,
            "CASE_WEBHOOK_SECRET": SECRET,
            "CASE_WEBHOOK_POLL_SECONDS": "0.2",
        },
    )
    stack.start()
    yield stack, url
    stack.stop()


def wait_for(helpdesk: Helpdesk, count: int, seconds: float = 30) -> list[dict[str, Any]]:
    deadline = time.monotonic() + seconds
    while len(helpdesk.received) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    events = helpdesk.events()
    assert len(events) >= count, [e["type"] for e in events]
    return events


def test_a_helpdesk_follows_a_real_case_from_request_to_close(
    stack_with_a_helpdesk: tuple[Stack, str],
    helpdesk: Helpdesk,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stack, url = stack_with_a_helpdesk
    webhook = f"{stack.rasa_url}/webhooks/rest/webhook"

    def say(text: str) -> list[dict[str, Any]]:
        replies: list[dict[str, Any]] = post_json(webhook, {"sender": SENDER, "message": text})
        return replies

    assert say("میخواهم با یک انسان صحبت کنم")  # told who answers, asked for one line
    # To the case (Rasa's tracker store), answered "received" once for the burst.
    assert [r.get("text") for r in say("ویزه‌ام رد شده، حالا چه کنم")] == [
        "پیام شما رسید و برای کارمند نگه داشته شد."
    ]
    # Danger: the lines that answer now first, and the case urgent from here on.
    [helped, *_] = [str(r.get("text")) for r in say("طفلم زخمی است")]
    assert helped.startswith("کسی زخمی یا سخت مریض است"), helped
    events = wait_for(helpdesk, 4)
    case_id = events[0]["case"]["id"]

    # The console's side, in this process, configured as the admin server would be.
    monkeypatch.setenv(db.URL_ENV, url)
    monkeypatch.setenv("CASE_WEBHOOK_URL", helpdesk.url)
    with db.session_scope() as session:  # farida is a caseworker of the organisation answering
        answering = session.scalar(
            select(Organisation.id).where(Organisation.slug == "kabul-aid-network")
        )
        took = queue.take(session, case_id, "farida", datetime.now(timezone.utc), answering)
        assert took == "farida"
    with db.session_scope() as session:
        assert queue.close(session, case_id, "farida", datetime.now(timezone.utc), answering)
    db.dispose_engine()
    events = wait_for(helpdesk, 6)

    assert [(e["type"], e["case"]["id"]) for e in events] == [
        ("case.opened", case_id),
        ("case.message", case_id),
        ("case.message", case_id),
        ("case.message", case_id),
        ("case.taken", case_id),
        ("case.closed", case_id),
    ]
    lines = [e["message"]["text"] for e in events if e["type"] == "case.message"]
    assert lines == [
        "میخواهم با یک انسان صحبت کنم",
        "ویزه‌ام رد شده، حالا چه کنم",
        "طفلم زخمی است",
    ]
    assert [e["case"]["priority"] for e in events] == ["normal"] * 3 + ["urgent"] * 3
    assert {e["case"]["language"] for e in events} == {"prs"}
    assert {e["case"]["organisation"] for e in events} == {"kabul-aid-network"}
    assert len({e["event_id"] for e in events}) == 6
    for headers, body in helpdesk.received:
        assert verify(SECRET.encode(), headers, body)
        assert SENDER.encode() not in body
