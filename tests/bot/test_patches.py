"""Every patch of a library (bot/patches.py) takes effect once installed, on the version it was
written for, and on no other: an upgrade of Rasa or redis-py stops the server at start instead
of leaving a patch that no longer counts."""

from __future__ import annotations

import asyncio
import inspect
import pkgutil
import socket
import struct
from collections.abc import Iterator
from pathlib import Path
from types import CodeType

import pytest
import rasa
import rasa.core.agent
import redis
from redis import asyncio as aioredis

from bot import patches
from bot.channels.intake.redis_line import LetGoConnection, RedisLine
from bot.channels.settings import RedisSettings
from bot.patches import PATCHES, Patch

LOCK = Path(__file__).resolve().parents[2] / "requirements" / "bot.lock"
INSTALLED = [patch for patch in PATCHES if patch.installer is not None]


def owner_and_name(path: str) -> tuple[object, str]:
    """The module or class that holds what ``path`` (``module:Class.attribute``) names."""
    module, _, qualname = path.partition(":")
    owner, _, name = qualname.rpartition(".")
    return pkgutil.resolve_name(f"{module}:{owner}" if owner else module), name


@pytest.fixture
def restored(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Rasa as it was after the test: installing here must not change other tests' Rasa."""
    for patch in INSTALLED:
        owner, name = owner_and_name(patch.replaces)
        monkeypatch.setattr(owner, name, inspect.getattr_static(owner, name))
    yield


def names_read(code: CodeType) -> set[str]:
    """The global and attribute names ``code`` looks up, its inner functions' included."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= names_read(const)
    return names


@pytest.mark.parametrize("patch", INSTALLED, ids=lambda patch: patch.replaces)
def test_each_patch_is_ours_once_installed(patch: Patch, restored: None) -> None:
    assert patch.installer is not None
    patches.install()
    replaced = pkgutil.resolve_name(patch.replaces)
    assert replaced.__module__ == patch.installer.partition(":")[0]  # ours, from its module


@pytest.mark.parametrize("patch", PATCHES, ids=lambda patch: patch.replaces)
def test_the_library_still_looks_up_what_each_patch_replaces(patch: Patch) -> None:
    """Where the library reads the name each time: a patch of a name no longer read is void."""
    reader = inspect.unwrap(pkgutil.resolve_name(patch.read_by))
    assert patch.name in names_read(reader.__code__)


@pytest.mark.parametrize("patch", PATCHES, ids=lambda patch: patch.replaces)
def test_each_patch_is_written_for_the_locked_version(patch: Patch) -> None:
    locked = dict(
        line.split("==", 1)
        for line in LOCK.read_text().splitlines()
        if "==" in line and not line.startswith("#")
    )
    assert locked[patch.package].split()[0] == patch.version == patches.found_version(patch.package)


def test_another_rasa_is_refused_before_anything_is_installed(
    restored: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rasas_processor = rasa.core.agent.MessageProcessor  # type: ignore[attr-defined]
    monkeypatch.setattr(rasa, "__version__", "3.6.22")
    with pytest.raises(
        RuntimeError,
        match=r"rasa 3\.6\.22 is installed, but rasa\.cli\.run:run is patched for rasa 3\.6\.21",
    ):
        patches.install()
    assert rasa.core.agent.MessageProcessor is rasas_processor  # type: ignore[attr-defined]


def test_another_redis_py_is_refused_where_the_line_makes_its_client(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(redis, "__version__", "5.0.1")
    with pytest.raises(RuntimeError, match=r"redis 5\.0\.1 is installed, but .*_connect is patc"):
        RedisLine.connect("telegram", 1, RedisSettings("127.0.0.1", 6379))
    with pytest.raises(RuntimeError, match=r"redis 5\.0\.1"):
        patches.install()


async def _linger(connection: aioredis.Connection) -> tuple[int, int]:
    """``SO_LINGER`` of ``connection``'s socket, connected to a listener that says nothing."""
    server = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
    connection.host, connection.port = "127.0.0.1", server.sockets[0].getsockname()[1]
    try:
        await connection._connect()
        sock = connection._writer.transport.get_extra_info("socket")
        on, seconds = struct.unpack("ii", sock.getsockopt(socket.SOL_SOCKET, socket.SO_LINGER, 8))
        return on, seconds
    finally:
        if connection._writer is not None:
            connection._writer.close()
        server.close()
        await server.wait_closed()


async def test_the_lines_redis_connections_are_reset_when_closed() -> None:
    """``LetGoConnection``'s override of redis-py's private ``_connect`` still takes effect."""
    assert await _linger(LetGoConnection()) == (1, 0)
    assert await _linger(aioredis.Connection()) == (0, 0)  # redis-py's own: what it changes
