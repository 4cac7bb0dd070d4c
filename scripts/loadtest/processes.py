"""CPU time and memory of the stack's processes, read from /proc (Linux)."""

from __future__ import annotations

import os
import resource
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
#: Processes of the shared services, counted together (other users of them count too).
SERVICES = ("postgres", "/usr/lib/postgresql", "redis-server")


def _stat(pid: int) -> tuple[int, float] | None:
    """(process group, CPU seconds) of a process; None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None
    return int(fields[2]), (int(fields[11]) + int(fields[12])) / TICKS


def _memory_mb(pid: int) -> tuple[float, float]:
    """(RSS, PSS) in MB. PSS shares pages among the processes using them: Sanic workers are
    forked after Rasa's imports, so their RSS counts the same pages several times."""
    rss = pss = 0.0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Rss:"):
                rss = int(line.split()[1]) / 1024
            elif line.startswith("Pss:"):
                pss = int(line.split()[1]) / 1024
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return rss, pss


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def _pids() -> Iterator[int]:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            yield int(entry.name)


def machine_cpu_seconds() -> float:
    """Busy CPU seconds of the whole machine (all cores) since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / TICKS


def services_cpu_seconds() -> float:
    total = 0.0
    for pid in _pids():
        if _command(pid).startswith(SERVICES):
            stat = _stat(pid)
            total += stat[1] if stat else 0.0
    return total


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Sampler:
    """Peak memory of every process of a stack, CPU seconds per server over a window.

    ``groups`` maps a server's name to its process id, which is also its process group
    (scripts/stack.py starts each in its own session); its Sanic workers are the group's
    other members.
    """

    groups: dict[str, int]
    peak_rss: dict[str, float] = field(default_factory=dict)
    peak_pss: dict[str, float] = field(default_factory=dict)
    _start: dict[str, float] = field(default_factory=dict)
    _end: dict[str, float] = field(default_factory=dict)

    def processes(self) -> Iterator[tuple[str, int]]:
        """(label, pid) of each server and each of its workers."""
        members: dict[int, list[int]] = defaultdict(list)
        for pid in _pids():
            stat = _stat(pid)
            if stat is not None:
                members[stat[0]].append(pid)
        for name, leader in self.groups.items():
            yield name, leader
            workers = sorted(pid for pid in members.get(leader, []) if pid != leader)
            for number, pid in enumerate(workers, 1):
                yield f"{name} worker {number}", pid

    def sample(self) -> None:
        for label, pid in self.processes():
            rss, pss = _memory_mb(pid)
            self.peak_rss[label] = max(self.peak_rss.get(label, 0.0), rss)
            self.peak_pss[label] = max(self.peak_pss.get(label, 0.0), pss)

    def _cpu(self) -> dict[str, float]:
        totals: dict[str, float] = defaultdict(float)
        for label, pid in self.processes():
            stat = _stat(pid)
            if stat is not None:
                totals[label.split(" worker")[0]] += stat[1]
        totals["PostgreSQL + Redis"] = services_cpu_seconds()
        totals["load client"] = own_cpu_seconds()
        totals["machine"] = machine_cpu_seconds()
        return dict(totals)

    def start_window(self) -> None:
        self._start = self._cpu()

    def end_window(self) -> None:
        self._end = self._cpu()

    def cpu_seconds(self) -> dict[str, float]:
        """CPU seconds in the window: each server, the services, this client, everything else."""
        # Never below 0: a process that ended in the window (a PostgreSQL backend) takes its
        # CPU time with it.
        used = {
            name: max(0.0, self._end.get(name, 0.0) - self._start.get(name, 0.0))
            for name in self._end
        }
        machine = used.pop("machine", 0.0)
        used["other processes"] = max(0.0, machine - sum(used.values()))
        return used
