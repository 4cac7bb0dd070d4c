"""Two editors, one record: ETag on reading, If-Match on changing, 412 when it is stale.

A record's version is the id of its latest revision (``editing.version_of``); the service
compares it with the row locked, so a check and the write it guards cannot be split by another
editor's change. Only one strong entity tag is accepted: a record has one version at a time.
"""

from __future__ import annotations

import re
from typing import Any

from aiohttp import hdrs, web
from sqlalchemy.orm import Session

from actions.admin import present
from actions.admin.errors import ApiError
from actions.admin.state import in_transaction
from actions.content.editing import StaleVersion, version_of
from actions.content.records import KindSpec

_TAG = re.compile(r'"(\d{1,12})"')
#: If-Match: * — "change it only if it exists"; told apart from a version by this sentinel.
ANY = -1


def etag(version: int) -> str:
    return f'"{version}"'


def expected_version(request: web.Request) -> int | None:
    """The version If-Match names, :data:`ANY` for ``*``, None without the header."""
    raw = request.headers.get(hdrs.IF_MATCH)
    if raw is None:
        return None
    raw = raw.strip()
    if raw == "*":
        return ANY
    match = _TAG.fullmatch(raw)
    if match is None:
        raise ApiError(
            400,
            "invalid_if_match",
            'If-Match must be one ETag as GET answered it, with its quotes: If-Match: "42"',
            "If-Match",
        )
    return int(match.group(1))


def exists_or_stale(spec: KindSpec, key: str, row: Any, expected: int | None) -> int | None:
    """What to hand the service: ``*`` on a missing record is already stale; else as given."""
    if expected != ANY:
        return expected
    if row is None:
        raise StaleVersion(spec.kind.value, key, ANY, None)
    return None


async def stale(request: web.Request, spec: KindSpec, key: str, error: StaleVersion) -> ApiError:
    """412 with who changed it and when, the record as it is now and its ETag."""

    def read(session: Session) -> tuple[dict[str, Any] | None, int]:
        row = spec.find(session, key)
        return (None if row is None else present.record(spec, row)), version_of(
            session, spec.kind, row
        )

    current, version = await in_transaction(request, read)
    return ApiError(
        412,
        "stale_version",
        str(error)
        if error.expected != ANY
        else f"there is no {spec.kind.value} {key} (If-Match: *)",
        "If-Match",
        headers={hdrs.ETAG: etag(version)},
        changed_by=error.changed_by,
        changed_at=None if error.changed_at is None else error.changed_at.isoformat(),
        current=current,
    )
