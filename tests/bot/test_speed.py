"""Rasa's overheads removed (bot/speed/), each giving exactly what Rasa's own code gives:
action-server replies judged the same, events turned back into the same objects."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import ValidationError
from rasa.core.actions.action import RemoteAction
from rasa.shared.core.events import Event, UserUttered, deserialise_events
from rasa.shared.utils.common import all_subclasses
from rasa.utils.endpoints import EndpointConfig

from bot.speed import action_replies, event_types

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
