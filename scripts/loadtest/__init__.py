"""Pieces of the load benchmark (scripts/bench_load.py): traffic, setups, resources, checks."""
