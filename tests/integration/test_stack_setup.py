"""scripts/stack.py refuses setups that cannot work before it starts anything.

No servers here: these checks run before any process is spawned, on the real endpoints files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scripts.stack import (
    DEFAULT_ENDPOINTS,
    ROOT,
    Stack,
    StackError,
    required_variables,
    shared_store_problem,
    store_types,
)

PRODUCTION = ROOT / "endpoints.production.yml"
PRODUCTION_VARIABLES = {
    "ACTION_ENDPOINT_URL",
    "ACTION_SERVER_SECRET",
    "TRACKER_DB_HOST",
    "TRACKER_DB_PORT",
    "TRACKER_DB_NAME",
    "TRACKER_DB_USER",
    "TRACKER_DB_PASSWORD",
    "REDIS_HOST",
    "REDIS_PORT",
    "REDIS_DB",
    "REDIS_PASSWORD",
    "REDIS_KEY_PREFIX",
}


def stack(tmp_path: Path, **options: Any) -> Stack:
    return Stack(ROOT / "models" / "assistant.tar.gz", "sqlite://", tmp_path, **options)


def test_production_endpoints_share_both_stores() -> None:
    types = store_types(PRODUCTION)
    assert types["tracker_store"] == "SQL" or "SQLTrackerStore" in str(types["tracker_store"])
    assert types["lock_store"] == "bot.locks.AtomicRedisLockStore"
    assert shared_store_problem(PRODUCTION) is None
    assert required_variables(PRODUCTION) == PRODUCTION_VARIABLES


def test_the_embedded_default_does_not() -> None:
    assert shared_store_problem(DEFAULT_ENDPOINTS) is not None


def test_several_workers_on_in_memory_stores_are_refused(tmp_path: Path) -> None:
    with pytest.raises(StackError, match="shared stores"):
        stack(tmp_path, rasa_workers=2).check_setup()
    with pytest.raises(StackError, match="shared stores"):
        stack(tmp_path, more_rasa_ports=(5006,)).check_setup()


def test_an_in_memory_tracker_store_with_a_redis_lock_is_refused(tmp_path: Path) -> None:
    endpoints = tmp_path / "endpoints.yml"
    endpoints.write_text(
        "action_endpoint:\n  url: http://x\n"
        "tracker_store:\n  type: bot.stores.ForgetfulInMemoryTrackerStore\n"
        "lock_store:\n  type: redis  # shared\n  url: localhost\n"
    )
    assert "tracker" in str(shared_store_problem(endpoints))
    with pytest.raises(StackError, match="tracker"):
        stack(tmp_path, endpoints=endpoints, rasa_workers=2).check_setup()


def test_unset_variables_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PRODUCTION_VARIABLES:
        monkeypatch.setenv(name, "1")
    monkeypatch.delenv("REDIS_PASSWORD")
    monkeypatch.delenv("TRACKER_DB_NAME")
    with pytest.raises(StackError, match="REDIS_PASSWORD, TRACKER_DB_NAME"):
        stack(tmp_path, endpoints=PRODUCTION, rasa_workers=2).check_setup()
    monkeypatch.setenv("REDIS_PASSWORD", "")  # empty is a value
    stack(
        tmp_path, endpoints=PRODUCTION, rasa_workers=2, extra_env={"TRACKER_DB_NAME": "rasa"}
    ).check_setup()
