"""Skip a slow check whose inputs have not changed since it last passed (``make check``).

``rasa data validate`` reads only the training data, the domain and the config (and depends on
Rasa's version, pinned in ``requirements/bot.lock``); it takes one to two minutes. ``make
validate`` writes a digest of those files to a stamp once it has passed; ``make check`` runs it
again only when the digest differs. ``make test`` always validates, and a fresh clone has no
stamp.

    python scripts/unchanged.py same  var/validated.sha256 config.yml bot/domain data
    python scripts/unchanged.py write var/validated.sha256 config.yml bot/domain data

``same`` exits 0 when the stamp holds the inputs' digest now, 1 otherwise (no stamp, a file
added, removed, renamed or edited); ``write`` records it. Standard library only: either venv
runs it.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path


def _files(inputs: Iterable[Path]) -> Iterator[Path]:
    """Every file of the inputs, directories walked, in a fixed order."""
    for path in sorted(inputs):
        if path.is_dir():
            yield from sorted(
                p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            )
        elif path.exists():
            yield path


def digest(inputs: Iterable[Path]) -> str:
    """One hash of the inputs' names (as given, so relative to where it runs) and contents: a
    renamed or moved file changes it as an edited one does; a missing input counts as absent."""
    hashed = hashlib.sha256()
    for path in _files(inputs):
        hashed.update(path.as_posix().encode() + b"\0")
        hashed.update(hashlib.sha256(path.read_bytes()).digest())
    return hashed.hexdigest()


def is_same(stamp: Path, inputs: Iterable[Path]) -> bool:
    """Whether ``stamp`` records the inputs exactly as they are now."""
    try:
        recorded = stamp.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return False
    return recorded == digest(inputs)


def write(stamp: Path, inputs: Iterable[Path]) -> None:
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(digest(inputs) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("same", "write"))
    parser.add_argument("stamp", type=Path)
    parser.add_argument("inputs", type=Path, nargs="+")
    arguments = parser.parse_args(argv)
    if arguments.command == "write":
        write(arguments.stamp, arguments.inputs)
        return 0
    return 0 if is_same(arguments.stamp, arguments.inputs) else 1


if __name__ == "__main__":
    sys.exit(main())
