"""What the action-server secret costs per call: the same server with and without it, side by
side in one run (``make bench-action-secret``).

Each call is ``GET /actions`` (rasa-sdk lists its actions: the cheapest route that passes the
middleware), sent one after another over one keep-alive connection, alternating between the two
servers so that the machine's noise hits both alike.
"""

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.stack import ACTIONS_BIN, free_port  # noqa: E402

SECRET = "bench-secret-" + "x" * 32


def start(port: int, secret: str | None, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), SANIC_HOST="127.0.0.1")
    env.pop("ACTION_SERVER_SECRET", None)
    if secret:
        env["ACTION_SERVER_SECRET"] = secret
    command = [str(ACTIONS_BIN / "python"), "-m", "actions.server", "--actions", "actions.chat"]
    with log.open("ab") as out:
        process = subprocess.Popen(
            [*command, "--port", str(port)], cwd=ROOT, env=env, stdout=out, stderr=out
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"the action server on :{port} did not start; see {log}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    log = ROOT / "results" / "bench-action-secret.log"
    log.parent.mkdir(exist_ok=True)
    ports = {"with secret": free_port(), "without (rasa-sdk as it is)": free_port()}
    servers = [
        start(ports["with secret"], SECRET, log),
        start(ports["without (rasa-sdk as it is)"], None, log),
    ]
    try:
        connections = {
            name: http.client.HTTPConnection("127.0.0.1", port) for name, port in ports.items()
        }
        headers = {"with secret": {"X-Action-Server-Secret": SECRET}}
        times: dict[str, list[float]] = {name: [] for name in ports}
        for _ in range(args.calls):
            for name, connection in connections.items():
                started = time.perf_counter()
                connection.request("GET", "/actions", headers=headers.get(name, {}))
                reply = connection.getresponse()
                reply.read()
                assert reply.status == 200, (name, reply.status)
                times[name].append((time.perf_counter() - started) * 1000)
        print("| server | calls | median ms | p95 ms |\n|---|---:|---:|---:|")
        for name, values in times.items():
            p95 = statistics.quantiles(values, n=20)[-1]
            print(f"| {name} | {len(values)} | {statistics.median(values):.3f} | {p95:.3f} |")
        difference = statistics.median(times["with secret"]) - statistics.median(
            times["without (rasa-sdk as it is)"]
        )
        print(f"\nThe secret's cost per call (median difference): {difference * 1000:.0f} µs")
    finally:
        for server in servers:
            server.terminate()
            server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
