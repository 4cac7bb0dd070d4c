"""Both servers as real processes on free ports, with a freshly seeded SQLite content database."""

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from scripts.stack import ROOT, Stack, free_port

MODEL = ROOT / "models" / "assistant.tar.gz"

Say = Callable[[str, str], list[dict[str, Any]]]


def _content_cli(db_url: str, *args: str) -> None:
    env = dict(os.environ, CONTENT_DB_URL=db_url, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "actions.content", *args], env=env, check=True, cwd=ROOT)


@pytest.fixture(scope="session")
def content_db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('content') / 'content.db'}"
    _content_cli(url, "migrate")
    _content_cli(url, "seed")
    return url


@contextmanager
def running_stack(
    content_db_url: str, tmp_path_factory: pytest.TempPathFactory, logs: str, **options: Any
) -> Iterator[Stack]:
    """Rasa and the action server on free ports, started, their logs in a folder named
    ``logs``; ``options``: the rest of ``Stack``'s (``extra_env``, ``with_notifier`` …).
    Stopped afterwards, also when the start fails."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    running = Stack(
        model=MODEL,
        content_db_url=content_db_url,
        log_dir=tmp_path_factory.mktemp(logs),
        rasa_port=free_port(),
        action_port=free_port(),
        **options,
    )
    try:
        running.start()
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def stack(content_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(content_db_url, tmp_path_factory, "logs") as running:
        yield running


def post_json(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture
def say(stack: Stack) -> Say:
    """Send one message over the REST channel; return the bot's replies."""

    def send(sender: str, text: str) -> list[dict[str, Any]]:
        return post_json(
            f"{stack.rasa_url}/webhooks/rest/webhook", {"sender": sender, "message": text}
        )

    return send
