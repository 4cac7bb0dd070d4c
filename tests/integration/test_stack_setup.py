"""scripts/stack.py refuses setups that cannot work before it starts anything.

No servers here: these checks run before any process is spawned, on the real endpoints files.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from scripts.stack import (
    DEFAULT_ENDPOINTS,
    ROOT,
    Stack,
    StackError,
    embedded_stack,
    fresh_keys,
    required_variables,
    shared_store_problem,
    store_types,
)

PRODUCTION = ROOT / "endpoints.production.yml"
MODEL = ROOT / "models" / "assistant.tar.gz"
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
    with pytest.raises(StackError, match="shared stores"):
        stack(tmp_path, rasa_hosts=("198.18.0.11", "198.18.0.12")).check_setup()


def test_servers_on_hosts_of_their_own_are_reached_and_bound_there(tmp_path: Path) -> None:
    """`make cluster`: each Rasa server on its own address, the action server on another; what
    Rasa is told to call and what each binds to are those addresses, never loopback."""
    cluster = stack(
        tmp_path,
        rasa_hosts=("198.18.0.11", "198.18.0.12"),
        action_host="198.18.0.20",
        endpoints=PRODUCTION,
    )
    assert cluster.rasa_urls == ["http://198.18.0.11:5005", "http://198.18.0.12:5005"]
    assert cluster.rasa_url == "http://198.18.0.11:5005"
    assert [name for name, _, _ in cluster.rasa_servers()] == ["rasa", "rasa-2"]
    assert cluster._env()["ACTION_ENDPOINT_URL"] == "http://198.18.0.20:5055/webhook"
    command = cluster._rasa_command("198.18.0.12", 5005)
    assert command[command.index("--interface") + 1] == "198.18.0.12"


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


def test_endpoints_are_read_as_yaml_not_as_lines(tmp_path: Path) -> None:
    """Flow style, a nested ``type:`` and a variable in a comment: what Rasa reads, nothing else."""
    endpoints = tmp_path / "endpoints.yml"
    endpoints.write_text(
        "# lock_store:\n#   password: ${OLD_PASSWORD}\n"
        "tracker_store: {type: SQL, dialect: postgresql, db: '${TRACKER_DB_NAME}'}\n"
        "lock_store:\n  url: localhost\n  options:\n    type: in_memory\n"
        "  type: bot.locks.AtomicRedisLockStore\n"
    )
    assert store_types(endpoints) == {
        "tracker_store": "SQL",
        "lock_store": "bot.locks.AtomicRedisLockStore",
    }
    assert shared_store_problem(endpoints) is None
    assert required_variables(endpoints) == {"TRACKER_DB_NAME"}


def test_unset_variables_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PRODUCTION_VARIABLES:
        monkeypatch.setenv(name, "1")
    monkeypatch.delenv("REDIS_PASSWORD")
    monkeypatch.delenv("TRACKER_DB_NAME")
    with pytest.raises(StackError, match="REDIS_PASSWORD, TRACKER_DB_NAME"):
        stack(tmp_path, endpoints=PRODUCTION, rasa_workers=2).check_setup()
    monkeypatch.setenv("REDIS_PASSWORD", "")  # empty is a value
    stack(
        tmp_path,
        endpoints=PRODUCTION,
        rasa_workers=2,
        extra_env={"TRACKER_DB_NAME": "rasa", **fresh_keys()},
    ).check_setup()


KEY_NAMES = ("RASA_API_TOKEN", "CONVERSATION_ID_KEY", "ADDRESS_ENCRYPTION_KEY")


def without_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (*KEY_NAMES, "METRICS_TOKEN"):
        monkeypatch.delenv(name, raising=False)


def test_make_run_makes_every_key_once_and_keeps_it_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_keys(monkeypatch)
    var = tmp_path / "var"
    first, shown = embedded_stack(MODEL, "sqlite://", log_dir=tmp_path / "log", var_dir=var)
    env = first._env(**first.rasa_env)
    # Only Rasa unseals and hashes addresses: the other servers get the API token alone.
    assert "ADDRESS_ENCRYPTION_KEY" not in first._env() and "RASA_API_TOKEN" in first._env()
    for name in KEY_NAMES:
        assert env[name].strip(), name
    files = sorted(path.name for path in var.iterdir())
    assert files == [
        "address-encryption-key",
        "conversation-id-key",
        "metrics-token",
        "rasa-api-token",
    ]
    # Prometheus's token reaches every server, each serving /metrics.
    metrics = first._env()["METRICS_TOKEN"]
    assert metrics == env["METRICS_TOKEN"] == (var / "metrics-token").read_text().strip()
    for path in var.iterdir():
        assert (path.stat().st_mode & 0o777) == 0o600
        assert path.read_text().strip() not in shown  # named, never printed
    # The format `python -m bot.channels.addresses new-key` prints: 32 bytes, URL-safe base64.
    address_key = env["ADDRESS_ENCRYPTION_KEY"]
    assert len(address_key) == 44 and len(base64.urlsafe_b64decode(address_key)) == 32
    again, _ = embedded_stack(MODEL, "sqlite://", log_dir=tmp_path / "log", var_dir=var)
    assert {name: again._env(**again.rasa_env)[name] for name in KEY_NAMES} == {
        name: env[name] for name in KEY_NAMES
    }
    assert again._env()["METRICS_TOKEN"] == metrics
    first.check_setup()


def test_a_key_the_environment_sets_wins_and_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_keys(monkeypatch)
    monkeypatch.setenv("CONVERSATION_ID_KEY", "operator-chosen")
    var = tmp_path / "var"
    running, _ = embedded_stack(
        MODEL,
        "sqlite://",
        log_dir=tmp_path / "log",
        var_dir=var,
        extra_env={"ADDRESS_ENCRYPTION_KEY": base64.urlsafe_b64encode(bytes(32)).decode()},
    )
    rasa = running._env(**running.rasa_env)
    assert rasa["CONVERSATION_ID_KEY"] == "operator-chosen"
    assert rasa["ADDRESS_ENCRYPTION_KEY"] == base64.urlsafe_b64encode(bytes(32)).decode()
    assert sorted(path.name for path in var.iterdir()) == ["metrics-token", "rasa-api-token"]


def test_a_production_deployment_without_its_keys_refuses_and_names_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_keys(monkeypatch)
    for name in PRODUCTION_VARIABLES:
        monkeypatch.setenv(name, "1")
    var = tmp_path / "var"
    production, _ = embedded_stack(
        MODEL, "sqlite://", log_dir=tmp_path / "log", var_dir=var, endpoints=PRODUCTION
    )
    with pytest.raises(StackError) as refused:
        production.check_setup()
    for name in KEY_NAMES:
        assert name in str(refused.value)
    assert not var.exists()  # nothing made for it: its keys are shared by every machine
    monkeypatch.setenv("CONVERSATION_ID_KEY", "shared")
    with pytest.raises(StackError) as refused:
        production.check_setup()
    assert "CONVERSATION_ID_KEY" not in str(refused.value)
    assert "ADDRESS_ENCRYPTION_KEY" in str(refused.value)
    for name, value in fresh_keys(api_token=True).items():
        monkeypatch.setenv(name, value)
    production.check_setup()


def test_each_server_with_several_workers_counts_in_a_directory_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One directory for every server would be emptied by each that starts.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "everyone's"))
    running = stack(tmp_path, rasa_workers=2, action_workers=2)
    assert "PROMETHEUS_MULTIPROC_DIR" not in running._env()
    assert running._metrics_dir("rasa", 1) == {}  # one worker counts alone
    made = [
        Path(running._metrics_dir(name, 2)["PROMETHEUS_MULTIPROC_DIR"])
        for name in ("actions", "rasa", "rasa-2")
    ]
    assert len(set(made)) == 3 and all(path.is_dir() for path in made)
    running.stop()
    assert not any(path.exists() for path in made)


def test_make_run_lets_its_own_origin_frame_the_web_chat_unless_told_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_keys(monkeypatch)
    monkeypatch.delenv("WEBCHAT_ORIGINS", raising=False)
    var = tmp_path / "var"
    running, _ = embedded_stack(MODEL, "sqlite://", log_dir=tmp_path / "log", var_dir=var)
    assert running._env()["WEBCHAT_ORIGINS"] == "http://127.0.0.1:5005,http://localhost:5005"
    told, _ = embedded_stack(
        MODEL,
        "sqlite://",
        log_dir=tmp_path / "log",
        var_dir=var,
        extra_env={"WEBCHAT_ORIGINS": "https://ngo.example.org"},
    )
    assert told._env()["WEBCHAT_ORIGINS"] == "https://ngo.example.org"
    monkeypatch.setenv("WEBCHAT_ORIGINS", "https://help.example.net")
    again, _ = embedded_stack(MODEL, "sqlite://", log_dir=tmp_path / "log", var_dir=var)
    assert again._env()["WEBCHAT_ORIGINS"] == "https://help.example.net"
