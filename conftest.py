"""Keeps a bare ``pytest`` from mixing the two runtimes' tests (``tests/runtimes.py``).

``pytest`` alone collects every directory under tests/, but each needs its own venv: a
directory of the other runtime becomes one collection error naming the command that runs it,
and none of its conftests or modules is imported.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.runtimes import wrong_runtime


class OtherRuntimesTests(Exception):
    """A test directory asked for in the venv that cannot run it."""


class OtherRuntime(pytest.Collector):
    """A test directory of the other runtime: it collects nothing and says which venv runs it.

    Not a ``pytest.Directory``: pytest would import the directory's conftest before collecting.
    """

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        raise OtherRuntimesTests(wrong_runtime(self.path))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, OtherRuntimesTests):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """The other runtime's directories are never entered (their imports would fail)."""
    if wrong_runtime(path) is None:
        return None
    return OtherRuntime.from_parent(parent, name=path.name, path=path)
