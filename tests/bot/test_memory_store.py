"""The embedded profile's in-memory store holds a bounded number of conversations.

The least recently active go first, never one a caseworker holds (paused) for room, unless more
than the cap are held, and a conversation that never got past its first message goes after
``ONE_MESSAGE_RETENTION``.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from rasa.shared.core.domain import Domain
from rasa.shared.core.events import BotUttered, ConversationPaused, UserUttered
from rasa.shared.core.trackers import DialogueStateTracker

from bot.stores import ForgetfulInMemoryTrackerStore
from kernel.settings import memory_conversations, one_message_retention

DOMAIN = Domain.empty()


def conversation(sender: str, *, messages: int = 1, paused: bool = False) -> DialogueStateTracker:
    tracker = DialogueStateTracker(sender, DOMAIN.slots)
    for number in range(messages):
        tracker.update(UserUttered(f"question {number}"))
        tracker.update(BotUttered("answer", metadata={"utter_action": "utter_flights_list"}))
    if paused:
        tracker.update(ConversationPaused())
    return tracker


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch) -> ForgetfulInMemoryTrackerStore:
    monkeypatch.setenv("MEMORY_CONVERSATIONS", "3")
    return ForgetfulInMemoryTrackerStore(DOMAIN)


async def test_beyond_the_cap_the_least_recently_active_conversation_goes_first(
    store: ForgetfulInMemoryTrackerStore,
) -> None:
    for sender in ("amina", "bilal", "farida"):
        await store.save(conversation(sender, messages=2))
    await store.save(conversation("amina", messages=3))  # amina is the most recent now
    await store.save(conversation("gul"))
    assert set(await store.keys()) == {"farida", "amina", "gul"}
    assert await store.retrieve("bilal") is None
    tracker = await store.retrieve("amina")
    assert tracker is not None and len(tracker.events) == 6


async def test_a_conversation_a_caseworker_holds_is_never_dropped_for_room(
    store: ForgetfulInMemoryTrackerStore,
) -> None:
    await store.save(conversation("lost-child", messages=2, paused=True))
    for number in range(20):
        await store.save(conversation(f"flood-{number}"))
    assert "lost-child" in set(await store.keys()) and len(store.store) == 4
    resumed = conversation("lost-child", messages=3)  # the case closed: no longer paused
    await store.save(resumed)
    for number in range(3):
        await store.save(conversation(f"later-{number}"))
    assert set(await store.keys()) == {"later-0", "later-1", "later-2"}


async def test_held_conversations_beyond_the_cap_are_kept_up_to_the_cap_of_their_own(
    store: ForgetfulInMemoryTrackerStore,
) -> None:
    # A flood of cases: more held conversations than the cap. Each save beyond it drops the
    # least recently active held one, so memory stays bounded.
    for number in range(5):
        await store.save(conversation(f"case-{number}", paused=True))
    assert set(await store.keys()) == {"case-2", "case-3", "case-4"}
    await store.save(conversation("person", messages=2))  # not pushed out by the cases
    assert len(store.store) == 4 and "person" in set(await store.keys())


async def test_one_message_conversations_go_after_their_short_retention(
    store: ForgetfulInMemoryTrackerStore,
) -> None:
    await store.save(conversation("probe"))
    await store.save(conversation("person", messages=2))
    await store.save(conversation("held", paused=True))
    an_hour_later = time.time() + 3600 + 1
    assert store.purge_older_than(timedelta(days=7), now=an_hour_later - 2) == 0
    assert store.purge_older_than(timedelta(days=7), now=an_hour_later) == 2
    assert set(await store.keys()) == {"person"}
    a_week_later = time.time() + 7 * 24 * 3600 + 1
    assert store.purge_older_than(timedelta(days=7), now=a_week_later) == 1
    assert not store.store


def test_settings() -> None:
    assert memory_conversations({}) == 10_000
    assert memory_conversations({"MEMORY_CONVERSATIONS": "500"}) == 500
    assert one_message_retention({}) == timedelta(hours=1)
    assert one_message_retention({"ONE_MESSAGE_RETENTION": "10m"}) == timedelta(minutes=10)
    for name, wrong in (("MEMORY_CONVERSATIONS", "0"), ("ONE_MESSAGE_RETENTION", "soon")):
        with pytest.raises(ValueError, match=name):
            (memory_conversations if name == "MEMORY_CONVERSATIONS" else one_message_retention)(
                {name: wrong}
            )
