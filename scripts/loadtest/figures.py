"""What the load reports (``bench_load.py``, ``bench_surge.py``) compute the same way: a
percentile of measured times and the machine they were measured on."""

from __future__ import annotations

import contextlib
import platform
from pathlib import Path


def percentile(values: list[float], share: float) -> float:
    """The value ``share`` of the way up the sorted ``values`` (nearest rank); NaN for none."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def cpu_model() -> str:
    """The processor's name from /proc/cpuinfo, for the report's machine line."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"
