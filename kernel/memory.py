"""Short-lived memory of the channels, and this process's kind of it.

The connectors remember a little between messages: which provider message ids they have already
answered (a retry must not be answered twice), what a Telegram reply-keyboard button stands for,
which numbered options and MORE pages an SMS reply left behind, which payload a number typed
after a Telegram or WhatsApp reply with numbered buttons stands for, and the web chat's mailbox of
messages that came out of turn. ``ChannelMemory`` is what they need of it; ``ProcessMemory``
keeps it in this process (``make run``: one Rasa process). The Redis kind, shared by every Rasa
process of the production profile, and the choice between the two live with the connectors
(``bot/channels/memory.py``): this module is read by the content runtime too (the SMS renderer
of the console's preview), which has no redis.

Every operation is atomic on its own and every key written expires. When the memory cannot be
reached an operation raises ``MemoryUnavailable``; the callers then answer as if nothing was
remembered, so a memory that is down never silences anyone.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


class MemoryUnavailable(Exception):
    """The shared memory cannot be reached; the caller goes on without it."""


class ChannelMemory(ABC):
    """Strings and lists of strings under keys, each forgotten after its ``ttl`` seconds."""

    @abstractmethod
    async def add(self, key: str, ttl: float) -> bool:
        """True if ``key`` was not there (and now is); False if it already was."""

    @abstractmethod
    async def get(self, key: str) -> str | None:
        """The string under ``key``, or None."""

    @abstractmethod
    async def put(
        self,
        values: Mapping[str, str],
        ttl: float,
        append: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        """Stores every key's string, and appends to every list of ``append``, in one step;
        each of them then expires ``ttl`` from now."""

    @abstractmethod
    async def take(self, key: str, *also_forget: str) -> str | None:
        """The string under ``key``, deleted with ``also_forget`` in the same step."""

    @abstractmethod
    async def pop(self, key: str, ttl: float) -> str | None:
        """Removes and returns the first string of the list under ``key`` (or None); the rest
        of the list now expires ``ttl`` from now."""

    @abstractmethod
    async def delete(self, *keys: str) -> None:
        """Forgets ``keys``."""

    @abstractmethod
    async def push(self, key: str, item: str, limit: int, ttl: float) -> bool:
        """Appends ``item`` to the list under ``key`` unless it holds ``limit`` items already
        (then False, nothing changed); the list then expires ``ttl`` from now."""

    @abstractmethod
    async def items(self, key: str) -> list[str]:
        """Every string of the list under ``key``, oldest first."""

    @abstractmethod
    async def remove(self, key: str, items: Sequence[str]) -> None:
        """Removes each of ``items`` from the list under ``key`` (when it is still there)."""

    async def close(self) -> None:  # noqa: B027  (nothing to release in this process)
        """Releases connections (the server stops)."""


@dataclass
class _Entry:
    expires: float
    value: str | list[str]


class ProcessMemory(ChannelMemory):
    """This process's memory, bounded in count (least recently written go first) and in age.

    The embedded default: one Rasa process, so nothing needs sharing; a restart forgets.
    """

    def __init__(self, capacity: int = 50_000, clock: Callable[[], float] = time.monotonic) -> None:
        self._capacity = capacity
        self._clock = clock
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def _live(self, key: str, now: float) -> _Entry | None:
        while self._entries and next(iter(self._entries.values())).expires <= now:
            self._entries.popitem(last=False)
        entry = self._entries.get(key)
        if entry is not None and entry.expires <= now:
            del self._entries[key]
            return None
        return entry

    def _store(self, key: str, value: str | list[str], ttl: float, now: float) -> None:
        self._entries[key] = _Entry(now + ttl, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._capacity:
            self._entries.popitem(last=False)

    async def add(self, key: str, ttl: float) -> bool:
        now = self._clock()
        with self._lock:
            if self._live(key, now) is not None:
                return False
            self._store(key, "1", ttl, now)
            return True

    async def get(self, key: str) -> str | None:
        with self._lock:
            entry = self._live(key, self._clock())
            return entry.value if entry is not None and isinstance(entry.value, str) else None

    async def put(
        self,
        values: Mapping[str, str],
        ttl: float,
        append: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        now = self._clock()
        with self._lock:
            for key, value in values.items():
                self._store(key, value, ttl, now)
            for key, items in (append or {}).items():
                if items:
                    entry = self._live(key, now)
                    old = entry.value if entry is not None and isinstance(entry.value, list) else []
                    self._store(key, [*old, *items], ttl, now)

    async def take(self, key: str, *also_forget: str) -> str | None:
        with self._lock:
            entry = self._live(key, self._clock())
            for gone in (key, *also_forget):
                self._entries.pop(gone, None)
            return entry.value if entry is not None and isinstance(entry.value, str) else None

    async def pop(self, key: str, ttl: float) -> str | None:
        now = self._clock()
        with self._lock:
            entry = self._live(key, now)
            if entry is None or not isinstance(entry.value, list) or not entry.value:
                return None
            first, *rest = entry.value
            if rest:
                self._store(key, rest, ttl, now)
            else:
                del self._entries[key]
            return first

    async def delete(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._entries.pop(key, None)

    async def push(self, key: str, item: str, limit: int, ttl: float) -> bool:
        now = self._clock()
        with self._lock:
            entry = self._live(key, now)
            old = entry.value if entry is not None and isinstance(entry.value, list) else []
            if len(old) >= limit:
                return False
            self._store(key, [*old, item], ttl, now)
            return True

    async def items(self, key: str) -> list[str]:
        with self._lock:
            entry = self._live(key, self._clock())
            return list(entry.value) if entry is not None and isinstance(entry.value, list) else []

    async def remove(self, key: str, items: Sequence[str]) -> None:
        with self._lock:
            entry = self._live(key, self._clock())
            if entry is None or not isinstance(entry.value, list):
                return
            kept = list(entry.value)
            for item in items:
                if item in kept:
                    kept.remove(item)
            if kept:
                entry.value = kept  # keeps its expiry: reading is not writing
            else:
                del self._entries[key]
