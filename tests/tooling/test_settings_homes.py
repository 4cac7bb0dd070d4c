"""Only the settings modules read the environment.

What an operator would notice if this broke: a variable read while a person's message is being
answered (a wrong value failing that person's turn instead of the start), read differently by
two modules, or missing from the settings' documentation. So ``os.environ`` and ``os.getenv``
appear only in each runtime's settings modules; everything else is given its values. Read
with ``ast``, nothing is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Where each runtime reads its environment.
SETTINGS_MODULES = {
    "kernel/settings.py",
    "bot/channels/settings.py",
    "actions/settings.py",
    "actions/admin/settings.py",
    "actions/alerts/notifier_settings.py",
}


def environment_reads(source: str) -> list[int]:
    """The lines of ``source`` that touch the environment: ``os.environ``, ``os.getenv``,
    ``os.putenv``, or ``environ``/``getenv`` imported from ``os``."""
    names = {"environ", "getenv", "putenv", "environb"}
    lines = []
    for node in ast.walk(ast.parse(source)):
        attribute = (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "os"
            and node.attr in names
        )
        imported = (
            isinstance(node, ast.ImportFrom)
            and node.module == "os"
            and any(alias.name in names for alias in node.names)
        )
        if attribute or imported:
            lines.append(node.lineno)
    return sorted(lines)


def readers() -> dict[str, list[int]]:
    found = {}
    for package in ("bot", "kernel", "actions"):
        for path in sorted((ROOT / package).rglob("*.py")):
            lines = environment_reads(path.read_text("utf-8"))
            if lines:
                found[path.relative_to(ROOT).as_posix()] = lines
    return found


def test_only_the_settings_modules_read_the_environment() -> None:
    strays = {
        module: lines for module, lines in readers().items() if module not in SETTINGS_MODULES
    }
    assert strays == {}, (
        "read these in the runtime's settings module and pass the values in: "
        + ", ".join(f"{module}:{lines}" for module, lines in strays.items())
    )


def test_every_way_of_reading_the_environment_is_found() -> None:
    caught = """
import os
from os import environ, getenv
a = os.environ["A"]
b = os.getenv("B")
def f(env=os.environ): ...
"""
    assert environment_reads(caught) == [3, 4, 5, 6]
    assert environment_reads("environ = {}\nvalue = settings.environ\n") == []


def test_the_scan_finds_each_settings_module_reading_it() -> None:
    """The scan reaches every file: each settings home is found reading the environment (a
    home that no longer reads it leaves ``SETTINGS_MODULES``)."""
    assert sorted(SETTINGS_MODULES - set(readers())) == []
