"""Every failure as ``{"error": {"code", "message", "field"}}``; the message says what to fix.

An editor on a phone at 3 a.m. reads the message, so it names the field and the remedy (the
editing service's :class:`ContentError` wording is reused as is); a script reads ``code``.
Unexpected failures are logged with their traceback, but never with the request's body or
headers: those carry tokens and unpublished content.
"""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler
from sqlalchemy.exc import DataError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from actions.content.validation import ContentError

logger = logging.getLogger(__name__)

#: Codes for aiohttp's own HTTP errors (unknown path, wrong method, body too large, …).
HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
}
#: What to do about them.
HTTP_MESSAGES = {
    404: "there is no such endpoint; see /openapi.json for the ones there are",
    413: "the request body is too large; send a smaller file or split the import",
}


#: The shape of every error, for /openapi.json.
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "field"],
            "properties": {
                "code": {"type": "string", "examples": ["invalid_field", "missing_token"]},
                "message": {"type": "string", "description": "what is wrong and how to fix it"},
                "field": {"type": ["string", "null"], "examples": ["changes.advice.prs"]},
                "line": {"type": ["integer", "null"], "description": "content files only"},
            },
        }
    },
}
UNAVAILABLE = "the content database cannot be used right now; nothing was changed, try again soon"
UNSTORABLE = "a value is too long or cannot be stored; shorten the key or text, nothing was changed"
FAILED = "the server failed on this request; if it was a change, check /history before retrying"


class ApiError(Exception):
    """A request the API refuses; ``extra`` members go into the error object (e.g. ``line``)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        field: str | None = None,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field
        self.headers, self.extra = headers or {}, extra

    def response(self) -> web.Response:
        error = {"code": self.code, "message": self.message, "field": self.field, **self.extra}
        return web.json_response({"error": error}, status=self.status, headers=self.headers)


def from_content_error(
    error: ContentError, status: int = 422, code: str = "invalid_content", prefix: str = ""
) -> ApiError:
    """The service's own words; ``prefix`` says where the field is in the body (``changes.``)."""
    field = None if error.field is None else f"{prefix}{error.field}"
    return ApiError(status, code, str(error), field)


def _from_http(error: web.HTTPException, request: web.Request) -> ApiError:
    message = HTTP_MESSAGES.get(error.status, error.reason.lower())
    if isinstance(error, web.HTTPMethodNotAllowed):
        allowed = ", ".join(sorted(error.allowed_methods))
        message = f"{request.method} is not allowed on {request.path}; allowed: {allowed}"
    headers = {"Allow": error.headers["Allow"]} if "Allow" in error.headers else None
    code = HTTP_CODES.get(error.status, f"http_{error.status}")
    return ApiError(error.status, code, message, headers=headers)


@web.middleware
async def errors_as_json(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Outermost middleware: whatever goes wrong, the client gets the documented error shape."""
    try:
        return await handler(request)
    except ApiError as error:
        return error.response()
    except web.HTTPException as error:
        if error.status < 400:
            raise
        return _from_http(error, request).response()
    except ContentError as error:  # a service refusal no handler mapped: still the user's input
        return from_content_error(error).response()
    except DataError as error:
        # A value the service let through but the database cannot hold (on PostgreSQL: one
        # longer than its column; keys are checked first). Rolled back; the fix is the client's.
        # Logged without the message: it may quote the value.
        logger.warning(
            "%s %s: value refused by the database (%s)",
            request.method,
            request.path,
            type(error.orig).__name__,
        )
        reason = str(error.orig).splitlines()[0]
        return ApiError(422, "unstorable_value", f"{UNSTORABLE} ({reason})").response()
    except (OperationalError, PoolTimeout):
        # Unreachable, or SQLite busy: the transaction was rolled back, a retry may work.
        logger.error(
            "%s %s: content database unavailable", request.method, request.path, exc_info=True
        )
        return ApiError(503, "database_unavailable", UNAVAILABLE).response()
    except Exception:
        logger.error("%s %s failed", request.method, request.path, exc_info=True)
        return ApiError(500, "internal_error", FAILED).response()
