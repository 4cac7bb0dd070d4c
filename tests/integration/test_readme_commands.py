"""Every shell command in README.md's fenced blocks, run as written against `make run`'s stack.

The commands are read from README.md itself, so a command changed there is tested as changed,
and a new one fails here until it is listed below: in ``EXPECTED`` (what it must print) or in
``LEFT_OUT`` (why it is not run here). The stack is ``scripts.stack.embedded_stack``, the very
function `make run` calls, on a seeded SQLite database in a temporary ``var/``.

Three rewritings and nothing else. The stack listens on free ports, so ``localhost:5005`` and
``localhost:5056`` become its ports, and ``actions.admin serve`` (5056 by default) is given the
stack's admin port. ``var/`` is the stack's own folder. ``$TOKEN`` holds the
token that ``token add`` showed, as the reader would copy it. Each command then runs in bash
from the repository's root, with the environment of a terminal beside `make run` (its
``CONTENT_DB_URL``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kernel.notices import try_again
from scripts.stack import ROOT
from tests.journeys.conftest import Running, start_running

pytestmark = pytest.mark.integration

README = ROOT / "README.md"
FENCE = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```$", re.S | re.M)
TOKEN = re.compile(r"\beia_[A-Za-z0-9_-]{43}\b")

#: Left out, each with its reason (a prefix of the command as README.md writes it).
LEFT_OUT: dict[str, str] = {
    "make run": "the stack these commands run against is started as `make run` starts it",
    "make deps": "installs Debian packages as root",
    "make test": "the whole suite (this test is part of it)",
    "make check": "lint, types and every unit test: part of make test already",
    "export ": "the production profile's variables, for its own `make run`",
    "make run    # the databases": "the production profile needs its PostgreSQL databases "
    "and Redis; tests/integration/test_shared_stores.py starts it",
    ".venv/actions/bin/pre-commit": "installs git hooks in the clone and lints every file",
}


def _json(out: str) -> object:
    return json.loads(out)


def _replies(out: str) -> str:
    """The texts of the REST channel's replies, joined; the answer must be a non-empty list."""
    replies = _json(out)
    assert isinstance(replies, list) and replies, out
    return "\n".join(str(reply.get("text", "")) for reply in replies)


@dataclass(frozen=True)
class Expected:
    """What a command must do: its exit status and a check of what it printed."""

    check: Callable[[str], bool]
    status: int = 0


#: Each command run, by a prefix of it, and what it must print.
EXPECTED: dict[str, Expected] = {
    "curl -s localhost:5005/webhooks/rest/webhook -H 'Content-Type: application/json' "
    '-d \'{"sender": "demo-1"': Expected(lambda out: "RCH871" in _replies(out)),
    "curl -s localhost:5005/webhooks/rest/webhook -H 'Content-Type: application/json' "
    '-d \'{"sender": "demo-2"': Expected(lambda out: "QR8010" in _replies(out)),
    "curl -s localhost:5005/webhooks/rest/webhook -H 'Content-Type: application/json' "
    '-d \'{"sender": "demo-3"': Expected(lambda out: "Abbey Gate" in _replies(out)),
    "curl -s localhost:5005/model/parse": Expected(
        lambda out: _json(out)["language"]["code"] == "ps"  # type: ignore[index]
    ),
    ".venv/actions/bin/python -m actions.content publish organisation kabul-aid-network": (
        # The demo already has these hours: saying so is the sensible answer.
        Expected(
            lambda out: (
                "amina updated organisation kabul-aid-network" in out
                or "Nothing changed: organisation kabul-aid-network already says that." in out
            )
        )
    ),
    ".venv/actions/bin/python -m actions.content publish airport KBL --state closed": Expected(
        lambda out: (
            re.search(r"Revision \d+: amina updated airport KBL \(state, advice", out) is not None
        )
    ),
    "curl -s localhost:5005/webhooks/rest/webhook -H 'Content-Type: application/json' "
    '-d \'{"sender": "editor-check"': Expected(
        lambda out: "closed" in _replies(out) and "All gates are closed" in _replies(out)
    ),
    ".venv/actions/bin/python -m actions.admin token add amina": Expected(
        lambda out: TOKEN.search(out) is not None
    ),
    # Beside `make run`, as its comment says: one line, exit 1, no traceback.
    ".venv/actions/bin/python -m actions.admin serve": Expected(
        lambda out: "is already in use; if `make run` is running" in out, status=1
    ),
    "curl -s -X PUT localhost:5056/records/airport/KBL": Expected(
        lambda out: _json(out)["record"]["values"]["state"] == "open"  # type: ignore[index]
    ),
    ".venv/bot/bin/python -m bot.channels.addresses new-key": Expected(
        lambda out: re.fullmatch(r"[A-Za-z0-9_=-]{40,}\s*", out) is not None
    ),
}


#: Commands README.md names in its prose rather than in a block, that an operator types beside
#: `make run`: run too (each must still be in README.md, between backquotes).
INLINE: dict[str, Expected] = {
    # With `make run` running; its conversations are in Rasa's memory, which forgets them itself.
    "make purge": Expected(
        lambda out: (
            "keeps conversations in the server's memory" in out
            and "Deleted 0 expired subscription(s)" in out
        )
    ),
    ".venv/actions/bin/python -m actions.alerts status": Expected(
        lambda out: out.startswith("#") or out.startswith("No alerts yet")
    ),
    ".venv/actions/bin/python -m actions.admin invite amina": Expected(
        lambda out: "/console/signin?code=" in out
    ),
}


def readme_commands(text: str) -> list[str]:
    """Each command of the fenced shell blocks: continued lines joined, comment lines left out."""
    commands = []
    for block in FENCE.findall(text):
        joined = re.sub(r"\\\n\s*", "", block)
        for line in joined.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                commands.append(" ".join(line.split()))
    return commands


def _listed(command: str, table: dict[str, object]) -> str | None:
    found = [prefix for prefix in table if command.startswith(" ".join(prefix.split()))]
    return max(found, key=len) if found else None


def run_list() -> list[tuple[str, str]]:
    """(command, its EXPECTED key) for every command not left out, in README order."""
    listed = []
    for command in readme_commands(README.read_text(encoding="utf-8")):
        expected, left_out = _listed(command, EXPECTED), _listed(command, LEFT_OUT)
        if left_out and (not expected or len(left_out) > len(expected)):
            continue
        listed.append((command, expected or ""))
    return listed


def test_every_readme_command_is_either_run_or_left_out_with_a_reason() -> None:
    unlisted = [command for command, expected in run_list() if not expected]
    assert not unlisted, f"add these to EXPECTED or LEFT_OUT: {unlisted}"
    run = {expected for _, expected in run_list()}
    assert run == set(EXPECTED), f"no longer in README.md: {set(EXPECTED) - run}"


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    started = start_running(tmp_path_factory.mktemp("make-run"))
    try:
        yield started
    finally:
        started.stack.stop()


def as_run_here(command: str, running: Running) -> str:
    rasa = running.stack.rasa_url.removeprefix("http://")
    admin = running.stack.admin_url.removeprefix("http://")
    command = command.replace("localhost:5005", rasa).replace("localhost:5056", admin)
    port = admin.rpartition(":")[2]
    command = command.replace("actions.admin serve", f"actions.admin serve --port {port}")
    return command.replace("$(cat var/", f"$(cat {running.var_dir}/")


def test_every_readme_command_works_as_written(running: Running) -> None:
    env = {**running.env, "PATH": os.environ.get("PATH", "")}
    failures = []
    inline = [(command, command) for command in INLINE]
    for command, key in [*run_list(), *inline]:
        expected = EXPECTED.get(key) or INLINE[key]
        done = subprocess.run(
            ["bash", "-c", as_run_here(command, running)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        out = done.stdout + done.stderr
        try:
            sensible = expected.check(done.stdout if expected.status == 0 else out)
        except (ValueError, KeyError, TypeError, AssertionError):
            sensible = False
        if done.returncode != expected.status or not sensible or "Traceback" in out:
            failures.append(f"{command}\n  exit {done.returncode}: {out[-600:]}")
        if found := TOKEN.search(done.stdout):
            env["TOKEN"] = found.group(0)
    assert not failures, "\n\n".join(failures)


def test_the_left_out_reasons_name_commands_still_in_the_readme() -> None:
    commands = readme_commands(README.read_text(encoding="utf-8"))
    for prefix in LEFT_OUT:
        assert any(command.startswith(" ".join(prefix.split())) for command in commands), prefix
    text = README.read_text(encoding="utf-8")
    for command in INLINE:
        assert f"`{command}`" in text, command


def test_paths_in_commands_exist() -> None:
    for command in readme_commands(README.read_text(encoding="utf-8")):
        for path in re.findall(r"(?<![\w/])\.venv/\S+", command):
            assert Path(ROOT / path).exists(), path


def test_the_readme_rest_channel_apologises_when_the_action_server_is_down(
    running: Running,
) -> None:
    """The README's REST ``curl`` with the action server gone: the web chat's apology, in the
    language of the conversation, not silence or a lone hint. (Runs last: it stops a server.)"""
    before = running.say("readme-dari", "پرواز بعدی چه وقت است؟")
    assert before and "ببخشید" not in " ".join(reply.get("text", "") for reply in before)
    actions = running.stack.processes()["actions"]
    os.killpg(actions.pid, signal.SIGKILL)
    actions.wait(timeout=30)
    replies = running.say("readme-dari", "دروازهٔ ابی باز است؟")
    texts = [reply.get("text", "") for reply in replies]
    assert try_again("prs", None) in "\n\n".join(texts), texts
