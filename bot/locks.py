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
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from rasa.core.lock import TicketLock
from rasa.core.lock_store import LOCK_LIFETIME, LockError, RedisLockStore
from rasa.utils.endpoints import EndpointConfig

logger = logging.getLogger(__name__)

T = TypeVar("T")
#: A change of a conversation's lock: the lock as it is (None: there is none) → the lock to
#: store (None: delete it) and what the caller gets back.
Change = Callable[[TicketLock | None], tuple[TicketLock | None, T]]


class AtomicRedisLockStore(RedisLockStore):
    """``RedisLockStore`` whose ticket operations cannot interleave across processes."""

    def __init__(self, endpoint_config: EndpointConfig | None = None, **kwargs: Any) -> None:
        # Rasa creates a custom lock store from its endpoint configuration only; the keys
        # are RedisLockStore's (url is its host).
        if endpoint_config is not None:
            kwargs = {"host": endpoint_config.url, **endpoint_config.kwargs, **kwargs}
        super().__init__(**kwargs)

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
