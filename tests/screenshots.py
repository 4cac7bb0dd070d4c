"""Where the browser tests keep the pictures the docs show: ``results/screenshots/``
(untracked), under the names they have in ``docs/``, so that a test run leaves the checkout as
it was. ``make screenshots`` copies them into ``docs/`` when the docs' pictures are to change.

Standard library only: both runtimes' tests import it."""

from __future__ import annotations

from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]
#: The last run's pictures for the docs (``results/`` is git-ignored and ``make clean`` empties it).
SCREENSHOTS: Final = ROOT / "results" / "screenshots"


def for_docs(name: str) -> Path:
    """Where a test saves the picture that ``docs/<name>`` shows."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / name
