"""Which memory the channels keep: this process's (``make run``) or Redis (production).

With one Rasa process the connectors' memory (``kernel/memory.py``) can live in it. With several
(the production profile: several workers, several servers) a retry or a MORE can reach another
process, or arrive after a restart; then the memory must be one for all of them: the Redis
server of the lock store, under keys of its own.

``channel_memory()`` chooses once, when a connector starts, from the settings it read
(``bot/channels/settings.py``): ``REDIS_HOST`` set (the production profile's variable,
docs/OPERATIONS.md) → Redis (``redis_memory.RedisMemory``), else this process. Every Redis
operation is one round trip; when Redis cannot be reached an operation raises
``MemoryUnavailable``, logged once per outage.
"""

from __future__ import annotations

import logging

from bot.channels.redis_memory import RedisMemory
from bot.channels.settings import RedisSettings
from kernel.memory import ChannelMemory, ProcessMemory

logger = logging.getLogger(__name__)


def channel_memory(redis: RedisSettings | None) -> ChannelMemory:
    """Redis when the production profile's ``REDIS_HOST`` is set (``redis``), else this
    process's memory."""
    if redis is not None:
        logger.info("channel memory: Redis (shared by every Rasa process)")
        return RedisMemory.connect(redis)
    return ProcessMemory()
