"""How long the web chat page's work takes in a browser: ``work.js`` as the page runs it, in
Debian's Chromium, at full speed and slowed down the way a cheap phone is.

    .venv/actions/bin/python scripts/bench_webchat_work.py [--trials 40] [--slowdown 6]

Why: past the free conversations of an hour, a busy network's pages work before they open a
conversation (``bot/channels/webchat_tickets.py``), and the difficulty was chosen so that the
300th person of an hour waits well under a second on a cheap phone. This page's JavaScript
(plain SHA-256, no crypto.subtle: the page also works on plain http) solves fresh challenges at
each difficulty the server asks, ``--trials`` times; the same again with Chromium's CPU
throttling (DevTools ``Emulation.setCPUThrottlingRate``, ``--slowdown`` times slower: a
low-end Android phone is 4-8 times slower than a desktop core in JavaScript; Lighthouse's
mobile profile uses 4). Every nonce is checked with Python's hashlib. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import secrets
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.channels.webchat_tickets import FIRST_BITS, LAST_BITS  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
WORK_JS = ROOT / "bot" / "channels" / "webchat" / "work.js"
#: The difficulties asked: the first past the free ones, the 300th person's, the ceiling's.
BITS = (FIRST_BITS, 12, 14, LAST_BITS)
SOLVE_JS = """async ([challenge, bits]) => {
  const started = performance.now();
  const nonce = await window.webchatWork.solve(challenge, bits);
  return [nonce, (performance.now() - started) / 1000];
}"""


def zero_bits(text: str) -> int:
    digest = int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")
    return 256 - digest.bit_length()


def solve_times(page: Page, bits: int, trials: int) -> tuple[list[float], int]:
    """Seconds per challenge solved, and the hashes tried in all."""
    seconds, tries = [], 0
    for _ in range(trials):
        challenge = f"{int(time.time())}.{secrets.token_hex(12)}"
        nonce, took = page.evaluate(SOLVE_JS, [challenge, bits])
        assert zero_bits(f"{challenge}:{nonce}") >= bits, (challenge, nonce)
        seconds.append(float(took))
        tries += int(nonce, 36) + 1
    return seconds, tries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--slowdown", type=float, default=6.0)
    args = parser.parse_args()
    print(
        f"\n### The page's work in Chromium ({platform.node()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}; {args.trials} challenges each)\n"
    )
    print("| CPU | bits | hashes expected | median s | p95 s | max s | hashes/s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        page.set_content("<!doctype html><title>work</title>")
        page.add_script_tag(path=str(WORK_JS))
        for rate, label in ((1.0, "this machine"), (args.slowdown, f"{args.slowdown:g}x slower")):
            page.context.new_cdp_session(page).send(
                "Emulation.setCPUThrottlingRate", {"rate": rate}
            )
            for bits in BITS:
                seconds, tries = solve_times(page, bits, args.trials)
                ordered = sorted(seconds)
                p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
                print(
                    f"| {label} | {bits} | {2**bits:,} | {statistics.median(seconds):.3f} "
                    f"| {p95:.3f} | {max(seconds):.3f} | {tries / sum(seconds):,.0f} |",
                    flush=True,
                )
        browser.close()


if __name__ == "__main__":
    main()
