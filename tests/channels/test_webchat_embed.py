"""The web chat on other sites' pages: ``WEBCHAT_ORIGINS``, the page's ``frame-ancestors``, and
``/webchat/embed.js`` as those pages get it (the browser's side: tests/integration/test_embed.py).
"""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

import aiohttp
import pytest
from multidict import CIMultiDictProxy

from bot.channels.settings import WebchatSettings
from bot.channels.webchat import ASSETS, EMBED_CACHE, WebchatInput
from bot.channels.webchat_page import EMBED_MARKER, embed_config, render_embed
from kernel.lang import texts
from kernel.lang.codes import LANGUAGES
from tests.channels.channel_support import FakeBot, Serve

#: What embed.js may weigh on the wire, gzipped: it is loaded with every page of the site.
MAX_EMBED_GZIPPED = 4 * 1024


async def fetch(url: str) -> tuple[int, CIMultiDictProxy[str], bytes]:
    async with aiohttp.ClientSession() as session, session.get(url) as r:
        return r.status, r.headers, await r.read()


def frame_ancestors(headers: CIMultiDictProxy[str]) -> str:
    found = re.search(r"frame-ancestors ([^;]*)", headers["Content-Security-Policy"])
    assert found is not None, headers["Content-Security-Policy"]
    return found.group(1).strip()


def test_the_origins_are_read_as_browsers_write_them() -> None:
    written = " https://NGO.example.org, http://10.0.0.5:8080 ,,https://ngo.example.org/"
    loaded = WebchatSettings.load({"WEBCHAT_ORIGINS": written})
    assert loaded.origins == ("https://ngo.example.org", "http://10.0.0.5:8080")
    assert WebchatSettings.load({}).origins == ()
    assert WebchatSettings.load({"WEBCHAT_ORIGINS": "http://[::1]:8000"}).origins == (
        "http://[::1]:8000",
    )


@pytest.mark.parametrize(
    "written",
    [
        "ngo.example.org",  # no scheme
        "https://ngo.example.org/help",  # a path
        "https://ngo.example.org?x=1",
        "https://*.example.org",  # a wildcard
        "*",
        "ftp://ngo.example.org",
        "https://ngo.example.org:99999",
        "https://user@ngo.example.org",
        "https://ngo.example.org; script-src *",  # would write its own policy
        "'self'",
        "http://[not:an:address]",
    ],
)
def test_an_origin_that_is_not_scheme_host_and_port_stops_the_start(written: str) -> None:
    with pytest.raises(ValueError, match=r"WEBCHAT_ORIGINS has .*scheme://host\[:port\]|IPv6"):
        WebchatSettings.load({"WEBCHAT_ORIGINS": f"https://ok.example.org,{written}"})


async def test_the_page_shows_in_frames_of_its_own_origin_only_by_default(serve: Serve) -> None:
    url = await serve(WebchatInput(), FakeBot())
    for name in ("", "widget.js", "embed.js"):
        _, headers, _ = await fetch(f"{url}/{name}")
        assert frame_ancestors(headers) == "'self'"


async def test_the_page_shows_in_frames_of_the_listed_sites(serve: Serve) -> None:
    settings = WebchatSettings.load(
        {"WEBCHAT_ORIGINS": "https://ngo.example.org,http://127.0.0.2:8080"}
    )
    url = await serve(WebchatInput(settings=settings), FakeBot())
    root = url.removesuffix("/webhooks/webchat")
    for base in (url, f"{root}/webchat"):
        status, headers, _ = await fetch(f"{base}/")
        assert status == 200
        assert frame_ancestors(headers) == "'self' https://ngo.example.org http://127.0.0.2:8080"
        assert "default-src 'self'" in headers["Content-Security-Policy"]


def embedded_config(script: bytes) -> dict[str, Any]:
    found = re.search(rb"var CONFIG = (\{.*?\});\n", script)
    assert found is not None
    config: dict[str, Any] = json.loads(found.group(1))
    return config


async def test_embed_js_is_served_to_every_site_cached_with_its_words(serve: Serve) -> None:
    url = await serve(WebchatInput(), FakeBot())
    root = url.removesuffix("/webhooks/webchat")
    status, headers, script = await fetch(f"{root}/webchat/embed.js")
    assert status == 200
    assert headers["Content-Type"].split(";")[0] == "text/javascript"
    assert headers["Cache-Control"] == EMBED_CACHE and "max-age=86400" in EMBED_CACHE
    assert headers["Cross-Origin-Resource-Policy"] == "cross-origin"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "Access-Control-Allow-Origin" not in headers  # it calls nothing of ours itself
    assert EMBED_MARKER.encode() not in script
    config = embedded_config(script)
    assert config == embed_config()
    assert list(config["languages"]) == list(LANGUAGES)
    for code in LANGUAGES:
        for word in ("open", "close", "title"):
            assert config["languages"][code][word] == texts.render(f"webchat.{word}", code)
    assert config["languages"]["prs"]["open"] == "کمک"
    assert {alias: config["aliases"][alias] for alias in ("fa", "fa-af", "prs", "ps-af")} == {
        "fa": "prs",
        "fa-af": "prs",
        "prs": "prs",
        "ps-af": "ps",
    }


def test_embed_js_is_small_and_asks_nothing_a_strict_policy_forbids() -> None:
    script = render_embed((ASSETS / "embed.js").read_text())
    assert len(gzip.compress(script, 9)) <= MAX_EMBED_GZIPPED
    code = script.decode()
    for forbidden in (
        "eval(",
        "new Function",
        "innerHTML",
        "cssText",
        'setAttribute("style"',
        'createElement("style")',
        "<style",
        "fetch(",
        "XMLHttpRequest",
        "document.write",
    ):
        assert forbidden not in code, forbidden
    assert code.count("postMessage(") == 1  # "focus", to the chat's own origin only


def test_embed_js_without_its_marker_is_refused() -> None:
    with pytest.raises(ValueError, match=r"embed\.js must hold"):
        render_embed("(function () {}());")
