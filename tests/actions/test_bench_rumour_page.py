"""The rumour-page benchmark runs end to end (small), so that it does not rot: the flood goes
through the chat's action, the stock rule shows it, the console's does not."""

from __future__ import annotations

import pytest

from actions.content import db
from scripts import bench_rumour_page as bench


def test_the_flood_is_on_the_stock_page_and_off_the_consoles(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(db.URL_ENV, "sqlite://")  # restored afterwards; the benchmark sets its own
    assert bench.main(["--senders", "3", "--rumours", "8"]) == 0
    shown = capsys.readouterr().out
    (row,) = [line for line in shown.splitlines() if line.startswith("| SQLite |")]
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    senders, turns, made, real_groups, stock, stock_made_up, new, new_made_up = cells[1:9]
    assert (senders, turns, real_groups) == ("3", "24", "1")
    # Under the old rule every made-up group is shown, newer than the real rumour.
    assert int(made) >= 6 and stock_made_up == made
    assert stock == f"{int(made) + 1} of {int(made) + 1}"
    assert (new, new_made_up) == ("1 of 1", "0")
    assert "machine" in shown and "CPUs" in shown


def test_the_made_up_rumours_differ() -> None:
    rumours = bench.made_up_rumours()
    assert len(set(rumours)) == bench.MADE_UP == 55
    assert all(r.startswith("is it true that the ") and r.endswith(" tomorrow") for r in rumours)
