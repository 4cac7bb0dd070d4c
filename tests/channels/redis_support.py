"""A Redis server of the tests' own (``redis-server`` on a free port), never the shared one.

Skipped with the reason when ``redis-server`` is not installed, except in CI (CI=true), where it
is and the Redis tests must run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from scripts.loadtest.redis_server import answers_ping
from scripts.stack import free_port

if TYPE_CHECKING:
    from bot.channels.memory import RedisMemory


def require_redis_server() -> str:
    """The path of ``redis-server``; skips (fails in CI) without it."""
    path = shutil.which("redis-server")
    if path is None:
        problem = "redis-server is not installed (apt-get install redis-server)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{problem}; CI=true: the Redis tests are mandatory")
        pytest.skip(problem)
    return path


@dataclass
class RedisServer:
    """One ``redis-server`` process without persistence; ``stop``/``start`` keep its port."""

    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [require_redis_server(), "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.directory)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while not answers_ping("127.0.0.1", self.port, timeout=0.5):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)

    def stop(self) -> None:
        """Kills the server (as a crash would: no goodbye to the clients)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def env(self, key_prefix: str) -> dict[str, str]:
        """The production profile's variables for this server."""
        return {
            "REDIS_HOST": "127.0.0.1",
            "REDIS_PORT": str(self.port),
            "REDIS_DB": "0",
            "REDIS_PASSWORD": "",
            "REDIS_KEY_PREFIX": key_prefix,
        }


def unreachable_redis() -> RedisMemory:
    """The Redis memory of a deployment whose Redis is down (nothing listens on its port)."""
    from bot.channels.memory import RedisMemory  # not at the top: the integration tests run
    # in the content runtime's environment, which has no redis package

    env = RedisServer(Path("."), port=free_port()).env("down")
    return RedisMemory.from_env(env)
