"""Keep the lock files the one place for versions, and each runtime lock installable on its own.

requirements/<runtime>.lock pins everything a production install of that runtime needs;
requirements/dev-<runtime>.lock adds the development and test tools on top (`make setup`
installs both with ``--no-deps``). pyproject.toml names the direct dependencies with ranges,
one optional-dependencies group per lock file of the same name; this checks that they agree:

    python scripts/locks.py agree              # pyproject.toml's ranges against the locks
    python scripts/locks.py complete bot.lock  # installed packages of this venv: does that lock
                                               # alone hold everything they need?

``complete`` reads the metadata of the packages installed in the interpreter running it, so run
it with the venv of that runtime. Needs ``packaging`` (in both venvs).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pip carries the same parser
    from pip._vendor import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "requirements"
DEV_PREFIX = "dev-"

# A requirement a lock deliberately breaks, and why (README.md, "Python 3.11 and Rasa 3.6").
ACCEPTED = {("rasa", "matplotlib"): "rasa pins <3.6, which has no wheel for Python 3.11"}


@dataclass(frozen=True)
class Pin:
    """One ``name==version`` line of a lock file."""

    name: str
    version: Version
    line: int


def read_lock(path: Path) -> dict[str, Pin]:
    """The pins of a lock file by canonical name; anything but ``name==version`` is refused."""
    pins: dict[str, Pin] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        name, sep, version = text.partition("==")
        if not sep or not name.strip() or not version.strip():
            raise ValueError(f"{path.name}:{number}: expected name==version, found {raw!r}")
        key = canonicalize_name(name.strip())
        if key in pins:
            raise ValueError(f"{path.name}:{number}: {name.strip()} is pinned twice")
        pins[key] = Pin(name.strip(), Version(version.strip()), number)
    return pins


def read_groups(pyproject: Path) -> dict[str, list[Requirement]]:
    """pyproject.toml's optional-dependencies groups, each naming the lock of the same name."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    if project.get("dependencies"):
        raise ValueError(
            "pyproject.toml: keep [project] dependencies empty; each runtime has a group"
        )
    groups = project.get("optional-dependencies", {})
    return {group: [Requirement(text) for text in texts] for group, texts in groups.items()}


def disagreements(
    groups: Mapping[str, list[Requirement]], locks: Mapping[str, dict[str, Pin]]
) -> list[str]:
    """Where pyproject.toml and the locks drift apart: each problem as one sentence."""
    problems = [
        f"requirements/{lock}.lock has no group in pyproject.toml"
        for lock in locks
        if lock not in groups
    ]
    for group, requirements in groups.items():
        if group not in locks:
            problems.append(f"group {group!r} of pyproject.toml has no requirements/{group}.lock")
            continue
        for requirement in requirements:
            pin = locks[group].get(canonicalize_name(requirement.name))
            if not requirement.specifier:
                problems.append(f"{group}: {requirement.name} needs a version range")
            elif pin is None:
                problems.append(f"{group}: {requirement.name} is not pinned in {group}.lock")
            elif not requirement.specifier.contains(pin.version, prereleases=True):
                problems.append(
                    f"{group}: {group}.lock pins {pin.name}=={pin.version}, outside {requirement}"
                )
    for group in groups:
        runtime = group.removeprefix(DEV_PREFIX)
        if group.startswith(DEV_PREFIX) and group in locks and runtime in locks:
            for key in locks[group].keys() & locks[runtime].keys():
                problems.append(
                    f"{locks[group][key].name} is pinned in both {runtime}.lock and {group}.lock"
                )
    dev_locks = [group for group in locks if group.startswith(DEV_PREFIX)]
    for index, first in enumerate(dev_locks):
        for second in dev_locks[index + 1 :]:
            for key in locks[first].keys() & locks[second].keys():
                a, b = locks[first][key], locks[second][key]
                if a.version != b.version:
                    problems.append(
                        f"{a.name}: {first}.lock pins {a.version}, {second}.lock {b.version}"
                    )
    return problems


def unmet(
    pins: Mapping[str, Pin], installed: Iterable[importlib.metadata.Distribution]
) -> list[str]:
    """What the pinned packages need (for this interpreter, without extras) that the pins lack."""
    problems = []
    for distribution in installed:
        owner = canonicalize_name(distribution.metadata["Name"])
        if owner not in pins:
            continue
        for text in distribution.requires or []:
            try:
                requirement = Requirement(text)
            except InvalidRequirement:
                problems.append(f"{owner}: unreadable requirement {text!r}")
                continue
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
            needed = canonicalize_name(requirement.name)
            if (owner, needed) in ACCEPTED:
                continue
            pin = pins.get(needed)
            if pin is None:
                problems.append(f"{owner} needs {requirement}, which the lock does not pin")
            elif not requirement.specifier.contains(pin.version, prereleases=True):
                problems.append(f"{owner} needs {requirement}, the lock pins {pin.version}")
    return problems


def all_locks(folder: Path) -> dict[str, dict[str, Pin]]:
    """Every requirements/*.lock by its name without the suffix."""
    return {path.stem: read_lock(path) for path in sorted(folder.glob("*.lock"))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("agree", help="pyproject.toml's ranges against requirements/*.lock")
    complete = commands.add_parser("complete", help="a lock alone against this venv's packages")
    complete.add_argument("lock", type=Path, help="a lock file, e.g. requirements/bot.lock")
    args = parser.parse_args(argv)
    try:
        if args.command == "agree":
            problems = disagreements(read_groups(ROOT / "pyproject.toml"), all_locks(REQUIREMENTS))
        else:
            pins = read_lock(args.lock)
            problems = [
                f"{args.lock.name}: {p}" for p in unmet(pins, importlib.metadata.distributions())
            ]
            missing = [pin.name for key, pin in pins.items() if not _installed(key)]
            if missing:
                problems.append(f"{args.lock.name}: not installed here: {', '.join(missing)}")
    except (OSError, ValueError, KeyError, InvalidRequirement) as error:
        print(f"locks: {error}", file=sys.stderr)
        return 2
    for problem in problems:
        print(f"locks: {problem}", file=sys.stderr)
    return 1 if problems else 0


def _installed(name: str) -> bool:
    try:
        importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
