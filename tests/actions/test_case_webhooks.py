"""A helpdesk gets the case lifecycle: opened → message → taken → closed, in order, signed, at
least once with the same event id, and ``case.deleted`` when the person deletes their data;
nothing without CASE_WEBHOOK_URL, nothing that names the person. Against a real local HTTP
receiver, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from sqlalchemy import Engine, delete, func, select
from sqlalchemy.orm import Session

from actions.alerts.notifier_settings import WebhookSettings
from actions.cases import queue, store, webhook_sender, webhooks
from actions.cases.models import Author, Case, CaseEvent, CaseMessage, EventStatus
from actions.cases.webhook_sender import CaseWebhookSender
from actions.chat import privacy
from actions.content import db
from actions.content.models import Organisation
from tests.actions.content_support import NOW
from tests.actions.webhook_support import verify

SECRET = "helpdesk-shared-secret"
PERSON = "whatsapp-93c1e7a9b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8e0"
ADDRESS = "+93700123456"


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes

    @property
    def event(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed


@dataclass
class Helpdesk:
    """A helpdesk's webhook endpoint: records every request, answers what ``answer`` says."""

    url: str = ""
    received: list[Received] = field(default_factory=list)
    answer: Callable[[dict[str, Any]], int] = lambda event: 200

    async def hook(self, request: web.Request) -> web.Response:
        body = await request.read()
        record = Received(dict(request.headers), body)
        self.received.append(record)
        return web.Response(status=self.answer(record.event))

    def events(self) -> list[tuple[str, int]]:
        return [(r.event["type"], r.event["case"]["id"]) for r in self.received]


@pytest.fixture
async def helpdesk() -> AsyncIterator[Helpdesk]:
    desk = Helpdesk()
    app = web.Application()
    app.router.add_post("/hooks/cases", desk.hook)
    server = TestServer(app)
    await server.start_server()
    desk.url = str(server.make_url("/hooks/cases"))
    yield desk
    await server.close()


@pytest.fixture
def no_cases(content_db: Engine) -> Engine:
    with Session(content_db) as session, session.begin():
        session.execute(delete(Case))  # their messages and events go with them
    return content_db


@pytest.fixture
def publishing(
    no_cases: Engine, helpdesk: Helpdesk, monkeypatch: pytest.MonkeyPatch
) -> WebhookSettings:
    monkeypatch.setenv("CASE_WEBHOOK_URL", helpdesk.url)
    monkeypatch.setenv("CASE_WEBHOOK_SECRET", SECRET)
    settings = WebhookSettings.from_env()
    assert settings is not None
    # Retries a few milliseconds apart, not seconds: the order and the ids are the point.
    return WebhookSettings(
        url=settings.url, secret=settings.secret, backoff_seconds=0.05, poll_seconds=0.02
    )


def open_case(request: str = "مادرم در دروازه شرقی گم شده", conversation: str = PERSON) -> int:
    with db.session_scope() as session:
        network = session.scalars(
            select(Organisation).where(Organisation.slug == "kabul-aid-network")
        ).one()
        case = store.open_case(
            session,
            conversation_id=conversation,
            channel="whatsapp",
            language="prs",
            organisation=network,
            request=request,
            assistant_answers=["Flights to Doha: QR8010 …"],
            now=NOW,
        )
        return case.id


def take_and_close(case_id: int) -> None:
    """farida, a caseworker of the organisation answering the case, takes it and closes it."""
    with db.session_scope() as session:
        answering = session.scalar(select(Case.organisation_id).where(Case.id == case_id))
        took = queue.take(session, case_id, "farida", NOW + timedelta(minutes=5), answering)
        assert took == "farida"
    with db.session_scope() as session:
        assert queue.close(session, case_id, "farida", NOW + timedelta(minutes=30), answering)


async def deliver(settings: WebhookSettings, until: Callable[[], bool], seconds: float = 10) -> int:
    """Runs the notifier's sender until ``until()`` holds; returns how many it sent."""
    sender = CaseWebhookSender(settings)
    running = asyncio.create_task(sender.run())
    deadline = time.monotonic() + seconds
    while not until() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    sender.stop()
    await running
    assert until(), "the helpdesk did not get what was expected in time"
    return sender.sent


def statuses() -> list[str]:
    with db.session_scope() as session:
        return [e.status.value for e in session.scalars(select(CaseEvent).order_by(CaseEvent.id))]


async def test_the_lifecycle_arrives_in_order_signed_and_without_the_person(
    publishing: WebhookSettings, helpdesk: Helpdesk
) -> None:
    case_id = open_case()
    take_and_close(case_id)
    sent = await deliver(publishing, lambda: len(helpdesk.received) == 4)
    assert sent == 4 and statuses() == ["sent"] * 4
    assert helpdesk.events() == [
        ("case.opened", case_id),
        ("case.message", case_id),
        ("case.taken", case_id),
        ("case.closed", case_id),
    ]
    for received in helpdesk.received:
        assert verify(SECRET.encode(), received.headers, received.body)
        assert received.headers["X-Event-Id"] == received.event["event_id"]
        assert received.headers["Content-Type"].startswith("application/json")
        raw = received.body.decode()
        assert PERSON not in raw and PERSON.split("-", 1)[1] not in raw and ADDRESS not in raw
    opened, message, taken, closed = (r.event for r in helpdesk.received)
    assert opened["schema"] == "case-event/1"
    assert len({e["event_id"] for e in (opened, message, taken, closed)}) == 4
    assert opened["case"] == {
        "id": case_id,
        "status": "waiting",
        "language": "prs",
        "channel": "whatsapp",
        "priority": "normal",
        "organisation": "kabul-aid-network",
        "opened_at": {"utc": "2021-08-24T04:30:00Z", "kabul": "2021-08-24T09:00:00+04:30"},
        "taken_by": None,
        "taken_at": None,
        "closed_at": None,
    }
    assert message["message"] == {
        "author": "person",
        "text": "مادرم در دروازه شرقی گم شده",
        "written_at": {"utc": "2021-08-24T04:30:00Z", "kabul": "2021-08-24T09:00:00+04:30"},
    }
    assert taken["case"]["status"] == "taken" and taken["case"]["taken_by"] == "farida"
    assert taken["occurred_at"]["kabul"] == "2021-08-24T09:05:00+04:30"
    assert closed["case"]["status"] == "closed"
    assert closed["case"]["closed_at"] == {
        "utc": "2021-08-24T05:00:00Z",
        "kabul": "2021-08-24T09:30:00+04:30",
    }
    assert "message" not in opened and "message" not in closed


async def test_an_urgent_request_is_an_urgent_case_for_the_helpdesk(
    publishing: WebhookSettings, helpdesk: Helpdesk
) -> None:
    open_case("طفلم زخمی است")
    await deliver(publishing, lambda: len(helpdesk.received) == 2)
    assert {r.event["case"]["priority"] for r in helpdesk.received} == {"urgent"}


async def test_a_helpdesk_that_fails_gets_the_event_again_with_the_same_id_and_in_order(
    publishing: WebhookSettings, helpdesk: Helpdesk
) -> None:
    first = open_case()
    other = open_case("visa", conversation="telegram-0badc0ffee0badc0ffee0badc0ffee0badc0ffee")
    failed: set[str] = set()

    def answer(event: dict[str, Any]) -> int:
        # The first case's first event fails once, as a helpdesk that is restarting would.
        if event["case"]["id"] == first and event["type"] == "case.opened" and not failed:
            failed.add(event["event_id"])
            return 500
        return 200

    helpdesk.answer = answer
    await deliver(publishing, lambda: len(helpdesk.received) == 5)
    mine = [r.event for r in helpdesk.received if r.event["case"]["id"] == first]
    assert [e["type"] for e in mine] == ["case.opened", "case.opened", "case.message"]
    assert mine[0]["event_id"] == mine[1]["event_id"] in failed
    assert mine[0] == mine[1]  # the same event, byte for byte but for the signature's time
    theirs = [r.event["type"] for r in helpdesk.received if r.event["case"]["id"] == other]
    assert theirs == ["case.opened", "case.message"]  # not held up by the other case
    with db.session_scope() as session:
        retried = session.scalars(select(CaseEvent).where(CaseEvent.event_id.in_(failed))).one()
        assert (retried.status, retried.attempts) == (EventStatus.SENT, 2)


async def test_a_wrong_secret_or_an_old_or_altered_request_does_not_verify(
    publishing: WebhookSettings, helpdesk: Helpdesk
) -> None:
    open_case()
    await deliver(publishing, lambda: len(helpdesk.received) == 2)
    received = helpdesk.received[0]
    assert verify(SECRET.encode(), received.headers, received.body)
    assert not verify(b"another-secret", received.headers, received.body)
    assert not verify(SECRET.encode(), received.headers, received.body.replace(b"prs", b"ps"))
    late = {**received.headers, "X-Timestamp": str(int(received.headers["X-Timestamp"]) + 3600)}
    assert not verify(SECRET.encode(), late, received.body)
    assert not verify(SECRET.encode(), received.headers, received.body, window=-1)


async def test_a_helpdesk_that_refuses_keeps_the_event_queued_then_failed(
    publishing: WebhookSettings, helpdesk: Helpdesk
) -> None:
    open_case()
    helpdesk.answer = lambda event: 401  # e.g. it holds another secret
    settings = WebhookSettings(**{**publishing.__dict__, "max_attempts": 2})
    await deliver(settings, lambda: len(helpdesk.received) == 3)
    with db.session_scope() as session:
        events = list(session.scalars(select(CaseEvent).order_by(CaseEvent.id)))
    # Two attempts for case.opened, then it is given up and the case's next event goes.
    first = events[0]
    assert (first.event_type, first.status, first.last_error) == (
        "case.opened",
        EventStatus.FAILED,
        "HTTP 401",
    )
    assert [r.event["type"] for r in helpdesk.received] == [
        "case.opened",
        "case.opened",
        "case.message",
    ]
    with db.session_scope() as session:
        # case.message was refused too, and waits for its next attempt.
        assert webhook_sender.progress(session) == "1 queued, 1 failed (last failure: HTTP 401)"


def test_nothing_is_queued_without_the_url(
    no_cases: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CASE_WEBHOOK_URL", raising=False)
    take_and_close(open_case())
    assert statuses() == []
    assert WebhookSettings.from_env() is None


def test_deleting_a_persons_data_or_retention_deletes_their_events(
    publishing: WebhookSettings,
) -> None:
    mine = open_case()
    kept = open_case("visa", conversation="telegram-0badc0ffee0badc0ffee0badc0ffee0badc0ffee")
    with db.session_scope() as session:
        assert store.forget(session, [PERSON]) == 1
    with db.session_scope() as session:
        left = session.scalars(select(CaseEvent.case_id).distinct()).all()
        assert left == [kept] and session.get(Case, mine) is None
    with db.session_scope() as session:
        assert store.purge_inactive(session, NOW + timedelta(days=8)) == 1
    with db.session_scope() as session:
        assert session.scalar(select(func.count()).select_from(CaseEvent)) == 0
        assert session.scalar(select(func.count()).select_from(CaseMessage)) == 0


async def test_delete_my_data_asks_the_helpdesk_to_delete_and_its_unsent_lines_never_go(
    publishing: WebhookSettings, helpdesk: Helpdesk
) -> None:
    mine = open_case()
    await deliver(publishing, lambda: len(helpdesk.received) == 2)  # opened, the request
    unheard = open_case("visa", conversation="telegram-0badc0ffee0badc0ffee0badc0ffee0badc0ffee")
    with db.session_scope() as session:
        case = session.get(Case, mine)
        assert case is not None
        webhooks.message_written(session, case, Author.PERSON, "call me on 0799 111 222", NOW)
    privacy.forget_conversation(PERSON, NOW + timedelta(minutes=3))
    privacy.forget_conversation("telegram-0badc0ffee0badc0ffee0badc0ffee0badc0ffee", NOW)

    await deliver(publishing, lambda: len(helpdesk.received) == 3)
    assert helpdesk.events() == [
        ("case.opened", mine),
        ("case.message", mine),
        ("case.deleted", mine),  # never the line written after, nor the unheard-of case
    ]
    deleted = helpdesk.received[-1]
    assert verify(SECRET.encode(), deleted.headers, deleted.body)
    assert deleted.event["occurred_at"]["kabul"] == "2021-08-24T09:03:00+04:30"
    assert "0799" not in deleted.body.decode() and "message" not in deleted.event
    assert unheard not in {case_id for _, case_id in helpdesk.events()}
    # Nothing of either case is left here, not even the deletion once it was sent.
    assert statuses() == []


def test_a_malformed_url_queues_nothing_and_the_case_opens_all_the_same(
    no_cases: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from actions.settings import SettingsError

    monkeypatch.setenv("CASE_WEBHOOK_URL", "helpdesk.example.org/hooks")
    open_case()  # the case opens all the same
    assert statuses() == []
    with pytest.raises(SettingsError, match="CASE_WEBHOOK_URL"):
        WebhookSettings.from_env()


def test_a_malformed_url_leaves_the_helpdesk_out_of_the_notifier_not_the_alerts(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from actions.notifier import loop

    monkeypatch.setenv("CASE_WEBHOOK_URL", "https//helpdesk.example.org")
    assert loop.helpdesk_job() is None
    assert "CASE_WEBHOOK_URL is 'https//helpdesk.example.org'" in caplog.text
    monkeypatch.setenv("CASE_WEBHOOK_URL", "https://helpdesk.example.org/hooks")
    job = loop.helpdesk_job()
    assert job is not None and job.settings.url == "https://helpdesk.example.org/hooks"


def test_a_caseworkers_reply_is_a_case_message_of_its_own_author(
    publishing: WebhookSettings,
) -> None:
    """Where the reply delivery records a caseworker's reply, this is what the helpdesk gets."""
    case_id = open_case()
    with db.session_scope() as session:
        case = session.get(Case, case_id)
        assert case is not None
        reply = "مادرتان را در دروازه شرقی پیدا کردیم"
        webhooks.message_written(
            session, case, Author.CASEWORKER, reply, NOW + timedelta(minutes=9)
        )
    with db.session_scope() as session:
        last = session.scalars(select(CaseEvent).order_by(CaseEvent.id.desc())).first()
        assert last is not None and last.event_type == "case.message"
        assert json.loads(last.payload)["message"] == {
            "author": "caseworker",
            "text": reply,
            "written_at": {"utc": "2021-08-24T04:39:00Z", "kabul": "2021-08-24T09:09:00+04:30"},
        }


def open_webchat_case(number: int, at_seconds: float, request: str = "my child is bleeding") -> int:
    with db.session_scope() as session:
        return store.open_case(
            session,
            conversation_id=f"webchat-{number:040x}",
            channel="webchat",
            language="en",
            organisation=None,
            request=request,
            assistant_answers=[],
            now=NOW + timedelta(seconds=at_seconds),
        ).id


def queued_types() -> list[tuple[str, int]]:
    with db.session_scope() as session:
        rows = session.execute(
            select(CaseEvent.event_type, CaseEvent.case_id).order_by(CaseEvent.id)
        )
        return [(kind, case_id) for kind, case_id in rows]


async def test_a_web_chat_flood_reaches_the_helpdesk_as_one_surge_a_minute(
    publishing: WebhookSettings, helpdesk: Helpdesk, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASE_WEBHOOK_WEBCHAT_PER_MINUTE", "3")
    flood = [open_webchat_case(n, at_seconds=n * 0.1) for n in range(200)]  # 20 s
    genuine = open_case("my wife is injured and bleeding at abbey gate")  # WhatsApp: always
    events = queued_types()
    assert [kind for kind, _ in events].count("case.opened") == 4  # 3 web chat + WhatsApp
    assert [kind for kind, _ in events].count("case.surge") == 1
    assert ("case.surge", flood[3]) in events and ("case.opened", genuine) in events
    assert len(events) == 3 * 2 + 1 + 2  # not 400: opened + request for each announced case
    later = open_webchat_case(999, at_seconds=90)  # a minute after the surge began
    assert ("case.opened", later) in queued_types()

    # A quiet case's later lines and its close as abuse send nothing more.
    quiet = flood[10]
    with db.session_scope() as session:
        queue.close_as_abuse(session, [quiet], "farida", NOW + timedelta(minutes=5))
    assert not [e for e in queued_types() if e[1] == quiet]
    # A quiet case a caseworker takes is announced then, with the person's words so far.
    taken = flood[20]
    with db.session_scope() as session:
        assert queue.take(session, taken, "farida", NOW + timedelta(minutes=6)) == "farida"
    assert [kind for kind, case_id in queued_types() if case_id == taken] == [
        "case.opened",
        "case.message",
        "case.taken",
    ]
    await deliver(publishing, lambda: len(helpdesk.received) == len(queued_types()))
    surge = next(r.event for r in helpdesk.received if r.event["type"] == "case.surge")
    assert surge["surge"] == {"channels": ["rest", "webchat"], "per_minute": 3}
    assert surge["case"]["id"] == flood[3]
    message = next(
        r.event
        for r in helpdesk.received
        if r.event["type"] == "case.message" and r.event["case"]["id"] == taken
    )
    assert message["message"]["text"] == "my child is bleeding"
