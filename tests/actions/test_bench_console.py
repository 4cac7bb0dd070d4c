"""The console benchmark runs end to end (on a small data set), so that it does not rot."""

from __future__ import annotations

import pytest

from actions.content import db
from scripts import bench_console


def test_the_benchmark_times_every_page_signed_in(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(db.URL_ENV, "sqlite://")  # restored afterwards; the benchmark sets its own
    arguments = ["--runs", "3", "--flights", "300", "--announcements", "20", "--turns", "2000"]
    assert bench_console.main(arguments) == 0
    shown = capsys.readouterr().out
    header = "| page | SQLite p50 | SQLite p95 | SQLite p99 |"
    rows = shown.split(header, 1)[1].strip().splitlines()[1:]
    names = [row.split(" | ")[0].removeprefix("| ") for row in rows]
    pages = [*bench_console.pages("X1@2021-08-26"), "preview a gate change"]
    assert names == [*pages, *bench_console.bench_questions.PAGES]
