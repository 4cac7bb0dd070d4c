"""Conversation ids hide addresses (provider retries: tests/channels/test_memory.py)."""

import pytest

from bot.channels.identity import KEY_ENV, conversation_id


def test_id_is_stable_per_key_and_hides_the_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "key-one")
    first = conversation_id("sms", "+93700000101")
    assert first == conversation_id("sms", "+93700000101")
    assert "700000101" not in first and first.startswith("sms-")
    assert first != conversation_id("telegram", "+93700000101")  # channels never collide
    monkeypatch.setenv(KEY_ENV, "key-two")
    assert conversation_id("sms", "+93700000101") != first  # without the key, no link
