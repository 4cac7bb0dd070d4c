"""`make check` skips `rasa data validate` only while its inputs are exactly as when it passed.

What a developer would notice: an edited, added, removed or renamed training file, domain file
or config makes `make check` validate again; nothing changed, it says it skipped; a fresh clone
(no stamp) validates. The Makefile's recipe is run for real, with a stand-in for Rasa that
records each call and passes or fails as told.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from scripts.unchanged import digest, is_same, main, write

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the validation's inputs, and a fake `rasa` that logs each run."""
    shutil.copy(ROOT / "config.yml", tmp_path / "config.yml")
    shutil.copytree(ROOT / "bot" / "domain", tmp_path / "bot" / "domain")
    shutil.copytree(ROOT / "data", tmp_path / "data")
    (tmp_path / "requirements").mkdir()
    for lock in ("bot.lock", "dev-bot.lock"):
        shutil.copy(ROOT / "requirements" / lock, tmp_path / "requirements" / lock)
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "unchanged.py", tmp_path / "scripts" / "unchanged.py")
    bin_dir = tmp_path / ".venv" / "bot" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(ROOT / ".venv" / "bot" / "bin" / "python")
    rasa = bin_dir / "rasa"
    rasa.write_text("#!/bin/sh\necho run >> rasa-runs\n[ ! -e rasa-fails ]\n", encoding="utf-8")
    rasa.chmod(0o755)
    (tmp_path / ".venv" / "bot" / ".installed").touch()
    return tmp_path


def make(project: Path, target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "-f", str(ROOT / "Makefile"), "--no-print-directory", target],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def runs(project: Path) -> int:
    log = project / "rasa-runs"
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_check_validates_a_fresh_clone_then_skips_until_an_input_changes(project: Path) -> None:
    first = make(project, "validate-if-changed")
    assert first.returncode == 0, first.stdout + first.stderr
    assert runs(project) == 1

    again = make(project, "validate-if-changed")
    assert again.returncode == 0
    assert runs(project) == 1
    assert "skipped" in again.stdout

    (project / "data" / "new.yml").write_text('version: "3.1"\n', encoding="utf-8")
    assert make(project, "validate-if-changed").returncode == 0
    assert runs(project) == 2


def test_a_failed_validation_is_run_again_next_time(project: Path) -> None:
    (project / "rasa-fails").touch()
    assert make(project, "validate-if-changed").returncode != 0
    (project / "rasa-fails").unlink()
    assert make(project, "validate-if-changed").returncode == 0
    assert runs(project) == 2


def test_make_validate_always_runs_even_with_a_fresh_stamp(project: Path) -> None:
    assert make(project, "validate").returncode == 0
    assert make(project, "validate").returncode == 0
    assert runs(project) == 2


@pytest.mark.parametrize(
    "change",
    ["edit", "add", "remove", "rename"],
)
def test_any_change_to_a_file_changes_the_digest(tmp_path: Path, change: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "nlu.yml").write_text("- hello\n", encoding="utf-8")
    (data / "rules.yml").write_text("- rule\n", encoding="utf-8")
    stamp = tmp_path / "stamp"
    write(stamp, [data])
    assert is_same(stamp, [data])
    if change == "edit":
        (data / "nlu.yml").write_text("- hello!\n", encoding="utf-8")
    elif change == "add":
        (data / "more.yml").write_text("", encoding="utf-8")
    elif change == "remove":
        (data / "rules.yml").unlink()
    else:
        (data / "rules.yml").rename(data / "stories.yml")
    assert not is_same(stamp, [data])


def test_a_missing_or_unreadable_stamp_is_not_the_same(tmp_path: Path) -> None:
    config = tmp_path / "config.yml"
    config.write_text("language: en\n", encoding="utf-8")
    assert main(["same", str(tmp_path / "none"), str(config)]) == 1
    (tmp_path / "garbage").write_bytes(b"\xff\xfe")
    assert main(["same", str(tmp_path / "garbage"), str(config)]) == 1
    assert main(["write", str(tmp_path / "var" / "stamp"), str(config)]) == 0
    assert main(["same", str(tmp_path / "var" / "stamp"), str(config)]) == 0
    assert digest([config]) != digest([config, tmp_path / "var" / "stamp"])
