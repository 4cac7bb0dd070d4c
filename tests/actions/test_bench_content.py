"""The content benchmark runs end to end (on a small data set), so that it does not rot."""

from __future__ import annotations

import pytest

from actions.content import db
from scripts import bench_content


def test_the_benchmark_prints_a_row_per_question(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(db.URL_ENV, "sqlite://")  # restored afterwards; the benchmark sets its own
    argv = ["--runs", "5", "--flights", "300", "--announcements", "20"]
    assert bench_content.main(argv) == 0
    shown = capsys.readouterr().out
    assert "- Machine: " in shown and " CPUs (nproc), " in shown
    header = "| action | SQLite p50 | SQLite p95 | SQLite p99 |"
    rows = shown.split(header, 1)[1].strip().splitlines()[1:]
    names = [row.split(" | ")[0].removeprefix("| ") for row in rows]
    assert names == [scenario.name for scenario in bench_content.scenarios("2021-08-26", "X1")]
    assert all(len(row.split("|")) == 6 for row in rows)
