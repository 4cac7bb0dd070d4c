"""The lock files: the one place for versions, each runtime's installable without the dev tools.

What a developer or an operator would notice: pyproject.toml drifting from the locks fails
`make lint` with a sentence naming the package; a production venv from a runtime lock alone lacks
nothing its packages need; the test and lint tools are not in a production install.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from scripts.locks import (
    REQUIREMENTS,
    ROOT,
    all_locks,
    disagreements,
    read_groups,
    read_lock,
)

VENVS = {
    "bot": ROOT / ".venv" / "bot" / "bin" / "python",
    "actions": ROOT / ".venv" / "actions" / "bin" / "python",
}
DEV_TOOLS = (
    "pytest",
    "pytest-asyncio",
    "iniconfig",
    "ruff",
    "mypy",
    "playwright",
    "pre-commit",
    "py-spy",
)


def _copy(tmp_path: Path) -> Path:
    """pyproject.toml and requirements/ as they are, in a folder a test may change."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(REQUIREMENTS, tmp_path / "requirements")
    return tmp_path


def _problems(root: Path) -> list[str]:
    return disagreements(read_groups(root / "pyproject.toml"), all_locks(root / "requirements"))


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def _run(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [str(python), str(ROOT / "scripts" / "locks.py"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_pyproject_and_the_locks_agree_as_committed() -> None:
    result = _run(VENVS["actions"], "agree")
    assert (result.returncode, result.stderr) == (0, "")


def test_every_lock_has_its_group_and_every_group_its_lock() -> None:
    groups = read_groups(ROOT / "pyproject.toml")
    assert set(groups) == {"bot", "actions", "dev-bot", "dev-actions"}
    assert set(all_locks(REQUIREMENTS)) == set(groups)


@pytest.mark.parametrize("runtime", ["bot", "actions"])
def test_a_production_install_gets_no_test_or_lint_tool(runtime: str) -> None:
    pins = read_lock(REQUIREMENTS / f"{runtime}.lock")
    assert [tool for tool in DEV_TOOLS if tool in pins] == []
    assert "pytest" in read_lock(REQUIREMENTS / f"dev-{runtime}.lock")


def test_a_lock_pin_outside_its_range_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _replace(root / "requirements" / "dev-actions.lock", "pytest==8.3.5", "pytest==9.0.0")
    _replace(root / "requirements" / "dev-bot.lock", "pytest==8.3.5", "pytest==9.0.0")
    assert _problems(root) == [
        "dev-bot: dev-bot.lock pins pytest==9.0.0, outside pytest<9,>=8.3",
        "dev-actions: dev-actions.lock pins pytest==9.0.0, outside pytest<9,>=8.3",
    ]


def test_a_direct_dependency_missing_from_its_lock_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _replace(root / "requirements" / "actions.lock", "alembic==1.20.1\n", "")
    assert _problems(root) == ["actions: alembic is not pinned in actions.lock"]


def test_a_dev_tool_pinned_again_in_the_runtime_lock_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    with (root / "requirements" / "actions.lock").open("a", encoding="utf-8") as lock:
        lock.write("ruff==0.17.6\n")
    assert _problems(root) == ["ruff is pinned in both actions.lock and dev-actions.lock"]


def test_two_dev_locks_pinning_one_tool_differently_are_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _replace(root / "requirements" / "dev-bot.lock", "iniconfig==2.3.1", "iniconfig==2.1.0")
    assert _problems(root) == ["iniconfig: dev-actions.lock pins 2.3.1, dev-bot.lock 2.1.0"]


def test_a_group_without_a_range_or_without_a_lock_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _replace(root / "pyproject.toml", '"ruff>=0.17,<0.18",', '"ruff",')
    _replace(root / "pyproject.toml", "dev-bot = [", 'docs = ["sphinx>=7"]\ndev-bot = [')
    assert _problems(root) == [
        "group 'docs' of pyproject.toml has no requirements/docs.lock",
        "dev-actions: ruff needs a version range",
    ]


def test_pins_in_project_dependencies_are_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _replace(
        root / "pyproject.toml",
        'requires-python = ">=3.10,<3.12"',
        'requires-python = ">=3.10,<3.12"\ndependencies = ["rasa==3.6.21"]',
    )
    with pytest.raises(ValueError, match="keep \\[project\\] dependencies empty"):
        read_groups(root / "pyproject.toml")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("rasa>=3.6\n", "lock:1: expected name==version, found 'rasa>=3.6'"),
        ("# header\nrasa==3.6.21\nRasa==3.6.20\n", "lock:3: Rasa is pinned twice"),
    ],
)
def test_a_malformed_lock_line_is_refused_with_its_number(
    tmp_path: Path, text: str, problem: str
) -> None:
    lock = tmp_path / "lock"
    lock.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        read_lock(lock)
    assert str(raised.value) == problem


@pytest.mark.parametrize("runtime", ["bot", "actions"])
def test_each_runtime_lock_alone_holds_what_its_packages_need(runtime: str) -> None:
    result = _run(VENVS[runtime], "complete", str(REQUIREMENTS / f"{runtime}.lock"))
    assert (result.returncode, result.stderr) == (0, "")


def test_a_runtime_lock_missing_a_dependency_is_refused(tmp_path: Path) -> None:
    lock = tmp_path / "actions.lock"
    lines = (REQUIREMENTS / "actions.lock").read_text(encoding="utf-8").splitlines()
    lock.write_text(
        "\n".join(line for line in lines if not line.startswith("multidict==")), encoding="utf-8"
    )
    result = _run(VENVS["actions"], "complete", str(lock))
    assert result.returncode == 1
    assert (
        "locks: actions.lock: aiohttp needs multidict<8.0,>=4.5, which the lock does not pin"
        in result.stderr.splitlines()
    )


def test_a_dev_lock_alone_is_not_complete(tmp_path: Path) -> None:
    """The dev tools lean on the runtime's packages, which the dev lock does not repeat."""
    result = _run(VENVS["actions"], "complete", str(REQUIREMENTS / "dev-actions.lock"))
    assert result.returncode == 1
    assert "playwright needs greenlet<4.0.0,>=3.1.1, which the lock does not pin" in result.stderr


def test_an_unreadable_lock_is_an_error_not_a_pass(tmp_path: Path) -> None:
    result = _run(VENVS["actions"], "complete", str(tmp_path / "missing.lock"))
    assert result.returncode == 2
    assert result.stderr.startswith("locks: ")
