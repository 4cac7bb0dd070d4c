"""Reading what a request sends: body size first, then syntax, then shape; query parameters.

A body larger than the limit is refused before it is read whole (413); text that is not JSON
is a 400 that says where it breaks; JSON of the wrong shape, or a bad query parameter, is a
422 naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from actions.admin.errors import ApiError
from actions.admin.schema import check_shape
from actions.admin.state import SETTINGS
from actions.content.validation import ContentError


async def read_text(request: web.Request) -> str:
    """The body as UTF-8 text, within the configured size."""
    limit = request.app[SETTINGS].max_body_bytes
    if request.content_length is not None and request.content_length > limit:
        raise too_large(limit)
    raw = await request.read()  # aiohttp enforces client_max_size on chunked bodies too
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ApiError(
            400, "not_utf8", f"the body is not UTF-8 text (byte {error.start}); save it as UTF-8"
        ) from None


def too_large(limit: int) -> ApiError:
    return ApiError(
        413,
        "body_too_large",
        f"the request body is larger than {limit} bytes; send less (split a large import)",
    )


async def read_json(
    request: web.Request, schema: Mapping[str, Any], optional: bool = False
) -> dict[str, Any]:
    """A JSON object of the shape ``schema`` describes; ``{}`` for an empty optional body."""
    text = await read_text(request)
    if optional and not text.strip():
        return {}
    try:
        body = json.loads(text)
    except json.JSONDecodeError as error:
        raise ApiError(
            400,
            "malformed_json",
            f"the body is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}",
            line=error.lineno,
        ) from None
    except RecursionError:
        raise ApiError(400, "malformed_json", "the body nests too deeply to be a record") from None
    if not isinstance(body, dict):
        raise ApiError(422, "invalid_body", 'the body must be a JSON object, e.g. {"note": "…"}')
    try:
        check_shape(schema, body)
    except ContentError as error:
        raise ApiError(422, "invalid_field", str(error), error.field) from None
    return body


def query_flag(request: web.Request, name: str) -> bool:
    """``?name=true`` (or 1, yes); absent means false."""
    raw = request.query.get(name, "false").strip().lower()
    if raw in ("true", "1", "yes"):
        return True
    if raw in ("false", "0", "no", ""):
        return False
    raise ApiError(422, "invalid_query", f"'{name}' is {raw!r}; write true or false", name)


def query_int(request: web.Request, name: str, default: int, maximum: int) -> int:
    raw = request.query.get(name, "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10 and 1 <= int(raw) <= maximum):
        raise ApiError(
            422,
            "invalid_query",
            f"'{name}' is {raw!r}; give a whole number from 1 to {maximum}",
            name,
        )
    return int(raw)
