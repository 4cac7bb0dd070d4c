"""The embedded profile's line, kept in a SQLite file so that it outlives a restart.

With ``CHANNEL_INTAKE=queue`` the provider is told at once that a message was taken (its
webhook answers 200 before the turn), so a message waiting in line must not be lost when the
one Rasa process of ``make run`` restarts: the provider will not send it again. This line is
this process's line (``ProcessLine``: the same order, shares, jumps and leases) with every
message in it also written to a journal, ``INTAKE_JOURNAL`` (``var/intake.db`` in `make run`),
before its webhook answers, and struck off once its turn is over (``ack``). A process that
starts reads its channel's messages back in their order and answers them first.

**One process per journal.** The line lives in one process's memory, so two processes sharing
a journal would each answer the other's messages after a restart. A line therefore holds an
exclusive lock on its channel's journal while it is open (``flock``, released by the kernel when
the process dies), and a second process refuses to start with a clear error. Several Rasa
processes need the production profile's line in Redis (``REDIS_HOST``).

What this does not keep: a turn's record of having answered lives in the channel memory (this
process's), so a message whose reply went out just before the process was killed, and which
was not struck off yet, is answered again after the restart: once more, never lost.
"""

from __future__ import annotations

import fcntl
import logging
import sqlite3
from pathlib import Path
from typing import IO, Final

from bot.channels.intake.line import Job, ProcessLine, Taken
from bot.channels.settings import LineShare

logger = logging.getLogger(__name__)

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS intake_line (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    channel TEXT NOT NULL,
    job_key TEXT NOT NULL,
    job TEXT NOT NULL,
    UNIQUE (channel, job_key)
)
"""


class JournalInUse(RuntimeError):
    """Another process keeps this channel's line in the same journal."""


class JournaledLine(ProcessLine):
    """``ProcessLine`` with each message written to the SQLite ``journal`` until its turn is
    over, and read back when the line opens."""

    def __init__(
        self, channel: str, journal: Path, partitions: int, share: LineShare | None = None
    ) -> None:
        super().__init__(partitions, share)
        self.channel = channel
        self.journal = journal
        self._db: sqlite3.Connection | None = None
        self._lock: IO[bytes] | None = None
        self._read_back = False

    async def open(self) -> None:
        """Takes the channel's journal (refusing one another process holds) and puts back in
        line, in their order, the messages a stopped process left in it."""
        self._journal()

    async def close(self) -> None:
        """Lets the journal go; what waits stays in it for the next process."""
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._lock is not None:
            self._lock.close()  # closing the file lets the lock go
            self._lock = None

    async def put(self, job: Job) -> None:
        """Writes ``job`` to the journal before it joins the line; a message already in line
        (the same delivery) is not put twice."""
        written = self._journal().execute(
            "INSERT OR IGNORE INTO intake_line (channel, job_key, job) VALUES (?, ?, ?)",
            (self.channel, job.key, job.dumps()),
        )
        if written.rowcount:
            self._put(job)

    async def ack(self, partition: int, taken: Taken) -> None:
        """Strikes the job off once its turn is over; one the line took back (its lease was
        lost) stays, as it stays in line."""
        if not self._ack(partition, taken):
            return
        self._journal().execute(
            "DELETE FROM intake_line WHERE channel = ? AND job_key = ?",
            (self.channel, taken.job.key),
        )

    def _journal(self) -> sqlite3.Connection:
        """The open journal: opened, and read back once, at its first use."""
        if self._db is None:
            self._lock = self._take_lock()
            db = sqlite3.connect(self.journal, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # survives the process, not a power cut
            db.execute(SCHEMA)
            self._db = db
            if not self._read_back:
                self._read_back = True
                self._put_back(db)
        return self._db

    def _take_lock(self) -> IO[bytes]:
        self.journal.parent.mkdir(parents=True, exist_ok=True)
        lock = self.journal.with_name(f"{self.journal.name}.{self.channel}.lock").open("ab")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            raise JournalInUse(
                f"another process keeps the {self.channel} line in {self.journal}: the embedded "
                "line is one Rasa process's (set REDIS_HOST for several)"
            ) from None
        return lock

    def _put_back(self, db: sqlite3.Connection) -> None:
        kept = db.execute(
            "SELECT job FROM intake_line WHERE channel = ? ORDER BY seq", (self.channel,)
        ).fetchall()
        for (raw,) in kept:
            self._put(Job.loads(raw))
        if kept:
            logger.info(
                "%s: %d messages kept in line from before a restart", self.channel, len(kept)
            )
