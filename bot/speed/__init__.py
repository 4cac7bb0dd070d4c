"""Rasa's per-message overheads removed, each shown to give Rasa's own results.

Each module's ``install`` is listed in ``bot/patches.py``, which installs them in ``python -m
bot.server`` (``make run``, production and the load test) for the Rasa version they were written
against, so every turn benefits; ``rasa train`` and ``rasa test`` run Rasa untouched. Each module
says what it replaces and what it measured; tests/bot/test_speed.py and
tests/nlu/test_graph_runner.py compare every one with Rasa's own code.
"""
