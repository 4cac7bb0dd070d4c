"""A Redis server of the tests' own (``redis-server`` on a free port), never the shared one.

Skipped with the reason when ``redis-server`` is not installed, except in CI (CI=true), where it
is and the Redis tests must run. The server itself is the chaos test's
(``scripts/loadtest/redis_server.py``): ``kill`` is a crash, ``start`` brings it back empty on the
same port.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from scripts.loadtest import redis_server
from scripts.stack import free_port

if TYPE_CHECKING:
    from bot.channels.redis_memory import RedisMemory


def require_redis_server() -> str:
    """The path of ``redis-server``; skips (fails in CI) without it."""
    path = shutil.which("redis-server")
    if path is None:
        problem = "redis-server is not installed (apt-get install redis-server)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{problem}; CI=true: the Redis tests are mandatory")
        pytest.skip(problem)
    return path


class RedisServer(redis_server.RedisServer):
    """The shared server class, skipping the test (or failing it in CI) without redis-server."""

    def start(self, timeout: float = 10.0) -> None:
        require_redis_server()
        super().start(timeout)


def unreachable_redis() -> RedisMemory:
    """The Redis memory of a deployment whose Redis is down (nothing listens on its port)."""
    # Not at the top: the integration tests run in the content runtime's environment, which has
    # no redis package (nor Rasa).
    from bot.channels.redis_memory import RedisMemory
    from bot.channels.settings import RedisSettings

    settings = RedisSettings.load(RedisServer(Path("."), port=free_port()).env("down"))
    assert settings is not None
    return RedisMemory.connect(settings)
