"""The web chat's files as a slow phone line needs them: compressed, and not sent twice.

A person on 2G pays for every byte: the chat's files are about 45 KB as written and 17 KB
gzipped, and a browser that already has them needs none of them again. Each file is
compressed once, when Rasa starts (the page and ``embed.js`` are filled in then and never
change afterwards), and named by a tag of its content (``ETag``). A browser that asks
``If-None-Match`` with that tag gets ``304 Not Modified`` and no body; the service worker's
copies for opening the chat offline cost as little (docs/BENCHMARKS.md, "Web chat on another
site").
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from sanic.request import Request
from sanic.response import HTTPResponse


@dataclass(frozen=True)
class PageFile:
    """One file of the page, as written and gzipped, with the tag of its content."""

    body: bytes
    gzipped: bytes
    content_type: str
    #: Weak: the same content gzipped or not is one version (RFC 9110, 8.8.3).
    etag: str

    @classmethod
    def of(cls, body: bytes, content_type: str) -> PageFile:
        tag = hashlib.sha256(body).hexdigest()[:20]
        return cls(body, gzip.compress(body, 9, mtime=0), content_type, f'W/"{tag}"')

    def response(self, request: Request, headers: Mapping[str, str]) -> HTTPResponse:
        """The file for this request: nothing when the browser has this version, gzipped
        when it takes gzip (and that is smaller)."""
        common = {**headers, "ETag": self.etag, "Vary": "Accept-Encoding"}
        if _has(request.headers.get("if-none-match", ""), self.etag):
            return HTTPResponse(status=304, headers=common)
        if takes_gzip(request.headers.get("accept-encoding", "")) and len(self.gzipped) < len(
            self.body
        ):
            return HTTPResponse(
                self.gzipped,
                content_type=self.content_type,
                headers={**common, "Content-Encoding": "gzip"},
            )
        return HTTPResponse(self.body, content_type=self.content_type, headers=common)


def _has(if_none_match: str, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names this version (compared weakly) or any."""
    tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return "*" in tags or etag.removeprefix("W/") in tags


def takes_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip: named (or ``*``) without ``q=0``."""
    for part in header.lower().split(","):
        coding, *parameters = (piece.strip() for piece in part.split(";"))
        if coding in ("gzip", "*"):
            return not any(_is_zero(parameter) for parameter in parameters)
    return False


def _is_zero(parameter: str) -> bool:
    """``q=0`` (or ``q=0.000``): the coding is refused."""
    name, _, value = parameter.replace(" ", "").partition("=")
    return name == "q" and value.rstrip("0").rstrip(".") in ("0", "")
