"""The action server loads the chat's actions and what they need, not the whole service.

rasa-sdk imports every module of the package it is started on (``--actions actions.chat``). Run in
a fresh interpreter so that what this test process already imported does not count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
REGISTER = """
import json, sys
from rasa_sdk.executor import ActionExecutor
executor = ActionExecutor()
executor.register_package(sys.argv[1])
print(json.dumps({"actions": sorted(executor.actions),
                  "modules": sorted(m for m in sys.modules if m.startswith("actions."))}))
"""
#: Parts of the content runtime that have no business in a process answering Rasa's calls.
NOT_FOR_THE_ACTION_SERVER = (
    "actions.admin",
    "actions.content_cli",
    "actions.notifier",
    "actions.alerts.__main__",
    "actions.content.__main__",
    "actions.content.seed",
    "actions.cases.courier",
)


def registered(package: str) -> dict[str, list[str]]:
    out = subprocess.run(
        [sys.executable, "-c", REGISTER, package],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    ).stdout
    loaded: dict[str, list[str]] = json.loads(out.strip().splitlines()[-1])
    return loaded


def declared_actions() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "bot" / "domain").glob("*.yml"):
        domain = yaml.safe_load(path.read_text("utf-8")) or {}
        names |= {a for a in domain.get("actions") or [] if a.startswith("action_")}
    return names


def test_every_custom_action_of_the_domain_comes_from_the_chat_package() -> None:
    assert declared_actions() <= set(registered("actions.chat")["actions"])


def test_the_chat_package_leaves_the_console_notifier_and_command_lines_out() -> None:
    modules = registered("actions.chat")["modules"]
    loaded = [m for m in modules if m.startswith(NOT_FOR_THE_ACTION_SERVER)]
    assert loaded == []


def test_the_whole_package_would_load_them_which_is_what_this_guards_against() -> None:
    modules = registered("actions")["modules"]
    assert any(m.startswith("actions.admin.console") for m in modules)
