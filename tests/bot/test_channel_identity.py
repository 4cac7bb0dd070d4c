"""Conversation ids hide addresses (provider retries: tests/channels/test_memory.py)."""

from collections.abc import Iterator

import pytest

from bot.channels.identity import KEY_ENV, conversation_id, forget_key


@pytest.fixture(autouse=True)
def key_taken_again() -> Iterator[None]:
    forget_key()
    yield
    forget_key()


def test_id_is_stable_per_key_and_hides_the_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "key-one")
    first = conversation_id("sms", "+93700000101")
    assert first == conversation_id("sms", "+93700000101")
    assert "700000101" not in first and first.startswith("sms-")
    assert first != conversation_id("telegram", "+93700000101")  # channels never collide
    monkeypatch.setenv(KEY_ENV, "key-two")
    forget_key()  # a restart with another key
    assert conversation_id("sms", "+93700000101") != first  # without the key, no link
