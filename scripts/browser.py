"""Debian's Chromium as the browser tests and benches launch it: Playwright's own browser
download would need the internet (`make deps` installs /usr/bin/chromium)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

CHROMIUM: Final = Path("/usr/bin/chromium")
#: Headless, and without the background traffic (updates, sync, QUIC) that would wait on a
#: network this machine does not have or blur what a test or a bench sees.
CHROMIUM_ARGS: Final = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
