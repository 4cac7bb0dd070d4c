"""A Sanic worker that SIGTERM reaches before its loop took the signal over stops (the
action server's and Rasa's servers with several workers: kernel/worker_start.py).

Each case runs in a process of its own, as Sanic's main process does: a SIGTERM handler that
only passes the signal on, then a worker forked from it that is still starting."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MAIN_PROCESS = textwrap.dedent(
    """
    import multiprocessing, os, signal, sys, time
    from kernel.worker_start import stop_unstarted_workers_on_term

    started = []
    # Sanic 21.12's serve_multiple: the main process passes SIGTERM on to its workers.
    signal.signal(signal.SIGTERM, lambda *_: [os.kill(p.pid, signal.SIGTERM) for p in started])
    if sys.argv[1] == "installed":
        stop_unstarted_workers_on_term()

    def starting_worker(ready):
        ready.send(True)
        time.sleep(30)  # still starting: its loop has not installed app.stop yet

    ours, theirs = multiprocessing.Pipe()
    worker = multiprocessing.get_context("fork").Process(target=starting_worker, args=(theirs,))
    worker.start()
    ours.recv()
    os.kill(worker.pid, signal.SIGTERM)
    # Long enough to die of the signal; the run-on case needs no more than that to show.
    worker.join(timeout=10 if sys.argv[1] == "installed" else 1.5)
    print(worker.exitcode)
    worker.kill()
    """
)


def worker_exit_code(mode: str) -> str:
    finished = subprocess.run(
        [sys.executable, "-c", MAIN_PROCESS, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return finished.stdout.strip()


def test_a_worker_told_to_stop_while_starting_stops() -> None:
    assert worker_exit_code("installed") == str(-signal.SIGTERM)


def test_without_it_the_worker_keeps_the_inherited_handler_and_runs_on() -> None:
    # What the servers did before: the signal only reached the main's handler copy.
    assert worker_exit_code("not-installed") == "None"
