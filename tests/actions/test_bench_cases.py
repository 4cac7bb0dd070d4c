"""The cases benchmark's in-process parts run end to end (small), so that it does not rot; the
real-stack part is run by `make bench-cases` (it needs a trained model)."""

from __future__ import annotations

import pytest

from actions.content import db
from scripts import bench_cases


def test_the_queue_and_webhook_parts_time_what_they_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(db.URL_ENV, "sqlite://")  # restored afterwards; the benchmark sets its own
    monkeypatch.delenv("CASE_WEBHOOK_URL", raising=False)
    argv = ["--parts", "queue,webhook", "--cases", "120", "--runs", "3", "--events", "3"]
    assert bench_cases.main(argv) == 0
    shown = capsys.readouterr().out
    rows = [line for line in shown.splitlines() if line.startswith("| ") and "p50" not in line]
    names = [line.split(" | ")[0].removeprefix("| ") for line in rows]
    assert names == [
        "SQLite: GET /console/cases",
        "SQLite, poll 1 s",
        "SQLite, poll 0.2 s",
    ]
    for line in rows:  # every figure a positive number of milliseconds
        figures = [float(cell) for cell in line.split(" | ")[1:4]]
        assert all(figure > 0 for figure in figures) and figures == sorted(figures)
    assert "120 open cases" in shown and "caseworker's reply" not in shown  # not asked for


def test_the_queue_page_is_read_by_its_case_links_only() -> None:
    page = (
        '<a href="/console/cases/12">…</a><a href="/console/cases/7">…</a>'
        '<a href="/console/cases">all</a><form action="/console/cases/12/take">'
    )
    assert bench_cases.case_ids(page) == {12, 7}


def test_an_unknown_part_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench_cases.main(["--parts", "queue,replies"])
    assert "unknown part(s) replies" in capsys.readouterr().err
