"""An organisation's own site, for the web chat on another site's page (``/webchat/embed.js``):
one page with the tag, served from an origin that is not the assistant's, under a strict
Content-Security-Policy, with a stylesheet that would spoil every element it reaches.

Standard library only: the integration tests and the journeys both serve it.
"""

from __future__ import annotations

import html
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Final

#: What a careless site's stylesheet does to every element it reaches; none of it may reach
#: the chat (its frame) or spoil the button (its own styles, inline and !important).
HOSTILE_CSS: Final = """* { font-size: 31px !important; font-family: serif !important; }
button { background: #ffeb3b !important; color: #ffeb3b !important; }
iframe, div { display: none !important; }
main { display: block !important; }
"""


def strict_policy(assistant: str) -> str:
    """A site that allows nothing but the assistant's script and frame, and its own styles and
    images: no inline style, no inline script, no eval, nothing else from anywhere."""
    return (
        f"default-src 'none'; script-src {assistant}; frame-src {assistant}; style-src 'self'; "
        "img-src 'self'; base-uri 'none'; form-action 'none'"
    )


def ngo_page(assistant: str, lang: str = "fa-AF", direction: str = "rtl", tag: str = "") -> str:
    """A Dari page of an organisation helping evacuees, with the web chat's tag (``tag``: its
    ``data-`` attributes)."""
    src = html.escape(f"{assistant}/webchat/embed.js")
    return f"""<!doctype html>
<html lang="{lang}" dir="{direction}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>شبکه کمک کابل</title>
<link rel="stylesheet" href="/site.css">
</head>
<body>
<main>
<h1>شبکه کمک کابل</h1>
<p>ما به خانواده‌هایی که از کابل تخلیه شده‌اند کمک می‌کنیم.</p>
{"".join(f"<p>بخش {n}: معلومات در باره اسناد، پروازها و کمپ‌ها.</p>" for n in range(1, 31))}
</main>
<script src="{src}" async{tag}></script>
</body>
</html>
"""


@dataclass
class HostSite:
    """One site on ``host`` (an address of its own, such as 127.0.0.2: another origin than the
    assistant's 127.0.0.1), serving ``page`` at ``/`` and ``stylesheet`` at ``/site.css``,
    each under ``policy``."""

    host: str
    page: str = ""
    policy: str = ""
    stylesheet: str = HOSTILE_CSS
    _server: ThreadingHTTPServer | None = None

    @property
    def origin(self) -> str:
        assert self._server is not None, "start() first"
        return f"http://{self.host}:{self._server.server_address[1]}"

    def start(self) -> HostSite:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # http.server calls it by this name
                path = self.path.split("?")[0]
                if path == "/":
                    self._send(200, "text/html; charset=utf-8", site.page.encode())
                elif path == "/site.css":
                    self._send(200, "text/css; charset=utf-8", site.stylesheet.encode())
                else:
                    self._send(204, "text/plain", b"")  # /favicon.ico: nothing, and no error

            def _send(self, status: int, kind: str, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                if site.policy:
                    self.send_header("Content-Security-Policy", site.policy)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                return  # quiet: the test says what went wrong

        self._server = ThreadingHTTPServer((self.host, 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
