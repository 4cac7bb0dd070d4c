"""A Rasa with a shared tracker store (production) refuses to start without its keys, and says
which; the embedded default starts without them (`make run` gives it its own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rasa.shared.exceptions import RasaException

from bot.channels import identity
from bot.deployment import missing_keys
from bot.server import conversation_key_for_workers, refuse_without_keys
from kernel.settings import unset_variables

ROOT = Path(__file__).resolve().parents[2]
KEYS = ("CONVERSATION_ID_KEY", "ADDRESS_ENCRYPTION_KEY")


def test_the_embedded_default_needs_no_key_given() -> None:
    assert missing_keys("bot.stores.ForgetfulInMemoryTrackerStore", set(KEYS)) == []
    assert missing_keys(None, set(KEYS)) == []


def test_a_shared_tracker_store_names_each_missing_key() -> None:
    unset = unset_variables(KEYS, {"CONVERSATION_ID_KEY": " "})
    lacking = missing_keys("bot.stores.ForgetfulSQLTrackerStore", unset)
    assert [entry.split(" ")[0] for entry in lacking] == list(KEYS)
    given = {"CONVERSATION_ID_KEY": "k", "ADDRESS_ENCRYPTION_KEY": "a" * 44}
    assert missing_keys("SQL", unset_variables(KEYS, given)) == []


def test_rasa_started_on_the_production_endpoints_without_keys_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in (*KEYS, "RASA_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    for name in ("ACTION_ENDPOINT_URL", "ACTION_SERVER_SECRET", "TRACKER_DB_HOST", "REDIS_HOST"):
        monkeypatch.setenv(name, "x")
    for name in ("TRACKER_DB_PORT", "REDIS_PORT", "REDIS_DB"):
        monkeypatch.setenv(name, "1")
    for name in ("TRACKER_DB_NAME", "TRACKER_DB_USER", "TRACKER_DB_PASSWORD"):
        monkeypatch.setenv(name, "rasa")
    monkeypatch.setenv("REDIS_PASSWORD", "")
    monkeypatch.setenv("REDIS_KEY_PREFIX", "")
    with pytest.raises(RasaException, match=r"CONVERSATION_ID_KEY.*ADDRESS_ENCRYPTION_KEY"):
        refuse_without_keys(str(ROOT / "endpoints.production.yml"))
    monkeypatch.setenv("CONVERSATION_ID_KEY", "k")
    monkeypatch.setenv("ADDRESS_ENCRYPTION_KEY", "a" * 44)
    refuse_without_keys(str(ROOT / "endpoints.production.yml"))
    monkeypatch.delenv("CONVERSATION_ID_KEY")
    refuse_without_keys(str(ROOT / "endpoints.yml"))  # the embedded default starts


def test_several_workers_without_a_conversation_key_refuse_to_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CONVERSATION_ID_KEY", raising=False)
    monkeypatch.setenv("SANIC_WORKERS", "4")
    with pytest.raises(RasaException, match=r"SANIC_WORKERS is 4.*CONVERSATION_ID_KEY"):
        conversation_key_for_workers()
    monkeypatch.setenv("SANIC_WORKERS", "four")
    with pytest.raises(RasaException, match=r"SANIC_WORKERS is 'four'"):
        conversation_key_for_workers()
    monkeypatch.setenv("SANIC_WORKERS", "1")
    assert conversation_key_for_workers() is None  # one worker makes its own, locally
    monkeypatch.setenv("SANIC_WORKERS", "4")
    monkeypatch.setenv("CONVERSATION_ID_KEY", "shared")
    assert conversation_key_for_workers() == b"shared"


def test_the_conversation_key_is_read_once_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    identity.forget_key()
    monkeypatch.setenv("CONVERSATION_ID_KEY", "at-start")
    first = identity.conversation_id("sms", "+93700000101")
    monkeypatch.setenv("CONVERSATION_ID_KEY", "changed-later")  # a message later: not read
    assert identity.conversation_id("sms", "+93700000101") == first
    identity.forget_key()
