"""A Redis server of the caller's own, on a free loopback port, that can be killed and restarted.

The chaos test kills Redis, the channel-memory tests restart it and the memory benchmark needs
a quiet one; the Redis other people's tests use (port 6379) must never be the one that dies. So
each starts its own ``redis-server`` (Debian's) with this class: nothing on disk, removed at the
end.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from scripts.stack import StackError, free_port

#: The intake's lines per connector (``INTAKE_PARTITIONS``' default).
PARTITIONS = 16
#: Nothing on disk: a killed Redis comes back empty, as one that lost its machine would.
NO_PERSISTENCE = (
    "--save",
    "",
    "--appendonly",
    "no",
    "--protected-mode",
    "yes",
    "--daemonize",
    "no",
)


def answers_ping(host: str, port: int, timeout: float = 1.0) -> bool:
    """Whether a Redis server answers PING at ``host:port`` (its inline protocol)."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class RedisServer:
    """One ``redis-server`` process: no persistence, loopback only, its log in ``log_dir``."""

    log_dir: Path
    host: str = "127.0.0.1"
    port: int = field(default_factory=free_port)
    _process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _log: IO[bytes] | None = field(default=None, init=False)

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/1"

    def env(self, key_prefix: str) -> dict[str, str]:
        """The production profile's Redis variables (endpoints.production.yml) for this server."""
        return {
            "REDIS_HOST": self.host,
            "REDIS_PORT": str(self.port),
            "REDIS_DB": "0",
            "REDIS_PASSWORD": "",
            "REDIS_KEY_PREFIX": key_prefix,
        }

    def start(self, timeout: float = 10.0) -> None:
        """Start it (again, on the same port) and wait until it answers PING."""
        binary = shutil.which("redis-server")
        if binary is None:
            raise StackError("redis-server is missing: apt-get install redis-server")
        self.log_dir.mkdir(parents=True, exist_ok=True)
        if self._log is None:
            self._log = open(self.log_dir / "redis.log", "ab")  # noqa: SIM115 - closed in stop()
        self._process = subprocess.Popen(
            [binary, "--bind", self.host, "--port", str(self.port), *self._disk_options()],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while not answers_ping(self.host, self.port):
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise StackError(f"redis-server did not start; see {self.log_dir}/redis.log")
            time.sleep(0.05)

    def _disk_options(self) -> list[str]:
        return ["--dir", str(self.log_dir), *NO_PERSISTENCE]

    def kill(self) -> None:
        """``kill -9``: no shutdown, no save; what it held in memory is gone."""
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGKILL)
            self._process.wait()

    def pause(self) -> None:
        """It stops answering, connections stay open: what a network partition looks like to
        its clients (their calls time out), without root. ``resume`` ends it."""
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        """End it if it still runs; safe to call twice."""
        self.resume()  # a paused process would not act on SIGTERM
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
            self._log = None


def _command(*args: str) -> bytes:
    parts = [f"*{len(args)}\r\n".encode()]
    for arg in args:
        data = arg.encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def line_depth(
    port: int, prefix: str, channel: str, partitions: int = PARTITIONS, db: int = 0
) -> int:
    """Messages in ``channel``'s line waiting, parked or being answered (``RedisLine.depth``:
    an entry leaves its stream only after its turn's replies went out), read with a few raw
    commands (RESP): the content runtime, which runs the tests and benchmarks that ask, has
    no redis package."""
    base = f"{prefix}:intake:{channel}:"
    streams = [f"{base}{n}{part}" for n in range(partitions) for part in (":first", ":urgent", "")]
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(
            _command("SELECT", str(db))
            + b"".join(_command("XLEN", stream) for stream in streams)
            + _command("GET", f"{base}parked")
        )
        reader = sock.makefile("rb")
        if not reader.readline().startswith(b"+OK"):
            raise AssertionError(f"Redis refused SELECT {db}")
        lengths = [reader.readline() for _ in streams]
        parked = reader.readline()  # a bulk string's length, then the count; "$-1": none
        parked = reader.readline() if parked.startswith(b"$") and parked != b"$-1\r\n" else b"0"
    if not all(line.startswith(b":") for line in lengths):
        raise AssertionError(f"Redis answered XLEN with {lengths[:2]!r}")
    return sum(int(line[1:]) for line in lengths) + int(parked)
