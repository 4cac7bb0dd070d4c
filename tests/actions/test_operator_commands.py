"""Operator commands as the README gives them: one clear line when something is in the way,
no traceback, no library chatter above the answer."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.actions.admin_support import REPO, command

BOT_PYTHON = REPO / ".venv" / "bot" / "bin" / "python"


@pytest.fixture
def database(tmp_path: Path, sqlite_template: Path) -> Path:
    path = tmp_path / "content.db"
    shutil.copyfile(sqlite_template, path)
    return path


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port something else listens on, as `make run`'s admin server does on 5056."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        yield listening.getsockname()[1]


def test_serve_on_a_taken_port_says_so_in_one_line_and_fails(
    database: Path, taken_port: int
) -> None:
    done = command(database, "actions.admin", "serve", "--port", str(taken_port))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines == [
        f"error: 127.0.0.1:{taken_port} is already in use; if `make run` is running, it serves "
        "the admin API and the console there already (or choose another --port)"
    ]


@pytest.mark.parametrize(
    ("action", "answer"),
    [
        ("status", "No alerts yet: they are queued when a change is published"),
        ("purge", "Deleted 0 expired subscription(s), 0 expired address(es)"),
    ],
)
def test_alert_commands_print_their_answer_once_and_nothing_else(
    database: Path, action: str, answer: str
) -> None:
    done = command(database, "actions.alerts", action)
    assert done.returncode == 0, done.stderr
    printed = (done.stdout + done.stderr).strip().splitlines()
    assert len(printed) == 1 and printed[0].startswith(answer), printed


@pytest.mark.parametrize(
    ("kind", "wording"),
    [
        ("airport", "Create or change an airport"),
        ("organisation", "Create or change an organisation"),
        ("announcement", "Create or change an announcement"),
        ("gate", "Create or change a gate"),
    ],
)
def test_publish_help_uses_the_right_article(database: Path, kind: str, wording: str) -> None:
    done = command(database, "actions.content", "publish", kind, "--help")
    assert done.returncode == 0 and wording in " ".join(done.stdout.split())


def test_the_conversation_purge_runs_without_the_servers_variables(tmp_path: Path) -> None:
    """`make purge` on a fresh clone: endpoints.yml names ACTION_SERVER_SECRET, which only
    `make run` sets; the purge needs only the tracker store's section."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("ACTION_SERVER_SECRET", "ACTION_ENDPOINT_URL")
    }
    env.update(PYTHONPATH=str(REPO), SQLALCHEMY_SILENCE_UBER_WARNING="1")
    env["PURGE_TEST_TRACKER_DB"] = str(tmp_path / "tracker.db")
    for endpoints, expected in (
        ("endpoints.yml", "keeps conversations in the server's memory"),
        (str(sql_endpoints(tmp_path)), "Deleted 0 conversation(s) older than 7 days"),
    ):
        done = subprocess.run(
            [str(BOT_PYTHON), "-m", "bot.stores", "purge", "--endpoints", endpoints],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert expected in done.stdout and "Traceback" not in done.stderr


def sql_endpoints(tmp_path: Path) -> Path:
    """endpoints.yml with a SQLite tracker store (its own variable expanded, the action
    server's secret still unset)."""
    text = (REPO / "endpoints.yml").read_text(encoding="utf-8")
    store = (
        "tracker_store:\n  type: bot.stores.ForgetfulSQLTrackerStore\n  dialect: sqlite\n"
        "  db: ${PURGE_TEST_TRACKER_DB}\n"
    )
    text = text.replace("tracker_store:\n  type: bot.stores.ForgetfulInMemoryTrackerStore\n", store)
    path = tmp_path / "endpoints.sql.yml"
    path.write_text(text, encoding="utf-8")
    return path
