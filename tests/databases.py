"""Which database servers the tests that run on each of them use this run (``TEST_DATABASES``).

Tests whose fixture is parametrized over the database run once per backend: on SQLite (what
``make run`` uses) and on PostgreSQL (what a deployment uses). ``make test`` runs both. ``make
check``, the loop before each commit, sets ``TEST_DATABASES=sqlite``: the same tests on SQLite
only, in a fraction of the time. Unset, both run, so a bare ``pytest`` misses nothing.
Both runtimes' conftests read it; stdlib and pytest only.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

ENV = "TEST_DATABASES"
#: Every backend, in the order the tests run on them.
BACKENDS = ("sqlite", "postgres")


def chosen(environ: dict[str, str] | None = None) -> tuple[str, ...]:
    """The backends ``TEST_DATABASES`` names (commas or spaces between them); all when unset.

    A name that is not a backend stops the run with the choices: a typo must not quietly skip
    a database.
    """
    value = (os.environ if environ is None else environ).get(ENV, "")
    names = [name for name in value.replace(",", " ").lower().split() if name]
    if not names:
        return BACKENDS
    unknown = sorted(set(names) - set(BACKENDS))
    if unknown:
        raise pytest.UsageError(
            f"{ENV}={value!r}: {', '.join(unknown)} is not a test database; "
            f"choose from {', '.join(BACKENDS)} (unset: both)"
        )
    return tuple(backend for backend in BACKENDS if backend in names)


def backend_params(postgres_id: str = "postgres") -> list[Any]:
    """Fixture params for the chosen backends; PostgreSQL's carry the ``postgres`` mark.

    ``postgres_id`` is the id PostgreSQL's runs already have in a file (``postgresql`` in the
    tracker store's tests), so that test names stay the same.
    """
    return [
        pytest.param(postgres_id, marks=pytest.mark.postgres, id=postgres_id)
        if backend == "postgres"
        else pytest.param(backend, id=backend)
        for backend in chosen()
    ]
