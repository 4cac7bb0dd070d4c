"""Rasa's Redis lock store with atomic ticket handling, for several Rasa processes.

Rasa serialises the messages of one conversation with a ticket lock: each message takes a
ticket, waits until its number is served, and returns it when done. Rasa's ``RedisLockStore``
keeps the lock as one JSON value and changes it by reading it, changing it in Python and
writing it back. Two processes doing that at the same moment (two messages of one
conversation reaching two workers: a double tap, a provider's retry, an SMS in two parts) both
read the same lock and both write their own version: both get the same ticket and handle their
messages at once, and one turn is lost (measured: two processes taking 300 tickets each for one
conversation got 326 distinct numbers, not 600; tests/bot/test_locks.py). Rasa admitted it
("this is far from atomic", RasaHQ/rasa#3933) and fixed it only in its commercial edition.

Here every read-change-write of a lock is one Redis transaction (WATCH/MULTI/EXEC, retried if
another process changed the lock meanwhile). Everything else, the lock's format and keys
included, is Rasa's. Configured in endpoints.production.yml:
``lock_store: {type: bot.locks.AtomicRedisLockStore, url: ..., port: ..., ...}``.

**A Redis that cannot be reached as a turn ends.** Rasa returns a turn's ticket in the
``finally`` of its lock: when Redis does not answer then (a network partition, a restart), the
error replaces the turn's own outcome, although its replies went out and its conversation was
stored (the web chat answers 500 and the page sends the message again; a queued turn counts as
cut off), and the ticket stays in the lock until it expires (``TICKET_LOCK_LIFETIME``, 60 s):
the person's next message waits that long, and on a channel whose turns come from a line,
everyone behind it in that line too. Here the turn ends as it ended, and the ticket is returned
in the background as soon as Redis answers again. Each call to Redis runs in a thread of the
store's own (``LOCK_THREADS``), not in the server's event loop: a Redis that does not answer
holds up the turns that need it, not every other request of the process for ``socket_timeout``
seconds, nor the work other parts hand to asyncio's shared threads.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any, Final, TypeVar

import redis
from rasa.core.lock import TicketLock
from rasa.core.lock_store import LOCK_LIFETIME, LockError, RedisLockStore
from rasa.utils.endpoints import EndpointConfig

logger = logging.getLogger(__name__)

T = TypeVar("T")
#: A change of a conversation's lock: the lock as it is (None: there is none) → the lock to
#: store (None: delete it) and what the caller gets back.
Change = Callable[[TicketLock | None], tuple[TicketLock | None, T]]
#: How often a ticket that could not be returned as its turn ended is tried again.
RETURN_AGAIN_SECONDS: Final = 1.0
#: Calls to Redis at once from one process: each takes well under a millisecond while Redis
#: answers; while it does not, more threads would only wait too.
LOCK_THREADS: Final = 8


class AtomicRedisLockStore(RedisLockStore):
    """``RedisLockStore`` whose ticket operations cannot interleave across processes."""

    def __init__(self, endpoint_config: EndpointConfig | None = None, **kwargs: Any) -> None:
        # Rasa creates a custom lock store from its endpoint configuration only; the keys
        # are RedisLockStore's (url is its host).
        if endpoint_config is not None:
            kwargs = {"host": endpoint_config.url, **endpoint_config.kwargs, **kwargs}
        super().__init__(**kwargs)
        #: Tickets being returned in the background (a reference keeps each task alive).
        self._returning: set[asyncio.Task[None]] = set()
        self._threads = ThreadPoolExecutor(LOCK_THREADS, thread_name_prefix="lock-store")

    async def _call(self, method: Callable[..., T], *args: Any) -> T:
        """``method(*args)``, one of the store's synchronous Redis calls, in its threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, functools.partial(method, *args))

    @asynccontextmanager
    async def lock(
        self,
        conversation_id: str,
        lock_lifetime: float = LOCK_LIFETIME,
        wait_time_in_seconds: float = 1,
    ) -> AsyncIterator[TicketLock]:
        """Rasa's lock of one conversation, with its ticket returned even when Redis cannot be
        reached as the turn ends (the module's doc)."""
        expires = time.time() + lock_lifetime
        ticket = await self._call(self.issue_ticket, conversation_id, lock_lifetime)
        try:
            yield await self._acquire_lock(conversation_id, ticket, wait_time_in_seconds)
        finally:
            await self._return_ticket(conversation_id, ticket, expires)

    async def _acquire_lock(
        self, conversation_id: str, ticket: int, wait_time_in_seconds: float
    ) -> TicketLock:
        """Rasa's wait for the ticket's turn (``LockStore._acquire_lock``), off the event loop."""
        while True:
            lock = await self._call(self.get_lock, conversation_id)
            if not lock:
                break  # every ticket expired, this one too
            if not lock.is_locked(ticket):
                return lock
            await asyncio.sleep(wait_time_in_seconds)
            await self._call(self.update_lock, conversation_id)
        raise LockError(f"Could not acquire lock for conversation_id '{conversation_id}'.")

    async def _return_ticket(self, conversation_id: str, ticket: int, expires: float) -> None:
        """Returns ``ticket``; when Redis does not answer, again every ``RETURN_AGAIN_SECONDS``
        in the background until it does, or until the ticket has expired anyway."""
        try:
            await self._call(self.cleanup, conversation_id, ticket)
            return
        except redis.RedisError as error:
            logger.warning(
                "lock store: Redis unreachable (%s) as a turn ended; its conversation's lock "
                "is returned once Redis answers",
                type(error).__name__,
            )
        task = asyncio.create_task(self._return_later(conversation_id, ticket, expires))
        self._returning.add(task)
        task.add_done_callback(self._returning.discard)

    async def _return_later(self, conversation_id: str, ticket: int, expires: float) -> None:
        while time.time() < expires:
            await asyncio.sleep(RETURN_AGAIN_SECONDS)
            try:
                await self._call(self.cleanup, conversation_id, ticket)
            except redis.RedisError:
                continue
            logger.info("lock store: a ticket kept by a Redis outage was returned")
            return

    def _change(self, conversation_id: str, change: Change[T]) -> T:
        """Apply ``change`` to the stored lock in one transaction; retry if it raced."""
        key = self.key_prefix + conversation_id
        while True:
            with self.red.pipeline() as pipe:
                try:
                    pipe.watch(key)
                    stored = pipe.get(key)
                    lock = TicketLock.from_dict(json.loads(stored)) if stored else None
                    new, result = change(lock)
                    pipe.multi()
                    if new is None:
                        pipe.delete(key)
                    else:
                        pipe.set(key, new.dumps())
                    pipe.execute()
                    return result
                except redis.WatchError:
                    logger.debug("lock of a conversation changed meanwhile; trying again")

    def issue_ticket(self, conversation_id: str, lock_lifetime: float = LOCK_LIFETIME) -> int:
        """A ticket no other process can have been given too."""

        def take(lock: TicketLock | None) -> tuple[TicketLock, int]:
            lock = lock or TicketLock(conversation_id)
            return lock, lock.issue_ticket(lock_lifetime)

        try:
            return self._change(conversation_id, take)
        except redis.RedisError as error:
            raise LockError(f"Error while acquiring lock. Error:\n{error}") from error

    def update_lock(self, conversation_id: str) -> None:
        def expire(lock: TicketLock | None) -> tuple[TicketLock | None, None]:
            if lock is not None:
                lock.remove_expired_tickets()
            return lock, None

        self._change(conversation_id, expire)

    def finish_serving(self, conversation_id: str, ticket_number: int) -> None:
        self.cleanup(conversation_id, ticket_number)

    def cleanup(self, conversation_id: str, ticket_number: int) -> None:
        """Return the ticket; delete the lock only if no other ticket is still waiting."""

        def release(lock: TicketLock | None) -> tuple[TicketLock | None, None]:
            if lock is None:
                return None, None
            lock.remove_ticket_for(ticket_number)
            return (lock if lock.is_someone_waiting() else None), None

        self._change(conversation_id, release)
