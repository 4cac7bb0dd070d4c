"""The events of a conversation's session this worker already read, so that a turn reads only
the events stored since.

Rasa's SQL tracker store reads every event of the latest session on every turn and rebuilds
each from its JSON: the longer a person talks, the more each message costs. A worker that read
or wrote a conversation keeps those events (the ``Event`` objects Rasa made) with the id of the
last stored row they include. The next read asks the database only for the rows from that id
on: when that row is still there and no new session started, the tracker is the kept events
plus the new rows, exactly what Rasa would have read; otherwise (the conversation was deleted,
started again, or a new session began) the store reads it as Rasa does.

Rows are only ever appended to a conversation or deleted with all of it, so the last row's
presence proves that the kept events are still the stored ones, whichever process added rows
since. Bounded: the least recently used conversations are forgotten first.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rasa.shared.core.events import Event, SessionStarted


@dataclass(frozen=True)
class Snapshot:
    """A session's events as the store read them, and the id of the last stored row."""

    events: tuple[Event, ...]
    last_row: int


def session_events(events: Iterable[Event]) -> tuple[Event, ...]:
    """The events Rasa's store reads back of these: those not older than the latest
    ``session_started`` (all of them when there is none), as its SQL query selects them."""
    kept = tuple(events)
    starts = [event.timestamp for event in kept if isinstance(event, SessionStarted)]
    if not starts:
        return kept
    latest = max(starts)
    return tuple(event for event in kept if event.timestamp >= latest)


class SessionSnapshots:
    """The snapshots of the conversations this worker served lately, least recent first."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: collections.OrderedDict[str, Snapshot] = collections.OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, sender_id: str) -> Snapshot | None:
        snapshot = self._kept.get(sender_id)
        if snapshot is not None:
            self._kept.move_to_end(sender_id)
        return snapshot

    def keep(self, sender_id: str, events: Sequence[Event], last_row: int) -> None:
        if self.limit <= 0:
            return
        self._kept[sender_id] = Snapshot(session_events(events), last_row)
        self._kept.move_to_end(sender_id)
        while len(self._kept) > self.limit:
            self._kept.popitem(last=False)

    def drop(self, sender_ids: Iterable[str]) -> None:
        for sender_id in sender_ids:
            self._kept.pop(sender_id, None)
