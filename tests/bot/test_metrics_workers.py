"""Rasa's ``/metrics`` with several Sanic workers: a start without a directory to add their
counts up in is refused (each scrape would read one worker's), and a run before's counts are
emptied out (the route itself: tests/integration/test_metrics.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rasa.shared.exceptions import RasaException

from bot.server import prepare_metrics_dir


def test_several_workers_without_a_directory_do_not_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    monkeypatch.setenv("SANIC_WORKERS", "3")
    with pytest.raises(RasaException, match=r"SANIC_WORKERS is 3.*PROMETHEUS_MULTIPROC_DIR"):
        prepare_metrics_dir()
    monkeypatch.setenv("SANIC_WORKERS", "1")
    prepare_metrics_dir()  # one worker counts alone


def test_the_workers_directory_is_emptied_before_they_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    counts = tmp_path / "counts"
    counts.mkdir()
    (counts / "counter_4242.db").write_bytes(b"a run before's counts")
    (counts / "README").write_text("kept: not a worker's file")
    monkeypatch.setenv("SANIC_WORKERS", "2")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(counts))
    prepare_metrics_dir()
    assert sorted(path.name for path in counts.iterdir()) == ["README"]
