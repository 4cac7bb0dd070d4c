"""What the action server loads: started on the whole ``actions`` package (rasa-sdk's default
habit) beside ``actions.chat`` (what it runs on), in one run (``make bench-action-server``).

For each package: the modules rasa-sdk's registration imports (the project's and all), the time
from process start until ``/health`` answers, and the resident memory then. Starts alternate
between the two packages so that the machine's noise hits both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.stack import ACTIONS_BIN, free_port  # noqa: E402

PACKAGES = ("actions", "actions.chat")
#: Run in a fresh interpreter: what registering the package imports, as the server does.
COUNT_MODULES = """
import json, sys
from rasa_sdk.executor import ActionExecutor
before = set(sys.modules)
executor = ActionExecutor()
executor.register_package(sys.argv[1])
ours = sorted(m for m in sys.modules if m == "actions" or m.startswith(("actions.", "bot.")))
print(json.dumps({"ours": ours, "all": len(sys.modules), "new": len(set(sys.modules) - before),
                  "actions": len(executor.actions)}))
"""


def modules(package: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [str(ACTIONS_BIN / "python"), "-c", COUNT_MODULES, package],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    counted: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return counted


def resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start_once(package: str, log: Path) -> tuple[float, float]:
    """Seconds until /health answers and resident MiB then, for one start on ``package``."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), SANIC_HOST="127.0.0.1")
    env.pop("ACTION_SERVER_SECRET", None)
    command = [str(ACTIONS_BIN / "python"), "-m", "actions.server", "--actions", package]
    started = time.monotonic()
    with log.open("ab") as out:
        process = subprocess.Popen(
            [*command, "--port", str(port)], cwd=ROOT, env=env, stdout=out, stderr=out
        )
    try:
        deadline = started + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                    return time.monotonic() - started, resident_mib(process.pid)
            except OSError:
                time.sleep(0.05)
        raise SystemExit(f"the action server on {package} did not start; see {log}")
    finally:
        process.terminate()
        process.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args()
    log = ROOT / "results" / "bench-action-server.log"
    log.parent.mkdir(exist_ok=True)
    counted = {package: modules(package) for package in PACKAGES}
    times: dict[str, list[float]] = {package: [] for package in PACKAGES}
    memory: dict[str, list[float]] = {package: [] for package in PACKAGES}
    for _ in range(args.starts):
        for package in PACKAGES:
            seconds, mib = start_once(package, log)
            times[package].append(seconds)
            memory[package].append(mib)
    print(f"Action server started on each package {args.starts} times, alternating.\n")
    print(
        "| `--actions` | project modules | all modules | actions | start to /health, median "
        "| resident memory, median |"
    )
    print("|---|---|---|---|---|---|")
    for package in PACKAGES:
        c = counted[package]
        print(
            f"| `{package}` | {len(c['ours'])} | {c['all']} | {c['actions']} "
            f"| {statistics.median(times[package]):.2f} s "
            f"| {statistics.median(memory[package]):.0f} MiB |"
        )
    chat = set(counted["actions.chat"]["ours"])
    left = sorted(set(counted["actions"]["ours"]) - chat)
    print(f"\nNot loaded any more ({len(left)}): " + ", ".join(f"`{m}`" for m in left))
    return 0


if __name__ == "__main__":
    sys.exit(main())
