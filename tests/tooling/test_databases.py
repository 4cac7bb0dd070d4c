"""`TEST_DATABASES` picks the databases the database tests run on; a typo never skips one quietly.

What a developer would notice: unset (a bare `pytest`, `make test`) both databases run; `make
check`'s "sqlite" leaves PostgreSQL's runs out, with the same test names as before; a name that
is not a database stops the run naming the choices.
"""

from __future__ import annotations

import pytest

from tests.databases import ENV, backend_params, chosen


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", ("sqlite", "postgres")),
        ("  ", ("sqlite", "postgres")),
        ("sqlite", ("sqlite",)),
        ("postgres", ("postgres",)),
        ("Postgres, SQLite", ("sqlite", "postgres")),
        ("sqlite postgres sqlite", ("sqlite", "postgres")),
    ],
)
def test_the_variable_names_the_databases(value: str, expected: tuple[str, ...]) -> None:
    assert chosen({ENV: value}) == expected


def test_unset_means_both() -> None:
    assert chosen({}) == ("sqlite", "postgres")


def test_a_name_that_is_no_database_stops_the_run() -> None:
    with pytest.raises(pytest.UsageError, match=r"mysql is not a test database; choose from"):
        chosen({ENV: "sqlite mysql"})


def test_postgresql_runs_keep_their_mark_and_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "sqlite postgres")
    params = backend_params("postgresql")
    assert [param.id for param in params] == ["sqlite", "postgresql"]
    assert [mark.name for mark in params[1].marks] == ["postgres"]
    assert not params[0].marks
    monkeypatch.setenv(ENV, "sqlite")
    assert [param.values for param in backend_params()] == [("sqlite",)]
