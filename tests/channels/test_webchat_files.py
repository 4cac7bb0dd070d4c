"""The web chat's files on a slow line: gzipped for a browser that takes it, not sent again
to one that has them."""

import gzip

import aiohttp
import pytest

from bot.channels.webchat import FILES, WebchatInput
from bot.channels.webchat_files import takes_gzip
from tests.channels.channel_support import Serve, replying


async def fetch(url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and the body exactly as it came over the wire (not decompressed)."""
    async with (
        aiohttp.ClientSession(auto_decompress=False) as session,
        session.get(url, headers=headers) as r,
    ):
        return r.status, {k.lower(): v for k, v in r.headers.items()}, await r.read()


@pytest.mark.parametrize("name", sorted(FILES))
async def test_each_file_comes_gzipped_and_then_not_again(serve: Serve, name: str) -> None:
    url = await serve(WebchatInput(), replying())
    address = f"{url}/" if name == "index.html" else f"{url}/{name}"
    status, plain_headers, plain = await fetch(address, {"Accept-Encoding": "identity"})
    assert status == 200 and "content-encoding" not in plain_headers
    status, headers, body = await fetch(address, {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == plain and len(body) < len(plain) / 2
    assert headers["etag"] == plain_headers["etag"] and headers["vary"] == "Accept-Encoding"
    # The security headers are on the compressed file too.
    assert headers["content-security-policy"] == plain_headers["content-security-policy"]
    status, again, body = await fetch(
        address, {"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]}
    )
    assert (status, body) == (304, b"") and again["etag"] == headers["etag"]
    status, _, body = await fetch(address, {"If-None-Match": 'W/"an-older-version"'})
    assert status == 200 and body


@pytest.mark.parametrize(
    ("header", "gzipped"),
    [
        ("gzip, deflate, br, zstd", True),
        ("GZIP", True),
        ("br;q=1.0, gzip;q=0.8", True),
        ("*", True),
        ("", False),
        ("identity", False),
        ("gzip;q=0", False),
        ("gzip; q=0.000, br", False),
        ("deflate, br", False),
    ],
)
def test_gzip_only_for_a_browser_that_takes_it(header: str, gzipped: bool) -> None:
    assert takes_gzip(header) is gzipped
