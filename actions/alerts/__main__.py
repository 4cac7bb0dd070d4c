"""``python -m actions.alerts serve | status | purge``: the notifier's commands
(``actions/notifier/commands.py``), under the name operators know. A launcher only: nothing in
the alert system imports the notifier, which sits above it."""

from __future__ import annotations

import sys

from actions.notifier.commands import main

if __name__ == "__main__":
    sys.exit(main())
