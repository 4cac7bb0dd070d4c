"""Rasa's memory in the embedded profile under many new conversations, with and without the cap.

    .venv/actions/bin/python scripts/bench_memory_store.py [--conversations 4000] [--cap 1000]

Why: Rasa's in-memory tracker store kept every conversation for 7 days, so a stream of new
web chat senders grew Rasa's memory without bound (bot/stores.py). This starts the stack as
`make run` does (``scripts.stack.embedded_stack``, a seeded SQLite database in a temporary
``var/``), twice: once with ``MEMORY_CONVERSATIONS`` above the load (as if uncapped, the old
behaviour) and once with ``--cap``. Each time it sends ``--conversations`` new conversations of
three messages over the REST channel, 8 at a time, and reads the resident memory (RSS) of the
Rasa process before, halfway and after. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.stack import Stack, seeded_embedded_stack  # noqa: E402

MODEL = ROOT / "models" / "assistant.tar.gz"
#: The probe's three messages of every conversation.
MESSAGES = ("salam", "when is the next flight to doha?", "is abbey gate open?")


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its children (Sanic may fork a worker), in MB."""
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(child) for child in children.read_text().split()]
    total = 0
    for one in pids:
        for line in Path(f"/proc/{one}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def conversation(url: str) -> None:
    sender = uuid.uuid4().hex
    for text in MESSAGES:
        body = json.dumps({"sender": sender, "message": text}).encode()
        request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()


def start(base: Path, cap: int) -> Stack:
    stack = seeded_embedded_stack(base, MODEL, {"MEMORY_CONVERSATIONS": str(cap)})
    stack.start()
    return stack


def measure(cap: int, conversations: int) -> list[object]:
    with tempfile.TemporaryDirectory() as base:
        stack = start(Path(base), cap)
        try:
            pid = stack.processes()["rasa"].pid
            url = f"{stack.rasa_url}/webhooks/rest/webhook"
            conversation(url)  # the first turn loads what Rasa loads lazily
            before = rss_mb(pid)
            started = time.perf_counter()
            half = conversations // 2
            with ThreadPoolExecutor(8) as pool:
                list(pool.map(lambda _: conversation(url), range(half)))
                middle = rss_mb(pid)
                list(pool.map(lambda _: conversation(url), range(conversations - half)))
            elapsed = time.perf_counter() - started
            after = rss_mb(pid)
        finally:
            stack.stop()
    per = (after - before) * 1024 / conversations
    return [cap, conversations, f"{elapsed:.0f}", f"{before:.0f}", f"{middle:.0f}", f"{after:.0f}",
            f"{after - before:+.0f}", f"{per:.1f}"]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=4000)
    parser.add_argument("--cap", type=int, default=1000)
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.node()}, "
          f"{os.cpu_count()} CPU(s), Python {platform.python_version()}")  # fmt: skip
    print()
    print("| MEMORY_CONVERSATIONS | conversations × 3 messages | s | RSS before (MB) | "
          "halfway | after | growth | KB per conversation |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cap in (args.conversations * 10, args.cap):
        row = measure(cap, args.conversations)
        print("| " + " | ".join(str(cell) for cell in row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
