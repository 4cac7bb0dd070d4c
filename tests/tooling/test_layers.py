"""Which package may import which: the layers declared in pyproject.toml (``[tool.importlinter]``).

What an operator would notice if this broke: an edit whose alerts are skipped because the module
that queues them happened not to be imported, the notifier daemon loading the chat actions, or
the alert system and the cases each needing the other, so that neither can change alone.
``lint-imports`` reads the imports (nothing is imported) and checks every contract: the bot
runtime never loads the content runtime; the content runtime reaches the bot runtime's code only
through the shared kernel (``kernel/``), which itself imports neither runtime, nor Rasa, Sanic,
aiohttp or redis; the content runtime's own kernel < content < alerts < cases and the
question log < publishing < the chat's actions, the notifier and the command lines < the
console; content never reaches the alert system, the cases or the console, not even through
another module. Every change to content goes through publishing (``actions/publishing.py``).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ACTIONS = ROOT / "actions"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
#: Change content without alerts; only the content package itself and publishing call them.
CHANGES = {
    "actions.content.editing": {"publish", "reverify", "withdraw", "rollback"},
    "actions.content.seed.loader": {"load", "clear"},
}


def lint_imports(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` from the repository root, as ``make lint`` runs it (no cache written)."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def in_package(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_every_declared_layer_holds() -> None:
    checked = lint_imports()
    report = checked.stdout + checked.stderr
    assert checked.returncode == 0, report
    assert "0 broken" in report
    for contract in (
        "never loads the content runtime",
        "only through the shared kernel",
        "The shared kernel imports neither runtime",
        "Layers:",
        "Content never reaches",
    ):
        assert contract in report


def broken_probe(tmp_path: Path, name: str, source: str, forbidden: str) -> str:
    """``lint-imports``' report on one forbidden contract, ``name``, over this repository's
    packages and the libraries they import; the check must call it broken."""
    config = tmp_path / "importlinter.ini"
    config.write_text(
        "[importlinter]\n"
        "root_packages =\n    actions\n    bot\n    kernel\n"
        "include_external_packages = True\n"
        "[importlinter:contract:probe]\n"
        f"name = {name}\n"
        "type = forbidden\n"
        f"source_modules = {source}\n"
        f"forbidden_modules = {forbidden}\n",
        "utf-8",
    )
    checked = lint_imports("--config", str(config))
    report = checked.stdout + checked.stderr
    assert checked.returncode == 1, report
    assert f"{name} BROKEN" in report
    return report


def test_the_layer_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The contracts hold today; this shows the same check, on the same code, would say so if
    one did not: content's engine uses the shared unit of work, which a contract forbidding
    ``actions.content`` to import ``actions.common`` must report, naming the line."""
    name = "Content stands on nothing of ours"
    report = broken_probe(tmp_path, name, "actions.content", "actions.common")
    assert "actions.content.db -> actions.common.transactions" in report


def test_the_kernel_check_sees_an_external_package(tmp_path: Path) -> None:
    """The kernel's contract forbids packages outside the repository (Rasa, redis): the same
    check reports one the kernel does use, SQLAlchemy in the shared tables, naming the line."""
    report = broken_probe(tmp_path, "The kernel needs no database library", "kernel", "sqlalchemy")
    assert "kernel.contentdb.tables -> sqlalchemy" in report


def test_every_change_to_content_outside_it_goes_through_publishing() -> None:
    """Calling the editing service directly would record a change and queue no alert."""
    callers = []
    for path in [*ACTIONS.rglob("*.py"), *(ROOT / "scripts").rglob("*.py")]:
        name = module_name(path)
        if in_package(name, "actions.content") or name == "actions.publishing":
            continue
        tree = ast.parse(path.read_text("utf-8"))
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    if node.module in CHANGES and alias.name in CHANGES[node.module]:
                        callers.append(f"{path.relative_to(ROOT)}:{node.lineno} {alias.name}")
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    aliases[alias.asname or alias.name] = alias.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                module = aliases.get(node.value.id)
                if module in CHANGES and node.attr in CHANGES[module]:
                    callers.append(f"{path.relative_to(ROOT)}:{node.lineno} {module}.{node.attr}")
    assert callers == []
