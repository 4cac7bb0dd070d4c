"""What the web chat on another site's page costs a phone on a slow line: ``embed.js`` on the
site's page, then the chat once the button is tapped, beside the chat opened at ``/webchat/``.

    .venv/actions/bin/python scripts/bench_embed.py [--runs 5]

Why: an organisation's page carries ``<script src=".../webchat/embed.js" async>`` on every
page, so what it weighs is paid by every visitor, most of whom never tap the button; the chat
itself is paid once tapped. The stack is `make run`'s (``seeded_embedded_stack``) with
``WEBCHAT_ORIGINS`` naming the site; the site is the tests' Dari page of an organisation on
another origin (127.0.0.2, ``tests/integration/host_site.py``) under its strict
Content-Security-Policy. Debian's Chromium on a 360 px phone, each run a new browser profile
(empty cache, no service worker: a first visit), with DevTools' Slow 3G preset (``SLOW_3G``)
set through the Chrome DevTools Protocol. Bytes are what the page's CDP session reports
(``Network.loadingFinished`` ``encodedDataLength``: headers and body as they came over the
wire); times are the pages' own clocks. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import os
import platform
import re
import statistics
import sys
import tempfile
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from playwright.sync_api import (
    Browser,
    BrowserContext,
    CDPSession,
    Frame,
    Page,
    Request,
    ViewportSize,
    sync_playwright,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import CHROMIUM  # noqa: E402
from scripts.browser import CHROMIUM_ARGS as TESTS_CHROMIUM_ARGS  # noqa: E402
from scripts.stack import Stack, seeded_embedded_stack  # noqa: E402
from tests.integration.host_site import HostSite, ngo_page, strict_policy  # noqa: E402

MODEL = ROOT / "models" / "assistant.tar.gz"
#: The browser tests' Chromium, with every site of a tab in one process, as on most Android
#: phones (Chrome isolates there only the sites people sign in to): the chat's frame is then
#: part of the page's DevTools target, so the throttling set on the page reaches its requests
#: and the page's CDP session reports them. An isolated frame would be a target of its own,
#: unthrottled but for its first request.
CHROMIUM_ARGS: Final = (
    *TESTS_CHROMIUM_ARGS,
    "--disable-site-isolation-trials",
    "--disable-features=IsolateOrigins,site-per-process",
)
#: DevTools' "Slow 3G" preset (titled "3G" in recent DevTools; Slow3GConditions in
#: front_end/core/sdk/NetworkManager.ts): 500 kbit/s each way at 80 %, i.e. 50 000 bytes a
#: second, and a 400 ms round trip times 5, i.e. 2 000 ms added to every request (DevTools
#: throttles requests, not packets).
SLOW_3G: Final = {
    "offline": False,
    "latency": 400 * 5,
    "downloadThroughput": 500 * 1000 / 8 * 0.8,
    "uploadThroughput": 500 * 1000 / 8 * 0.8,
}
PHONE: Final[ViewportSize] = {"width": 360, "height": 740}
#: The targets: embed.js gzipped, and the chat's own bytes until its question box works.
EMBED_MAX: Final = 4 * 1024
CHAT_MAX: Final = 40 * 1024
#: In every document: when (epoch ms) the button was painted and tapped, when the chat's page
#: had loaded (its script run: the question box works) and painted its greeting.
MARKS_JS: Final = """(() => {
  const marks = (window.benchMarks = {});
  const now = () => performance.timeOrigin + performance.now();
  const painted = (name) => requestAnimationFrame(() => { if (!marks[name]) marks[name] = now(); });
  new MutationObserver(() => {
    if (!marks.launcher && document.getElementById("evacuee-webchat-open")) painted("launcher");
    if (!marks.greeting && document.querySelector(".msg.welcome")) painted("greeting");
  }).observe(document, { childList: true, subtree: true });
  addEventListener("load", () => { marks.load = now(); });
  addEventListener("click", (event) => {
    if (!marks.tap && event.target.closest && event.target.closest("#evacuee-webchat-open")) {
      marks.tap = now();
    }
  }, true);
})();"""
CHAT_FRAME = "#evacuee-webchat iframe"
#: What the chat's page needs before its question box works: its document and what its load
#: event waits for (styles and scripts); the greeting comes after, fetched by its script.
PAGE_KINDS: Final = {"Document", "Stylesheet", "Script"}
#: One visit's measures by name: ``..._s`` seconds, the rest bytes or counts.
Measures = dict[str, float]


@dataclass
class Transfer:
    """One response as the page's CDP session saw it; times in epoch ms."""

    url: str
    kind: str
    sent: float
    headers_bytes: int = 0
    wire_bytes: int | None = None  # None: not finished
    finished: float | None = None
    encoding: str = ""

    @property
    def body_bytes(self) -> int:
        return (self.wire_bytes or 0) - self.headers_bytes


@dataclass
class Wire:
    """Every request a page's CDP session reports: the page's and its in-process frames'."""

    transfers: dict[str, Transfer] = field(default_factory=dict)
    #: The Accept-Encoding each request went out with (its extra info may come first).
    asked: dict[str, str] = field(default_factory=dict)
    #: Epoch seconds minus CDP's monotonic seconds, per request.
    offsets: dict[str, float] = field(default_factory=dict)

    def listen(self, cdp: CDPSession) -> None:
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.requestWillBeSentExtraInfo", self._asked)
        cdp.on("Network.responseReceived", self._answered)
        cdp.on("Network.loadingFinished", self._finished)

    def _sent(self, event: dict[str, Any]) -> None:
        self.offsets[event["requestId"]] = event["wallTime"] - event["timestamp"]
        self.transfers[event["requestId"]] = Transfer(
            event["request"]["url"], event.get("type", ""), event["wallTime"] * 1000
        )

    def _asked(self, event: dict[str, Any]) -> None:
        headers = {name.lower(): value for name, value in event["headers"].items()}
        self.asked[event["requestId"]] = headers.get("accept-encoding", "")

    def _answered(self, event: dict[str, Any]) -> None:
        transfer = self.transfers.get(event["requestId"])
        if transfer is not None:
            headers = {name.lower(): value for name, value in event["response"]["headers"].items()}
            transfer.encoding = headers.get("content-encoding", "")
            transfer.headers_bytes = int(event["response"].get("encodedDataLength", 0))

    def _finished(self, event: dict[str, Any]) -> None:
        transfer = self.transfers.get(event["requestId"])
        if transfer is not None:
            transfer.wire_bytes = int(event["encodedDataLength"])
            transfer.finished = (event["timestamp"] + self.offsets[event["requestId"]]) * 1000

    def of(self, origin: str, since: float = 0.0, until: float = float("inf")) -> list[Transfer]:
        """Finished requests to ``origin``, sent at ``since`` or later, finished by ``until``."""
        return [
            t
            for t in self.transfers.values()
            if t.url.startswith(origin + "/")
            and t.sent >= since
            and t.finished is not None
            and t.finished <= until
        ]

    def named(self, url: str) -> tuple[str, Transfer]:
        """The request for ``url`` and its id."""
        return next((rid, t) for rid, t in self.transfers.items() if t.url == url)


def total(transfers: list[Transfer]) -> int:
    return sum(t.wire_bytes or 0 for t in transfers)


@dataclass
class Visit:
    """A first visit on a slow line: a new profile, its page, what went over the wire."""

    context: BrowserContext
    page: Page
    cdp: CDPSession
    wire: Wire
    #: The service worker's requests: another DevTools target, so neither throttled nor in
    #: ``wire``; Playwright reports them.
    worker: list[Request]

    def worker_rows(self) -> list[tuple[str, int, int]]:
        """Each of the service worker's requests: its URL, headers and body bytes (Chromium
        gives no body size for the worker's own script: its Content-Length then)."""
        rows = []
        for request in self.worker:
            sizes, response = request.sizes(), request.response()
            body = sizes["responseBodySize"]
            length = response.header_value("content-length") if response else None
            encoded = response.header_value("content-encoding") if response else None
            if not body and length and not encoded:
                body = int(length)
            rows.append((request.url, sizes["responseHeadersSize"], body))
        return rows

    def worker_bytes(self) -> int:
        return sum(headers + body for _, headers, body in self.worker_rows())


def first_visit(browser: Browser) -> Visit:
    """A phone in Dari with nothing kept from before, on DevTools' Slow 3G."""
    context = browser.new_context(viewport=PHONE, locale="fa-AF", is_mobile=True, has_touch=True)
    context.add_init_script(MARKS_JS)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    wire = Wire()
    wire.listen(cdp)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_3G)
    worker: list[Request] = []
    context.on("requestfinished", lambda r: worker.append(r) if r.service_worker else None)
    return Visit(context, page, cdp, wire, worker)


def marks(frame: Page | Frame) -> dict[str, float]:
    """The document's marks (``MARKS_JS``), and ``start``: its navigation start, epoch ms."""
    found = dict(frame.evaluate("window.benchMarks"))
    return {**found, "start": float(frame.evaluate("performance.timeOrigin"))}


def chat_frame(page: Page) -> Frame:
    handle = page.locator(CHAT_FRAME).element_handle()
    frame = handle.content_frame() if handle else None
    assert frame is not None, "no chat frame"
    return frame


def wait_for_worker(frame: Frame) -> None:
    """Until the chat's service worker is active: its copies of the page's files made."""
    frame.evaluate("navigator.serviceWorker.ready.then(() => true)")
    frame.page.wait_for_timeout(500)  # the last responses' events


def seconds(since: float, until: float) -> float:
    return (until - since) / 1000


def chat_measures(wire: Wire, assistant: str, since: float, chat: dict[str, float]) -> Measures:
    """What the chat's page cost from ``since`` (the tap, or the navigation) on."""
    page = [t for t in wire.of(assistant, since=since) if t.kind in PAGE_KINDS]
    greeted = wire.of(assistant, since=since, until=chat["greeting"])
    return {
        "ready_s": seconds(since, chat["load"]),
        "ready_bytes": total(page),
        "ready_requests": len(page),
        "ready_compressed": sum(t.encoding in ("gzip", "br", "zstd") for t in page),
        "greeting_s": seconds(since, chat["greeting"]),
        "greeting_bytes": total(greeted),
    }


def embedded(browser: Browser, site: HostSite, assistant: str) -> Measures:
    """The site's page with the tag: the button, then the chat once tapped."""
    visit = first_visit(browser)
    try:
        page, wire = visit.page, visit.wire
        page.goto(f"{site.origin}/", wait_until="load")
        page.wait_for_timeout(1_000)  # anything the button loaded unasked would show by now
        top = marks(page)
        before = [t for t in wire.transfers.values() if t.url.startswith(assistant + "/")]
        script_id, script = wire.named(f"{assistant}/webchat/embed.js")
        page.locator("#evacuee-webchat-open").tap()
        frame = chat_frame(page)
        frame.locator(".msg.welcome").first.wait_for(timeout=120_000)
        focused = frame.evaluate("document.activeElement && document.activeElement.id")
        assert focused == "input", f"the question box is not focused: {focused}"
        wait_for_worker(frame)
        tap = marks(page)["tap"]
        return {
            "embed_wire": script.wire_bytes or 0,
            "embed_body": script.body_bytes,
            "embed_compressed": int(script.encoding in ("gzip", "br", "zstd")),
            "asked_gzip": int("gzip" in wire.asked.get(script_id, "")),
            "launcher_s": seconds(top["start"], top["launcher"]),
            "site_load_s": seconds(top["start"], top["load"]),
            "before_tap": len(before),
            **chat_measures(wire, assistant, tap, marks(frame)),
            "worker_bytes": visit.worker_bytes(),
        }
    finally:
        visit.context.close()


def direct(browser: Browser, assistant: str) -> Measures:
    """The chat's own page opened as a link: no site, no tag, no frame."""
    visit = first_visit(browser)
    try:
        page = visit.page
        page.goto(f"{assistant}/webchat/?lang=prs", wait_until="load")
        page.locator(".msg.welcome").first.wait_for(timeout=120_000)
        wait_for_worker(page.main_frame)
        chat = marks(page)
        return {
            **chat_measures(visit.wire, assistant, chat["start"], chat),
            "worker_bytes": visit.worker_bytes(),
        }
    finally:
        visit.context.close()


def site_alone(browser: Browser, site: HostSite) -> Measures:
    """The site's page without the tag: what the tag adds to the site's own load."""
    visit = first_visit(browser)
    try:
        visit.page.goto(f"{site.origin}/", wait_until="load")
        top = marks(visit.page)
        return {"site_load_s": seconds(top["start"], top["load"])}
    finally:
        visit.context.close()


def responses(browser: Browser, site: HostSite, assistant: str) -> list[str]:
    """Table rows: one embedded visit's responses from the assistant, each as served and as
    gzip would make its body (level 6, a web server's usual), then the service worker's."""
    visit = first_visit(browser)
    try:
        visit.page.goto(f"{site.origin}/", wait_until="load")
        visit.page.locator("#evacuee-webchat-open").tap()
        frame = chat_frame(visit.page)
        frame.locator(".msg.welcome").first.wait_for(timeout=120_000)
        wait_for_worker(frame)
        rows = []
        for request_id, t in visit.wire.transfers.items():
            if t.url.startswith(assistant + "/") and t.wire_bytes is not None:
                body = visit.cdp.send("Network.getResponseBody", {"requestId": request_id})
                text = str(body["body"])
                raw = base64.b64decode(text) if body["base64Encoded"] else text.encode()
                squeezed = len(gzip.compress(raw, 6))
                rows.append(
                    f"| `{t.url[len(assistant) :]}` | {t.kind} | {t.headers_bytes:,} "
                    f"| {t.body_bytes:,} | {t.encoding or 'none'} | {squeezed:,} |"
                )
        for url, headers, body_bytes in visit.worker_rows():
            rows.append(
                f"| `{url[len(assistant) :]}` | service worker | {headers:,} | {body_bytes:,} "
                "| – | – |"
            )
        return rows
    finally:
        visit.context.close()


def cell(runs: list[Measures], name: str) -> str:
    """``median / worst`` over the runs: seconds to a tenth, bytes and counts whole."""
    values = [run[name] for run in runs]
    if name.endswith("_s"):
        return f"{statistics.median(values):.1f} / {max(values):.1f}"
    return f"{statistics.median(values):,.0f} / {max(values):,.0f}"


def report(
    embeds: list[Measures], directs: list[Measures], alone: list[Measures], rows: list[str]
) -> None:
    print("Before the tap, on the site's page with the tag (median / worst):\n")
    print("| | median / worst |\n|---|---|")
    print(f"| embed.js on the wire, bytes (headers and body) | {cell(embeds, 'embed_wire')} |")
    print(f"| embed.js's body, bytes | {cell(embeds, 'embed_body')} |")
    print(f"| the button shown, s after navigation start | {cell(embeds, 'launcher_s')} |")
    print(f"| the site's load event, s | {cell(embeds, 'site_load_s')} |")
    print(f"| the same page without the tag: its load event, s | {cell(alone, 'site_load_s')} |")
    print(f"| requests to the assistant before the tap | {cell(embeds, 'before_tap')} |")
    print("\nThe chat (median / worst):\n")
    print("| | via the embed, from the tap | `/webchat/` opened directly, from navigation |")
    print("|---|---|---|")
    for label, name in (
        ("bytes until the question box works", "ready_bytes"),
        ("requests until then", "ready_requests"),
        ("s until the question box works (the chat's load event)", "ready_s"),
        ("bytes until the greeting is shown", "greeting_bytes"),
        ("s until the greeting is shown", "greeting_s"),
        ("the service worker's copies then, bytes (not throttled)", "worker_bytes"),
    ):
        print(f"| {label} | {cell(embeds, name)} | {cell(directs, name)} |")
    print("\nOne embedded visit's responses from the assistant, bytes:\n")
    print("| request | type | headers | body | Content-Encoding | body gzipped (level 6) |")
    print("|---|---|---:|---:|---|---:|")
    print("\n".join(rows))
    print()
    print("\n".join(verdicts(embeds)))


def verdicts(embeds: list[Measures]) -> list[str]:
    """The targets, against the worst run."""
    embed_js = max(run["embed_body"] for run in embeds)
    chat = max(run["ready_bytes"] for run in embeds)
    compressed = all(
        run["embed_compressed"] and run["ready_compressed"] == run["ready_requests"]
        for run in embeds
    )
    alone = all(run["before_tap"] == 1 for run in embeds)
    return [
        f"- Chromium asked for gzip (Accept-Encoding): "
        f"{'yes' if all(run['asked_gzip'] for run in embeds) else 'NO'}; the server compressed "
        f"embed.js and the chat's files: {'yes' if compressed else 'NO, no Content-Encoding'}",
        f"- embed.js ≤ {EMBED_MAX:,} bytes gzipped: {embed_js:,.0f} bytes of body on the wire, "
        f"{'met' if embed_js <= EMBED_MAX else 'NOT met'}",
        f"- the chat ≤ {CHAT_MAX:,} bytes: {chat:,.0f} on the wire until its question box works, "
        f"{'met' if chat <= CHAT_MAX else 'NOT met'}",
        f"- nothing from the assistant before the tap but embed.js: {'yes' if alone else 'NO'}",
    ]


def warm(assistant: str) -> None:
    """What the server makes on its first request (the page, the greeting), made before the
    first measured visit."""
    for path in ("/webchat/?lang=prs", "/webchat/welcome?language=prs", "/webchat/embed.js"):
        with urllib.request.urlopen(assistant + path, timeout=60) as response:
            response.read()


def measure(stack: Stack, site: HostSite, runs: int) -> None:
    """``runs`` rounds of the three visits, interleaved, then one visit's responses."""
    assistant = stack.rasa_url
    warm(assistant)
    tagged = ngo_page(assistant)
    tagless = re.sub(r"<script [^>]*></script>\n", "", tagged)
    site.policy = strict_policy(assistant)
    embeds, directs, alone = [], [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for number in range(runs):
            site.page = tagged
            embeds.append(embedded(browser, site, assistant))
            directs.append(direct(browser, assistant))
            site.page = tagless
            alone.append(site_alone(browser, site))
            print(f"run {number + 1} of {runs} done", file=sys.stderr)
        site.page = tagged
        rows = responses(browser, site, assistant)
        print(
            f"\n### On DevTools' Slow 3G ({platform.node()}, {os.cpu_count()} cores, load "
            f"average {os.getloadavg()[0]:.1f}, Chromium {browser.version}; {runs} first visits "
            "each)\n"
        )
        browser.close()
    report(embeds, directs, alone, rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for needed, how in ((MODEL, "make train"), (CHROMIUM, "make deps")):
        if not needed.exists():
            print(f"{needed} is missing: run `{how}`", file=sys.stderr)
            return 1
    site = HostSite("127.0.0.2").start()
    with tempfile.TemporaryDirectory(prefix="bench-embed-") as work:
        stack = seeded_embedded_stack(Path(work), MODEL, {"WEBCHAT_ORIGINS": site.origin})
        try:
            stack.start()
            measure(stack, site, args.runs)
        finally:
            stack.stop()
            site.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
