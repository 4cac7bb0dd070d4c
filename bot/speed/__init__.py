"""Rasa's per-message overheads removed, each shown to give Rasa's own results.

Installed by ``bot/server.py`` (``make run``, production and the load test), so every turn
benefits; ``rasa train`` and ``rasa test`` run Rasa untouched. Each module says what it replaces
and what it measured; tests/bot/test_speed.py and tests/nlu/test_graph_runner.py compare every
one with Rasa's own code.
"""

from __future__ import annotations

from bot.speed import action_replies, event_types, graph_runner, kept_connections


def install() -> None:
    action_replies.install()
    event_types.install()
    graph_runner.install()
    kept_connections.install()
