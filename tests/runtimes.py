"""Which of the two environments each test directory runs in (docs/ARCHITECTURE.md).

Rasa's process (``.venv/bot``: Rasa 3.6, SQLAlchemy 1.4) and the content runtime
(``.venv/actions``: SQLAlchemy 2, psycopg 3, Alembic) cannot share one interpreter, so neither
can their tests. A test run in the wrong one fails on an import deep in Rasa or SQLAlchemy; the
root ``conftest.py`` and the directories' own conftests stop it first with the command to use.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Test directories (under tests/) by the runtime whose venv runs them.
DIRECTORIES: dict[str, tuple[str, ...]] = {
    "bot": ("bot", "channels", "nlu"),
    "actions": ("actions", "tooling", "integration", "journeys"),
}
RUNTIME_OF = {name: runtime for runtime, names in DIRECTORIES.items() for name in names}


def current_runtime() -> str | None:
    """The runtime this interpreter is: Rasa is only in the bot's, Alembic only in the content
    runtime's (whatever the venv's path, so a production-like install counts too)."""
    if importlib.util.find_spec("rasa") is not None:
        return "bot"
    if importlib.util.find_spec("alembic") is not None:
        return "actions"
    return None


def runtime_of(path: Path) -> str | None:
    """The runtime a test directory (or anything inside one) needs; None outside them."""
    try:
        parts = path.resolve().relative_to(ROOT / "tests").parts
    except ValueError:
        return None
    return RUNTIME_OF.get(parts[0]) if parts else None


def wrong_runtime(path: Path) -> str | None:
    """Why ``path``'s tests cannot run in this interpreter, with the command that runs them."""
    needed = runtime_of(path)
    here = current_runtime()
    if needed is None or needed == here:
        return None
    directories = " ".join(f"tests/{name}" for name in DIRECTORIES[needed])
    running = f"the {here} runtime's" if here else "an interpreter of neither runtime"
    return (
        f"tests/{path.resolve().relative_to(ROOT / 'tests').parts[0]} runs in .venv/{needed}, "
        f"not in {running}: .venv/{needed}/bin/pytest {directories} "
        "(or `make check`, which runs each directory in its own venv)"
    )


def require_runtime(conftest: str) -> None:
    """Stops a run of this conftest's directory in the wrong venv before its imports fail."""
    problem = wrong_runtime(Path(conftest).parent)
    if problem is not None:
        raise pytest.UsageError(problem)
