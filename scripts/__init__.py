"""Developer scripts: servers (stack.py) and benchmarks; run with PYTHONPATH=<repo>."""
