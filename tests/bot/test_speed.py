"""Rasa's overheads removed (bot/speed/), each giving exactly what Rasa's own code gives:
action-server replies judged the same, events turned back into the same objects, the action
server called with the same headers — over one kept connection."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiohttp import web
from jsonschema import ValidationError
from rasa.core.actions.action import RemoteAction
from rasa.shared.core.events import Event, UserUttered, deserialise_events
from rasa.shared.utils.common import all_subclasses
from rasa.utils.endpoints import EndpointConfig

from bot.speed import action_replies, event_types, kept_connections

GOOD: list[dict[str, Any]] = [
    {"events": [], "responses": []},
    {
        "events": [{"event": "slot", "name": "topic", "value": "flights", "timestamp": None}],
        "responses": [{"text": "پرواز بعدی ساعت ۳ بعد از چاشت", "buttons": [], "custom": {}}],
    },
    {"events": [{"event": "action", "name": "action_listen"}], "responses": [{"text": "ok"}]},
]
BAD: list[dict[str, Any]] = [
    {"events": [{"name": "no event type"}], "responses": []},
    {"events": "not a list", "responses": []},
    {"events": [{"event": "slot", "name": 3}], "responses": []},
]


def rasa_verdict(result: dict[str, Any]) -> str | None:
    action = RemoteAction("action_x", EndpointConfig("http://localhost:5055/webhook"))
    try:
        RemoteAction._validate_action_result(action, result)
    except ValidationError as error:
        return error.message
    return None


@pytest.mark.parametrize("result", GOOD + BAD)
def test_same_verdict_and_message_as_rasa(
    result: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = rasa_verdict(result)
    monkeypatch.setattr(
        RemoteAction, "_validate_action_result", action_replies.validate_action_result
    )
    assert rasa_verdict(result) == expected
    assert (expected is None) == (result in GOOD)


def test_install_replaces_rasa_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        RemoteAction, "_validate_action_result", RemoteAction._validate_action_result
    )
    action_replies.install()
    assert RemoteAction._validate_action_result is action_replies.validate_action_result
    with pytest.raises(ValidationError, match="Failed to validate Action server response"):
        rasa_verdict_raising(BAD[0])


def rasa_verdict_raising(result: dict[str, Any]) -> None:
    action = RemoteAction("action_x", EndpointConfig("http://localhost:5055/webhook"))
    action._validate_action_result(result)


def test_every_event_type_resolves_to_rasas_class() -> None:
    names = {cls.type_name for cls in all_subclasses(Event)}
    assert {"user", "bot", "action", "slot", "pause", "resume", "session_started"} <= names
    for name in names:
        assert event_types.resolve_by_type(name) is event_types._original(name)


def test_unknown_event_types_behave_as_in_rasa() -> None:
    assert event_types.resolve_by_type("no-such-event", UserUttered) is UserUttered
    assert event_types.resolve_by_type("topic") is None  # Rasa's backwards compatibility
    with pytest.raises(ValueError, match="Unknown event name 'no-such-event'"):
        event_types.resolve_by_type("no-such-event")


def test_a_stored_conversation_reads_back_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    stored = [
        {"event": "user", "text": "پرواز بعدی؟", "parse_data": {"intent": {"name": "ask_flights"}}},
        {"event": "slot", "name": "language", "value": "prs"},
        {"event": "action", "name": "action_flights"},
        {"event": "bot", "text": "پرواز بعدی ساعت ۳ بعد از چاشت", "metadata": {}},
        {"event": "pause"},
        {"event": "resume"},
    ]
    expected = deserialise_events(stored)
    monkeypatch.setattr(Event, "resolve_by_type", Event.__dict__["resolve_by_type"])
    event_types.install()
    assert deserialise_events(stored) == expected
    assert [type(e) for e in deserialise_events(stored)] == [type(e) for e in expected]


async def test_action_calls_share_a_connection_and_keep_rasas_headers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[object, str | None]] = []

    async def webhook(request: web.Request) -> web.Response:
        seen.append(
            (
                request.transport.get_extra_info("peername") if request.transport else None,
                request.headers.get("X-Action-Server-Secret"),
            )
        )
        return web.json_response({"events": [], "responses": [{"text": await request.text()}]})

    app = web.Application()
    app.router.add_post("/webhook", webhook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(EndpointConfig, "session", EndpointConfig.session)  # restored after
    kept_connections.install()
    endpoint = EndpointConfig(
        f"http://127.0.0.1:{port}/webhook", headers={"X-Action-Server-Secret": "s3cret"}
    )
    try:
        answers = [await endpoint.request(json={"n": n}) for n in range(3)]
        await asyncio.sleep(kept_connections.KEEPALIVE_SECONDS + 0.5)
        answers.append(await endpoint.request(json={"n": 3}))  # after the idle connection went
    finally:
        await kept_connections.close_all()
        await runner.cleanup()
    assert [a["responses"][0]["text"] for a in answers] == [f'{{"n": {n}}}' for n in range(4)]
    assert {secret for _, secret in seen} == {"s3cret"}
    peers = [peer for peer, _ in seen]
    assert peers[0] == peers[1] == peers[2]  # one connection for the calls in a row
    assert peers[3] != peers[0]  # a fresh one after the keep-alive time
