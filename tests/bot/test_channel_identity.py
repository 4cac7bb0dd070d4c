"""Conversation ids hide addresses; provider retries are recognised."""

import pytest

from bot.channels.dedup import SeenMessages
from bot.channels.identity import KEY_ENV, conversation_id


def test_id_is_stable_per_key_and_hides_the_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "key-one")
    first = conversation_id("sms", "+93700000101")
    assert first == conversation_id("sms", "+93700000101")
    assert "700000101" not in first and first.startswith("sms-")
    assert first != conversation_id("telegram", "+93700000101")  # channels never collide
    monkeypatch.setenv(KEY_ENV, "key-two")
    assert conversation_id("sms", "+93700000101") != first  # without the key, no link


def test_retries_are_seen_once() -> None:
    seen = SeenMessages(capacity=2)
    assert seen.first_time("a")
    assert not seen.first_time("a")
    assert seen.first_time("b") and seen.first_time("c")
    assert seen.first_time("a")  # forgotten beyond capacity: memory stays bounded


def test_retries_expire() -> None:
    seen = SeenMessages(ttl_seconds=-1.0)  # everything is already older than the limit
    assert seen.first_time("a")
    assert seen.first_time("a")
