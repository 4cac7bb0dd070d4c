"""Pieces of the load benchmark (scripts/bench_load.py) and the chaos test (scripts/chaos.py):
traffic, setups, resources, checks, people in the web chat, a Redis server of their own."""
