"""Which package may import which: content at the bottom, the alert system above it.

What an operator would notice if this broke: an edit whose alerts are skipped because the module
that queues them happened not to be imported, or the notifier daemon loading the chat actions.
So content never imports the alert system, not even through another module; publishing
(``actions/publishing.py``) sits above both, and every change to content goes through it.
Imports are read with ``ast``, nothing is imported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ACTIONS = ROOT / "actions"
#: Run, never imported: the CLI's launcher (``python -m actions.content``) starts the command
#: line, which lives above content; Alembic's environment needs every table, alerts' too.
LAUNCHERS = {"actions.content.__main__", "actions.content.migrations.env"}
#: Change content without alerts; only the content package itself and publishing call them.
CHANGES = {
    "actions.content.editing": {"publish", "reverify", "withdraw", "rollback"},
    "actions.content.seed.loader": {"load", "clear"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in ACTIONS.rglob("*.py")}


def imports(path: Path, known: set[str]) -> Iterator[tuple[int, str]]:
    """The actions modules ``path`` imports, with the line: ``from a import b`` names ``a.b``
    when that is a module, and importing a module runs its packages' ``__init__`` too."""
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            targets = [node.module]
            targets += [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            for end in range(1, len(parts) + 1):
                name = ".".join(parts[:end])
                if name in known:
                    yield node.lineno, name


def graph() -> dict[str, set[str]]:
    found = modules()
    return {
        name: {target for _, target in imports(path, set(found))} for name, path in found.items()
    }


def in_package(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def path_to(edges: dict[str, set[str]], start: str, package: str) -> list[str] | None:
    """The chain of imports from ``start`` to a module of ``package``, if there is one."""
    seen, todo = {start}, [[start]]
    while todo:
        chain = todo.pop(0)
        for target in sorted(edges.get(chain[-1], ())):
            if in_package(target, package):
                return [*chain, target]
            if target not in seen:
                seen.add(target)
                todo.append([*chain, target])
    return None


def test_no_content_module_imports_the_alert_system() -> None:
    found = modules()
    direct = [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for name, path in found.items()
        if in_package(name, "actions.content")
        for line, target in imports(path, set(found))
        if in_package(target, "actions.alerts")
    ]
    assert direct == []


def test_no_content_module_reaches_the_alert_system_through_another() -> None:
    edges = graph()
    chains = [
        " -> ".join(chain)
        for name in sorted(edges)
        if in_package(name, "actions.content") and name not in LAUNCHERS
        for chain in [path_to(edges, name, "actions.alerts")]
        if chain is not None
    ]
    assert chains == []


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


def test_the_layer_checks_see_a_forbidden_import(tmp_path: Path) -> None:
    """The checks above find nothing today; this one shows they would find something."""
    written = tmp_path / "example.py"
    written.write_text("from actions.alerts import outbox\nimport actions.content.db\n", "utf-8")
    known = {"actions", "actions.alerts", "actions.alerts.outbox", "actions.content"}
    known |= {"actions.content.db"}
    assert sorted(set(imports(written, known))) == [
        (1, "actions"),
        (1, "actions.alerts"),
        (1, "actions.alerts.outbox"),
        (2, "actions"),
        (2, "actions.content"),
        (2, "actions.content.db"),
    ]
    edges = {"actions.content.x": {"actions.content.y"}, "actions.content.y": {"actions.alerts"}}
    assert path_to(edges, "actions.content.x", "actions.alerts") == [
        "actions.content.x",
        "actions.content.y",
        "actions.alerts",
    ]
