"""Where alerts go: each subscriber's real address, sealed, in the content database.

A conversation id is a one-way hash (``identity.py``), so an alert cannot find the phone it is
for without the address itself. Only subscribers' addresses are kept, each until it expires, in
table ``alert_addresses`` (``kernel/contentdb/tables.py``; the content runtime's migrations create
it), sealed with AES-256-GCM under ``ADDRESS_ENCRYPTION_KEY``. The key lives in the environment
of the bot runtime only: a copy of the database (or of the content runtime's server) reveals no
address (``sealing.py``).

Operators: ``python -m bot.channels.addresses new-key`` prints a key; to rotate, set the new key
as ``ADDRESS_ENCRYPTION_KEY``, the old one in ``ADDRESS_ENCRYPTION_OLD_KEYS``, restart, run
``python -m bot.channels.addresses rotate``, then remove the old key (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import and_, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from bot.channels.sealing import (
    KEY_ENV,
    OLD_KEYS_ENV,
    AddressBookError,
    AddressCipher,
    AddressUnreadable,
    new_key,
)
from bot.channels.settings import AddressKeys
from kernel.contentdb.engines import ContentDatabaseError, database_url, engine_for
from kernel.contentdb.tables import alert_addresses
from kernel.settings import content_db_url

__all__ = [
    "KEY_ENV",
    "OLD_KEYS_ENV",
    "AddressBook",
    "AddressBookError",
    "AddressCipher",
    "AddressUnreadable",
    "RotationResult",
    "main",
]

logger = logging.getLogger(__name__)

ROTATE_BATCH = 500


@dataclass(frozen=True)
class RotationResult:
    rotated: int
    unreadable: int


class AddressBook:
    """Subscribers' addresses, sealed, in ``alert_addresses``.

    The async methods run their (synchronous, short) database work in a worker thread, so the
    server's event loop keeps answering other users meanwhile.
    """

    def __init__(
        self,
        engine: Engine,
        cipher: AddressCipher,
        clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
    ) -> None:
        self.engine = engine
        self.cipher = cipher
        self._clock = clock

    @classmethod
    def from_settings(cls, keys: AddressKeys, content_db: str | None) -> AddressBook:
        """The book of this process: its keys and the content database's ``CONTENT_DB_URL``,
        as read at the start (``bot/channels/settings.py``, ``kernel/settings.py``).

        Connects only when first used, so a database that is down does not stop Rasa starting.
        """
        return cls(
            engine_for(database_url(content_db)), AddressCipher.from_keys(keys.current, keys.old)
        )

    async def remember(
        self, conversation_id: str, channel: str, address: str, expires_at: datetime
    ) -> None:
        """Stores (or replaces) the address alerts and a caseworker's replies for
        ``conversation_id`` go to, until ``expires_at`` or a later expiry already stored."""
        if not address or "\0" in address:
            raise ValueError("an address must be non-empty text without NUL characters")
        if expires_at.tzinfo is None or expires_at.utcoffset() is None:
            raise ValueError("expires_at must be timezone-aware")
        await asyncio.to_thread(self._remember, conversation_id, channel, address, expires_at)

    def _remember(
        self, conversation_id: str, channel: str, address: str, expires_at: datetime
    ) -> None:
        sealed_key_id, sealed = self.cipher.seal(conversation_id, channel, address)
        row = {
            "conversation_id": conversation_id,
            "channel": channel,
            "key_id": sealed_key_id,
            "sealed": sealed,
            "created_at": self._clock(),
            "expires_at": expires_at,
        }
        on_postgresql = self.engine.dialect.name == "postgresql"
        dialect = postgresql if on_postgresql else sqlite
        insert = dialect.insert(alert_addresses).values(**row)
        changed = {name: insert.excluded[name] for name in ("channel", "key_id", "sealed")}
        # A subscription and an open case may both need the address: the later expiry wins
        # (SQLite's two-argument max() compares its ISO times as text, in order).
        later = func.greatest if on_postgresql else func.max
        statement = insert.on_conflict_do_update(
            index_elements=["conversation_id"],
            set_={
                **changed,
                "expires_at": later(alert_addresses.c.expires_at, insert.excluded.expires_at),
            },
        )
        with self.engine.begin() as connection:
            connection.execute(statement)

    async def lookup(self, conversation_id: str, channel: str | None = None) -> str | None:
        """The address, or None when there is none, it expired, it was stored for another
        channel than ``channel``, or no configured key opens it (logged, without the address)."""
        return await asyncio.to_thread(self._lookup, conversation_id, channel)

    def _lookup(self, conversation_id: str, channel: str | None) -> str | None:
        query = select(alert_addresses).where(alert_addresses.c.conversation_id == conversation_id)
        with self.engine.connect() as connection:
            row = connection.execute(query).mappings().first()
        if row is None or row["expires_at"] <= self._clock():
            return None
        if channel is not None and row["channel"] != channel:
            logger.warning(
                "stored address of %s is for %s, not %s", conversation_id, row["channel"], channel
            )
            return None
        try:
            return self.cipher.open(conversation_id, row["channel"], row["key_id"], row["sealed"])
        except AddressUnreadable as error:
            logger.warning("stored address of %s cannot be read: %s", conversation_id, error)
            return None

    async def forget(self, conversation_id: str) -> None:
        """Deletes the address (the content runtime does the same when a user opts out)."""
        await asyncio.to_thread(self._forget, conversation_id)

    def _forget(self, conversation_id: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                delete(alert_addresses).where(alert_addresses.c.conversation_id == conversation_id)
            )

    def rotate(self) -> int:
        """Re-seals every row not under the current key; the number re-sealed."""
        return self.rotate_all().rotated

    def rotate_all(self) -> RotationResult:
        """Like ``rotate``, also counting rows no configured key opens (left as they are)."""
        table, current = alert_addresses, self.cipher.current_key_id
        query = (
            select(table.c.conversation_id, table.c.channel, table.c.key_id, table.c.sealed)
            .where(table.c.key_id != current)
            .order_by(table.c.conversation_id)
        )
        rotated = unreadable = 0
        after = ""
        while True:
            with self.engine.begin() as connection:
                rows = connection.execute(
                    query.where(table.c.conversation_id > after).limit(ROTATE_BATCH)
                ).all()
                for conversation_id, channel, old_key_id, old_sealed in rows:
                    try:
                        address = self.cipher.open(conversation_id, channel, old_key_id, old_sealed)
                    except AddressUnreadable:
                        unreadable += 1
                        continue
                    new_key_id, sealed = self.cipher.seal(conversation_id, channel, address)
                    # Only if unchanged meanwhile: a new remember() already used the new key.
                    result = connection.execute(
                        update(table)
                        .where(
                            and_(
                                table.c.conversation_id == conversation_id,
                                table.c.sealed == old_sealed,
                            )
                        )
                        .values(key_id=new_key_id, sealed=sealed)
                    )
                    rotated += result.rowcount
            if len(rows) < ROTATE_BATCH:
                break
            after = rows[-1][0]
        if unreadable:
            logger.warning(
                "%d stored addresses open with no configured key; left as they are", unreadable
            )
        return RotationResult(rotated, unreadable)


def main(argv: Sequence[str] | None = None) -> int:
    """``new-key`` prints a key; ``rotate`` re-seals every stored address under the current key."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.channels.addresses", description=main.__doc__
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("new-key", help="print a fresh ADDRESS_ENCRYPTION_KEY")
    commands.add_parser(
        "rotate",
        help=f"re-seal stored addresses under {KEY_ENV} (old keys in {OLD_KEYS_ENV})",
    )
    args = parser.parse_args(argv)
    if args.command == "new-key":
        print(new_key())
        return 0
    try:
        book = AddressBook.from_settings(AddressKeys.load(), content_db_url())
        result = book.rotate_all()
    except (AddressBookError, ContentDatabaseError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except SQLAlchemyError as error:
        where = book.engine.url.render_as_string(hide_password=True)
        print(
            f"error: cannot rotate the addresses in {where} ({type(error).__name__}); "
            "is it migrated (`python -m actions.content migrate`)?",
            file=sys.stderr,
        )
        return 2
    print(
        f"{result.rotated} stored addresses re-sealed under key {book.cipher.current_key_id}; "
        f"{result.unreadable} open with no configured key."
    )
    if result.unreadable:
        print(
            f"Keep the key that sealed them in {OLD_KEYS_ENV}, or let them expire.",
            file=sys.stderr,
        )
        return 1
    print(f"You can now remove {OLD_KEYS_ENV}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
