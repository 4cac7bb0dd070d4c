"""The git hooks of .pre-commit-config.yaml, run by pre-commit itself in a repository of their own.

What a developer notices: a commit with an unused import or unformatted code is stopped, with
ruff's message; a lock that leaves pyproject.toml's range is stopped; nothing is downloaded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from scripts.locks import ROOT

CONFIG = ROOT / ".pre-commit-config.yaml"
PRE_COMMIT = Path(sys.executable).parent / "pre-commit"


def test_every_hook_is_local_and_runs_the_projects_own_tools() -> None:
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert [repo["repo"] for repo in config["repos"]] == ["local"]
    assert {hook["language"] for hook in hooks} == {"system"}
    assert all(hook["entry"].startswith((".venv/actions/bin/", "make ")) for hook in hooks)
    assert [hook["id"] for hook in hooks] == ["ruff-check", "ruff-format", "locks-agree", "mypy"]


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A git repository with the hooks, the tool settings, the locks and the project's venvs."""
    if not PRE_COMMIT.exists():
        problem = f"{PRE_COMMIT} is missing: make setup installs it (requirements/dev-actions.lock)"
        if os.environ.get("CI") == "true":
            pytest.fail(problem)
        pytest.skip(problem)
    repo = tmp_path / "repo"
    repo.mkdir()
    for name in (".pre-commit-config.yaml", ".gitignore", "pyproject.toml", "Makefile"):
        shutil.copy(ROOT / name, repo / name)
    shutil.copytree(ROOT / "requirements", repo / "requirements")
    (repo / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "locks.py", repo / "scripts" / "locks.py")
    (repo / ".venv").symlink_to(ROOT / ".venv")
    (repo / "bot").mkdir()
    _git(repo, "init", "--quiet")
    return repo


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, timeout=60)


def _hook(repo: Path, hook: str, *files: str) -> subprocess.CompletedProcess[str]:
    _git(repo, "add", "--all")
    environment = {**os.environ, "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home")}
    command = [str(PRE_COMMIT), "run", hook, "--color", "never", "--files", *files]
    return subprocess.run(
        command, cwd=repo, env=environment, capture_output=True, text=True, timeout=300, check=False
    )


def test_an_unused_import_stops_the_commit(repository: Path) -> None:
    (repository / "bot" / "greeting.py").write_text(
        'import os\n\nGREETING = "salam"\n', encoding="utf-8"
    )
    result = _hook(repository, "ruff-check", "bot/greeting.py")
    assert result.returncode == 1
    assert "F401 [*] `os` imported but unused" in result.stdout


def test_clean_code_passes_the_ruff_hooks(repository: Path) -> None:
    (repository / "bot" / "greeting.py").write_text('GREETING = "salam"\n', encoding="utf-8")
    for hook in ("ruff-check", "ruff-format"):
        result = _hook(repository, hook, "bot/greeting.py")
        assert result.returncode == 0, result.stdout


def test_unformatted_code_is_formatted_and_the_commit_stopped(repository: Path) -> None:
    module = repository / "bot" / "greeting.py"
    module.write_text("GREETING = {'en':'hello','prs':'سلام'}\n", encoding="utf-8")
    result = _hook(repository, "ruff-format", "bot/greeting.py")
    assert result.returncode == 1
    assert "files were modified by this hook" in result.stdout
    assert module.read_text(encoding="utf-8") == 'GREETING = {"en": "hello", "prs": "سلام"}\n'


def test_a_lock_leaving_its_range_stops_the_commit(repository: Path) -> None:
    lock = repository / "requirements" / "dev-actions.lock"
    lock.write_text(lock.read_text(encoding="utf-8").replace("ruff==0.17.6", "ruff==0.18.0"))
    result = _hook(repository, "locks-agree", "requirements/dev-actions.lock")
    assert result.returncode == 1
    assert "dev-actions.lock pins ruff==0.18.0, outside ruff<0.18,>=0.17" in result.stdout
