"""A Rasa with a shared tracker store (production) refuses to start without its keys, and says
which; the embedded default starts without them (`make run` gives it its own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rasa.shared.exceptions import RasaException

from bot.deployment import missing_keys
from bot.server import refuse_without_keys

ROOT = Path(__file__).resolve().parents[2]
KEYS = ("CONVERSATION_ID_KEY", "ADDRESS_ENCRYPTION_KEY")


def test_the_embedded_default_needs_no_key_given() -> None:
    assert missing_keys("bot.stores.ForgetfulInMemoryTrackerStore", {}) == []
    assert missing_keys(None, {}) == []


def test_a_shared_tracker_store_names_each_missing_key() -> None:
    lacking = missing_keys("bot.stores.ForgetfulSQLTrackerStore", {"CONVERSATION_ID_KEY": " "})
    assert [entry.split(" ")[0] for entry in lacking] == list(KEYS)
    given = {"CONVERSATION_ID_KEY": "k", "ADDRESS_ENCRYPTION_KEY": "a" * 44}
    assert missing_keys("SQL", given) == []


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
