"""`make mypy` checks the bot runtime, channels included, against Rasa's own annotations.

Run on a copy of bot/: clean it passes; a channel that hands Rasa a number where Rasa's
``UserMessage`` takes text fails, naming the file and line, which only happens when mypy reads
Rasa's annotations with .venv/bot's packages.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from scripts.locks import ROOT

MISUSE = """

def _misdelivered() -> None:
    from rasa.core.channels.channel import UserMessage

    UserMessage(text=42)
"""


def _mypy(folder: Path) -> subprocess.CompletedProcess[str]:
    """The Makefile's two mypy runs, on kernel/ and bot/ only (which files they check is the
    Makefile's)."""
    command = ["make", "-f", str(ROOT / "Makefile"), "--no-print-directory", "mypy"]
    command += ["MYPY_ACTIONS=kernel", "MYPY_BOT=bot"]
    return subprocess.run(
        command, cwd=folder, capture_output=True, text=True, timeout=300, check=False
    )


def test_a_channel_misusing_rasas_types_fails_make_mypy(tmp_path: Path) -> None:
    for package in ("bot", "kernel"):
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")

    clean = _mypy(tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr

    telegram = tmp_path / "bot" / "channels" / "telegram.py"
    lines = len(telegram.read_text(encoding="utf-8").splitlines())
    with telegram.open("a", encoding="utf-8") as module:
        module.write(MISUSE)
    broken = _mypy(tmp_path)
    assert broken.returncode != 0
    assert (
        f'bot/channels/telegram.py:{lines + 6}: error: Argument "text" to "UserMessage" has '
        'incompatible type "int"; expected "str | None"  [arg-type]'
    ) in broken.stdout
