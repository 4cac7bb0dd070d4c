"""What keeps the processes running: `make run`'s restarts and the systemd units."""

import configparser
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scripts.stack import ROOT, Child, Stack

UNITS = sorted((ROOT / "scripts" / "systemd").glob("*.service"))


def _stack(tmp_path: Path) -> Stack:
    return Stack(model=tmp_path / "model.tar.gz", content_db_url="sqlite://", log_dir=tmp_path)


def _child(stack: Stack, name: str, seconds: float) -> Child:
    """A stand-in server: a process that lives ``seconds``, started as the stack starts one."""
    command = [sys.executable, "-c", f"import time; time.sleep({seconds})"]
    stack._spawn(name, command)
    return stack._children[-1]


def test_a_child_that_died_is_started_again_with_growing_delays(tmp_path: Path) -> None:
    stack = _stack(tmp_path)
    child = _child(stack, "actions", 0)
    try:
        child.process.wait()
        said = stack.restart_dead()
        assert said and "actions stopped with code 0; starting it again in 1 s" in said[0]
        assert stack.restart_dead() == []  # not before its delay
        time.sleep(1.1)
        assert stack.restart_dead() == ["actions started again (restart 1)"]
        first = child.process
        first.wait()  # dies at once again: the next delay doubles
        assert "in 2 s" in stack.restart_dead()[0]
        assert child.process is first
    finally:
        stack.stop()


def test_a_running_child_is_left_alone_and_stop_ends_it(tmp_path: Path) -> None:
    stack = _stack(tmp_path)
    child = _child(stack, "rasa", 60)
    assert stack.restart_dead() == []
    stack.stop()
    assert child.process.poll() is not None


def test_every_unit_restarts_its_process_for_ever_without_root() -> None:
    assert {unit.name for unit in UNITS} == {
        "evacuee-rasa.service",
        "evacuee-actions.service",
        "evacuee-notifier.service",
        "evacuee-admin.service",
    }
    for unit in UNITS:
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.read_string(unit.read_text(encoding="utf-8"))
        service = parser["Service"]
        assert service["Restart"] == "always", unit.name
        assert parser["Unit"]["StartLimitIntervalSec"] == "0", unit.name
        assert service["User"] != "root", unit.name
        assert service["EnvironmentFile"].startswith("/etc/"), unit.name  # secrets not in git


def test_the_units_start_the_hardened_entry_points() -> None:
    commands = {unit.stem: unit.read_text(encoding="utf-8") for unit in UNITS}
    assert "-m bot.server run" in commands["evacuee-rasa"]
    assert "--auth-token" not in commands["evacuee-rasa"]  # the token stays out of `ps`
    assert "credentials.channels.yml" in commands["evacuee-rasa"]
    assert "-m actions.server" in commands["evacuee-actions"]


def test_the_units_are_valid_for_systemd() -> None:
    """systemd's own parser (it checks syntax; the /opt paths exist only on a server)."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed on this machine")
    for unit in UNITS:
        result = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", str(unit)],
            capture_output=True,
            text=True,
            check=False,
        )
        complaints = [
            line
            for line in (result.stderr + result.stdout).splitlines()
            if line.strip() and "/opt/evacuee-assistant/" not in line  # not installed here
        ]
        assert complaints == [], (unit.name, complaints)
