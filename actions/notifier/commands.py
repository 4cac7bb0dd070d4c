"""``python -m actions.alerts serve | status | purge`` (README "Alerts", docs/DATA_PROTECTION.md).

serve   send queued alerts, and caseworkers' replies, through Rasa's HTTP API until stopped
        (started by `make run`)
status  the latest alerts and how many are queued / sent / failed (and the helpdesk's case events)
purge   delete expired subscriptions and addresses and old deliveries (also run hourly by serve)
"""

from __future__ import annotations

import argparse
import logging
import sys

from actions import settings
from actions.alerts import outbox
from actions.cases import webhook_sender
from actions.cases.courier import CaseReplyOutbox
from actions.common.clock import utc_now
from actions.common.kabul_time import kabul
from actions.content.db import get_engine
from actions.content_cli.common import CommandError, command_transaction
from actions.notifier import loop, retention
from actions.settings import SettingsError

STATUS_ORDER = ("queued", "sending", "sent", "failed", "cancelled", "superseded")


def status(limit: int) -> int:
    with command_transaction(get_engine()) as session:
        helpdesk = webhook_sender.progress(session)
        if helpdesk is not None:
            print(f"Case events for the helpdesk: {helpdesk}")
        rows = outbox.latest(session, limit)
        if not rows:
            print("No alerts yet: they are queued when a change is published that has subscribers.")
            return 0
        for broadcast, counts in rows:
            shown = ", ".join(f"{counts[s]} {s}" for s in STATUS_ORDER if counts.get(s))
            print(
                f"#{broadcast.id} {kabul(broadcast.created_at)} "
                f"{broadcast.topic.value}/{broadcast.topic_key} by {broadcast.editor}: "
                f"{shown or 'no deliveries left (purged)'}"
            )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m actions.alerts",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve", help="send queued alerts until stopped")
    shown = commands.add_parser("status", help="progress of the latest alerts")
    shown.add_argument("--last", type=int, default=20)
    commands.add_parser("purge", help="delete what is past its retention period")
    args = parser.parse_args(argv)
    # The notifier logs what it sends; `status` and `purge` print their own answer, once.
    logging.basicConfig(
        level=logging.INFO if args.command == "serve" else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # Alembic says which database dialect it found whenever the schema version is checked.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    try:
        if args.command == "serve":
            loop.serve(more=[CaseReplyOutbox])
            return 0
        if args.command == "status":
            return status(args.last)
        with command_transaction(get_engine()) as session:
            purged = retention.purge(
                session,
                utc_now(),
                settings.conversation_retention(),
                settings.closed_case_retention(),
            )
        print(f"Deleted {purged}.")
        return 0
    except (SettingsError, CommandError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
