"""The action server's ``/metrics``, on the real process with two workers: every action Rasa
asked for is counted once, whichever worker ran it and whichever worker answers the scrape,
and only Prometheus's token reads it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from scripts.stack import free_port

ROOT = Path(__file__).resolve().parents[2]
SECRET = "action-secret-for-this-test"
TOKEN = "metrics-token-for-this-test"


def call(action: str, sender: str = "metrics-test") -> bytes:
    """A call as Rasa sends it for ``action`` in a new conversation."""
    tracker = {"sender_id": sender, "slots": {"language": "prs"}, "latest_message": {}}
    return json.dumps(
        {
            "next_action": action,
            "sender_id": sender,
            "tracker": {**tracker, "events": []},
            "domain": {"responses": {}},
            "version": "3.6.21",
        }
    ).encode()


def answer(url: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> int:
    """The status ``url`` answers; 0 while nothing listens there."""
    request = urllib.request.Request(
        url, body, {"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except urllib.error.URLError:
        return 0


def scrape(base: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    request = urllib.request.Request(
        f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
    )
    with urllib.request.urlopen(request, timeout=20) as response:
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = response.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def started(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "actions.server", "--actions", "actions.chat", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@pytest.fixture
def action_server(tmp_path: Path, sqlite_template: Path) -> Iterator[str]:
    database = tmp_path / "content.db"
    shutil.copyfile(sqlite_template, database)
    counts = tmp_path / "worker-counts"
    counts.mkdir()
    (counts / "counter_1.db").write_bytes(b"a run before's counts")  # emptied at the start
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "CONTENT_DB_URL": f"sqlite:///{database}",
        "ACTION_SERVER_SECRET": SECRET,
        "METRICS_TOKEN": TOKEN,
        "ACTION_SERVER_SANIC_WORKERS": "2",
        "PROMETHEUS_MULTIPROC_DIR": str(counts),
    }
    process = started(env, port)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while answer(f"{base}/health") != 200:
            assert process.poll() is None, process.stdout.read().decode() if process.stdout else ""
            assert time.monotonic() < deadline, "the action server did not start"
            time.sleep(0.3)
        yield base
    finally:
        os.killpg(process.pid, 15)
        # Sanic lets the two workers end their requests (15 s at most) before it stops; on a
        # loaded machine the stop itself takes longer.
        process.wait(timeout=60)


def test_each_action_run_is_counted_once_across_both_workers(action_server: str) -> None:
    secret = {"X-Action-Server-Secret": SECRET}
    before = scrape(action_server)
    assert not any(name.startswith("eia_actions") for name, _ in before)  # a run before's: gone
    for number in range(6):
        status = answer(
            f"{action_server}/webhook", call("action_answer_documents", f"p{number}"), secret
        )
        assert status == 200
    assert answer(f"{action_server}/webhook", call("action_nobody_wrote"), secret) == 404
    # Without the secret nothing runs, and nothing is counted.
    assert answer(f"{action_server}/webhook", call("action_answer_documents")) == 403

    # Whichever worker answers the scrape, it adds up both workers' counts.
    for _ in range(4):
        now = scrape(action_server)
        ok = (("action", "action_answer_documents"), ("outcome", "ok"))
        assert now[("eia_actions_total", ok)] == 6
        unknown = (("action", "unknown"), ("outcome", "not_found"))
        assert now[("eia_actions_total", unknown)] == 1
        timed = (("action", "action_answer_documents"),)
        assert now[("eia_action_duration_seconds_count", timed)] == 6
        assert now[("eia_action_duration_seconds_sum", timed)] > 0
        # A made-up name never becomes a label of its own.
        assert not any(dict(labels).get("action") == "action_nobody_wrote" for _, labels in now)


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer a-guess"}, {"Authorization": f"Basic {TOKEN}"}],
    ids=["none", "wrong", "not-bearer"],
)
def test_metrics_are_refused_without_the_token(action_server: str, headers: dict[str, str]) -> None:
    # The action server's secret is not Prometheus's token either.
    assert answer(f"{action_server}/metrics", None, headers) == 401
    assert answer(f"{action_server}/metrics", None, {"X-Action-Server-Secret": SECRET}) == 401


def test_two_workers_without_a_directory_to_count_in_do_not_start(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "CONTENT_DB_URL": f"sqlite:///{tmp_path / 'content.db'}",
        "ACTION_SERVER_SANIC_WORKERS": "2",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    process = started(env, free_port())
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 2
    assert b"PROMETHEUS_MULTIPROC_DIR is not set" in output
