"""Start the action server and the Rasa server as real processes, and stop them cleanly.

Used by `make run` (fixed ports 5055/5005, until Ctrl-C) and by the integration tests
(free ports, temporary database). Standard library only: it runs with any Python 3.10+.
"""

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
BOT_BIN = ROOT / ".venv" / "bot" / "bin"
ACTIONS_BIN = ROOT / ".venv" / "actions" / "bin"


def free_port() -> int:
    """A TCP port nothing listens on right now (for tests running beside `make run`)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class StackError(RuntimeError):
    """A server did not come up; the message names it and where its log is."""


@dataclass
class Stack:
    model: Path
    content_db_url: str
    log_dir: Path
    rasa_port: int = 5005
    action_port: int = 5055
    host: str = "127.0.0.1"
    extra_env: dict[str, str] = field(default_factory=dict)
    _processes: list[tuple[str, subprocess.Popen[bytes], IO[bytes]]] = field(
        default_factory=list, init=False
    )

    @property
    def rasa_url(self) -> str:
        return f"http://{self.host}:{self.rasa_port}"

    @property
    def action_url(self) -> str:
        return f"http://{self.host}:{self.action_port}"

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            PYTHONPATH=str(ROOT),
            CONTENT_DB_URL=self.content_db_url,
            ACTION_ENDPOINT_URL=f"{self.action_url}/webhook",
            # TensorFlow and its BLAS would otherwise each grab every core of a small machine.
            TF_CPP_MIN_LOG_LEVEL="2",
            # Rasa would otherwise report telemetry and crashes to an outside server.
            RASA_TELEMETRY_ENABLED="false",
        )
        env.update(self.extra_env)
        return env

    def _spawn(self, name: str, command: list[str]) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 - closed in stop()
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self._env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: stop() ends its children too
        )
        self._processes.append((name, process, log))

    def start(self, timeout: float = 180.0) -> float:
        """Start both servers; return seconds until Rasa answered its first message."""
        started = time.monotonic()
        self._spawn(
            "actions",
            [
                str(ACTIONS_BIN / "python"),
                "-m",
                "rasa_sdk",
                "--actions",
                "actions",
                "--port",
                str(self.action_port),
            ],
        )
        rasa_command = [
            str(BOT_BIN / "rasa"),
            "run",
            "--enable-api",
            "--interface",
            self.host,
            "--port",
            str(self.rasa_port),
            "--model",
            str(self.model),
            "--endpoints",
            "endpoints.yml",
            "--credentials",
            self._env().get("RASA_CREDENTIALS", "credentials.yml"),
        ]
        token = self._env().get("RASA_API_TOKEN")
        if token:
            rasa_command += ["--auth-token", token]
        self._spawn("rasa", rasa_command)
        try:
            self._wait_until_up("actions", f"{self.action_url}/health", started + timeout)
            self._wait_until_up("rasa", f"{self.rasa_url}/webhooks/rest/", started + timeout)
        except BaseException:
            self.stop()
            raise
        return time.monotonic() - started

    def _wait_until_up(self, name: str, url: str, deadline: float) -> None:
        process = next(p for n, p, _ in self._processes if n == name)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise StackError(
                    f"{name} exited with code {process.returncode}; see {self.log_dir}/{name}.log"
                )
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.25)
        raise StackError(f"{name} did not answer {url} in time; see {self.log_dir}/{name}.log")

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM each process group, SIGKILL what is still alive after ``grace`` seconds."""
        for _, process, _ in self._processes:
            _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + grace
        for _, process, log in self._processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal_group(process, signal.SIGKILL)
                process.wait()
            log.close()
        self._processes.clear()

    def check_alive(self) -> None:
        for name, process, _ in self._processes:
            if process.poll() is not None:
                raise StackError(
                    f"{name} stopped with code {process.returncode}; see {self.log_dir}/{name}.log"
                )


def _signal_group(process: "subprocess.Popen[bytes]", sig: int) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)


def main() -> int:
    """`make run`: serve until Ctrl-C, then leave no process behind."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--content-db-url", required=True)
    parser.add_argument("--rasa-port", type=int, default=5005)
    parser.add_argument("--action-port", type=int, default=5055)
    parser.add_argument("--log-dir", type=Path, default=ROOT / "var" / "log")
    parser.add_argument("--since", type=float, help="time.time() when `make run` began")
    args = parser.parse_args()
    stack = Stack(args.model, args.content_db_url, args.log_dir, args.rasa_port, args.action_port)

    stopping = False

    def request_stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    print(f"Starting the action server on :{args.action_port} and Rasa on :{args.rasa_port} ...")
    try:
        servers_up = stack.start()
    except StackError as error:
        print(f"Start-up failed: {error}", file=sys.stderr)
        return 1
    total = f", {time.time() - args.since:.0f} s since `make run`" if args.since else ""
    print(
        f"\nReady in {servers_up:.1f} s{total}.\n"
        f"  Talk to it:  curl -s {stack.rasa_url}/webhooks/rest/webhook "
        '-H \'Content-Type: application/json\' -d \'{"sender": "me", "message": "salam"}\'\n'
        f"  Web chat:    {stack.rasa_url}/webchat/\n"
        f"  HTTP API:    {stack.rasa_url}/model/parse   Actions: {stack.action_url}/health\n"
        f"  Logs:        {args.log_dir}/rasa.log and {args.log_dir}/actions.log\n"
        "Press Ctrl-C to stop.",
        flush=True,
    )
    try:
        while not stopping:
            stack.check_alive()
            time.sleep(0.5)
    except StackError as error:
        print(f"\n{error}", file=sys.stderr)
        stack.stop()
        return 1
    print("\nStopping ...", flush=True)
    stack.stop()
    print("Stopped; no process left running.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
