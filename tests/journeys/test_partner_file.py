"""An editor on her phone, on a plain `make run`: a partner's content file that is a YAML bomb
is refused at once, naming its line, while the caseworkers' server keeps answering; then she
confirms a stale gate with one tap and is told its name, not its key."""

from __future__ import annotations

import threading
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import expect

from tests.journeys.conftest import Phone, Running, screenshot

#: 386 bytes that stand for 9^7 strings through nested aliases.
BOMB = "\n".join(
    ["l0: &l0 [" + ",".join(['"lol"'] * 9) + "]"]
    + [f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 8)]
)


def health_while(running: Running, busy: threading.Event, seconds: list[float]) -> None:
    """How long ``/health`` of the admin server takes, again and again while ``busy`` is set."""
    while busy.is_set():
        started = time.perf_counter()
        with urllib.request.urlopen(f"{running.stack.admin_url}/health", timeout=30) as answer:
            answer.read()
        seconds.append(time.perf_counter() - started)
        time.sleep(0.05)


def test_a_partners_bomb_file_is_refused_at_once_and_a_checked_gate_is_named(
    running: Running, phone: Phone, tmp_path: Path
) -> None:
    page = phone()
    link = running.invite("amina")  # names the default port; this stack's is a free one
    page.goto(running.stack.admin_url + link[link.index("/console/") :])
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("What needs me now")

    # One tap on the first record waiting for a check: the notice names it as the list does.
    check = page.get_by_role("button", name="Checked, still true")
    first = page.locator("li.item", has=check).first
    name = first.locator("strong").inner_text().strip()
    key = first.get_attribute("data-key")
    first.get_by_role("button", name="Checked, still true").click()
    status = page.get_by_role("status")
    expect(status).to_contain_text(f"Marked as checked: {name}")
    assert key and key not in status.inner_text()
    screenshot(page, "partner-file-checked")

    # The partner's file.
    bomb = tmp_path / "partner.yml"
    bomb.write_text(BOMB + "\n", encoding="utf-8")
    assert bomb.stat().st_size == 386
    page.goto(f"{running.stack.admin_url}/console/data")
    page.set_input_files("#file", str(bomb))
    busy, health = threading.Event(), []
    busy.set()
    watcher = threading.Thread(target=health_while, args=(running, busy, health))
    watcher.start()
    started = time.perf_counter()
    page.get_by_role("button", name="Import").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("line 1: not valid YAML: anchors and aliases")
    elapsed = time.perf_counter() - started
    busy.clear()
    watcher.join()
    screenshot(page, "partner-file-refused")
    assert elapsed < 3, f"the refusal took {elapsed:.1f} s"
    assert health and max(health) < 1, health
