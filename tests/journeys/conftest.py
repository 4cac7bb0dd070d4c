"""Whole journeys as people walk them, on a stack started exactly as `make run` starts it.

``embedded_stack`` (scripts/stack.py) is the very function `make run` calls: the same servers,
notifier and console, the same keys made once in a ``var/`` folder (here a temporary one), the
same seeded demo content. Pages are opened in Debian's Chromium on a 360 px phone. A journey
asserts what the person sees or receives, never an internal detail; screenshots of each
journey's last screen go to ``results/journeys/``.
"""

from __future__ import annotations

from tests.runtimes import require_runtime

require_runtime(__file__)  # before the imports below fail in the other runtime's venv

import contextlib
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from scripts.browser import CHROMIUM, CHROMIUM_ARGS
from scripts.stack import INTAKE_JOURNAL_ENV, ROOT, Stack, seeded_embedded_stack

pytestmark = pytest.mark.integration

MODEL = ROOT / "models" / "assistant.tar.gz"
PHONE: ViewportSize = {"width": 360, "height": 740}
SCREENSHOTS = ROOT / "results" / "journeys"


@dataclass
class Running:
    """One `make run` stack and what a person or a member of staff reaches it by."""

    stack: Stack
    var_dir: Path
    db_url: str

    @property
    def env(self) -> dict[str, str]:
        """The environment of a command typed beside `make run` (README's CLI examples)."""
        return {**os.environ, "CONTENT_DB_URL": self.db_url, "PYTHONPATH": str(ROOT)}

    def cli(self, module: str, *args: str) -> str:
        """Run ``python -m module args`` as the README says to; its standard output."""
        done = subprocess.run(
            [sys.executable, "-m", module, *args],
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return done.stdout

    def invite(self, name: str, role: str = "editor") -> str:
        """The one-time sign-in link ``invite`` prints for ``name``; a caseworker answers the
        demo's organisation that takes cases."""
        answering = ("--organisation", "kabul-aid-network") if role == "caseworker" else ()
        out = self.cli("actions.admin", "invite", name, "--role", role, *answering)
        found = re.search(r"\S+/console/signin\?code=[\w-]+", out)
        assert found is not None, out
        return found.group(0)

    def say(self, sender: str, text: str) -> list[dict[str, Any]]:
        """One message over the REST channel of the README's examples; the replies."""
        request = urllib.request.Request(
            f"{self.stack.rasa_url}/webhooks/rest/webhook",
            json.dumps({"sender": sender, "message": text}).encode(),
            {"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return list(json.loads(response.read()))


def in_line(stack: Stack) -> int:
    """How many messages `make run`'s line (``var/intake.db``) holds now."""
    with contextlib.closing(sqlite3.connect(stack.rasa_env[INTAKE_JOURNAL_ENV])) as db:
        return int(db.execute("SELECT count(*) FROM intake_line").fetchone()[0])


def wait_for_the_line(stack: Stack, timeout: float = 60.0) -> None:
    """Until `make run`'s line of queued messages (Telegram, WhatsApp, the SMS channels) is
    empty: their provider has its 200 before the turn, and a message leaves the line only once
    its replies were handed to the provider. Nothing to wait for without the line."""
    if not stack.rasa_env.get(INTAKE_JOURNAL_ENV):
        return
    deadline = time.monotonic() + timeout
    while True:
        waiting = in_line(stack)
        if not waiting:
            return
        assert time.monotonic() < deadline, f"{waiting} messages still in line after {timeout} s"
        time.sleep(0.05)


def start_running(
    base: Path, extra_env: dict[str, str] | None = None, credentials: Path | None = None
) -> Running:
    """`make run`'s stack on a freshly seeded database in ``base/var``, started; ``extra_env``
    and ``credentials`` for a journey on a channel `make run` does not open (a fake provider's
    address, the SMS gateway's credentials)."""
    stack = seeded_embedded_stack(base, MODEL, extra_env, credentials)
    stack.start()
    return Running(stack, base / "var", stack.content_db_url)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """A fresh `make run` per journey module: journeys do not see each other's people."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    started = start_running(tmp_path_factory.mktemp("make-run"))
    try:
        yield started
    finally:
        started.stack.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make deps`")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


Phone = Callable[..., Page]


@pytest.fixture
def phone(browser: Browser) -> Iterator[Phone]:
    """Opens a new phone-sized page (``phone(locale="fa-AF")``); closed after the test."""
    contexts = []

    def open_phone(locale: str = "en-US", java_script_enabled: bool = True) -> Page:
        context = browser.new_context(
            viewport=PHONE,
            locale=locale,
            is_mobile=True,
            has_touch=True,
            java_script_enabled=java_script_enabled,
        )
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


def screenshot(page: Page, name: str) -> Path:
    """Keep what the person saw last, for the person reviewing the run."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
