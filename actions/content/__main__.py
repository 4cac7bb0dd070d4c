"""The content CLI, ``python -m actions.content COMMAND``; see ``actions/content_cli/``."""

from __future__ import annotations

import sys

from actions.content_cli.main import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
