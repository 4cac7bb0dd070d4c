"""``python -m actions.admin``: editor tokens and the admin HTTP API; see ``cli.py``."""

from __future__ import annotations

import sys

from actions.admin.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
