"""What every connector shares: authenticate first, then read a bounded body and parse it
without stalling the server; message splitting; one HTTP session per process for the API.

Rasa's own connectors read whatever Sanic buffered (up to 100 MB) and open a new client per
message; ours check the signature or secret from the headers before reading anything, refuse
large bodies while reading them, and reuse one connection pool.
"""

import asyncio
import hmac
import json
import logging
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Final, TypeVar
from urllib.parse import parse_qsl

import aiohttp
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.blueprints import Blueprint
from bot.channels.sms_segments import prefix_within

logger = logging.getLogger(__name__)

#: Provider payloads are a few kilobytes; anything above this is not a provider talking.
MAX_BODY_BYTES = 1024 * 1024
#: Every webhook's body limit, in one place. Telegram and WhatsApp batch several updates in one
#: notification; Twilio and SMS gateways post one short form; the web chat one typed message.
BODY_LIMITS: Final[dict[str, int]] = {
    "telegram": MAX_BODY_BYTES,
    "whatsapp": MAX_BODY_BYTES,
    "twilio_sms": 64 * 1024,
    "sms_gateway": 64 * 1024,
    "webchat": 16 * 1024,
}
#: The most text of one message that reaches the assistant. Nobody types more at a checkpoint;
#: a 10 MB "message" would only make the language identifier and the classifier work for it.
MAX_TEXT_CHARS: Final = 2000
#: Bodies up to this size are parsed on the event loop (well under a millisecond); larger ones in
#: a worker thread, so one big request never holds up the other people being answered.
INLINE_PARSE_BYTES: Final = 64 * 1024
#: A provider that has not answered by then is down; the user is better served by a log line
#: than by a request that hangs until the provider gives up on our webhook.
API_TIMEOUT = aiohttp.ClientTimeout(total=15, connect=5)

T = TypeVar("T")


class BodyTooLarge(Exception):
    """The request body is larger than a provider would ever send."""


class MalformedRequest(ValueError):
    """A request we cannot read; the message says what the sender must fix."""


def secrets_match(given: str | None, expected: str) -> bool:
    """Constant-time comparison, so response timing does not leak the secret.

    A header with bytes that are not ASCII arrives with surrogate escapes; it is compared as
    the bytes it was (and does not match) instead of failing to encode.
    """
    if not given:
        return False
    return hmac.compare_digest(
        given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")
    )


def capped_text(text: str) -> str:
    """The part of a person's message the assistant reads (``MAX_TEXT_CHARS``)."""
    return text[:MAX_TEXT_CHARS]


def parse_json(body: bytes) -> Any:
    """JSON from a request body; ``MalformedRequest`` for anything unreadable, including a
    nesting deep enough to exhaust the parser's recursion (``RecursionError``)."""
    try:
        return json.loads(body)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise MalformedRequest("body is not valid JSON") from error


def parse_form(body: bytes) -> dict[str, list[str]]:
    """Form fields with empty values kept: sanic drops them, which loses an empty ``Body``."""
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(body))
    except (UnicodeDecodeError, ValueError) as error:
        raise MalformedRequest(
            "body must be UTF-8 application/x-www-form-urlencoded fields"
        ) from error
    fields: dict[str, list[str]] = {}
    for name, value in pairs:
        fields.setdefault(name, []).append(value)
    return fields


async def parse_off_loop(parse: Callable[[bytes], T], body: bytes) -> T:
    """``parse(body)``, in a worker thread when the body is large enough to be felt by others."""
    if len(body) <= INLINE_PARSE_BYTES:
        return parse(body)
    return await asyncio.to_thread(parse, body)


class ProviderFailure(Exception):
    """A provider refused a message (``status``) or could not be reached (``status`` None).

    Carries nothing from the request: replies log it and go on, alerts turn it into
    ``AlertNotDelivered`` so that the notifier retries (``retry_after`` seconds when given).
    """

    def __init__(self, status: int | None, reason: str, retry_after: int | None = None) -> None:
        super().__init__(f"HTTP {status} {reason}".strip() if status else reason)
        self.status = status
        self.reason = reason
        self.retry_after = retry_after

    @classmethod
    def unreachable(cls, error: BaseException) -> "ProviderFailure":
        """No answer at all: a timeout or a connection error (named by its type only)."""
        return cls(None, f"provider unreachable ({type(error).__name__})")


def retry_after_seconds(header: str | None, now: datetime | None = None) -> int | None:
    """A ``Retry-After`` header (seconds, or an HTTP date) in whole seconds; None if absent."""
    value = (header or "").strip()
    if value.isdigit():
        return int(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    seconds = (when - (now or datetime.now(timezone.utc))).total_seconds()
    return max(0, int(seconds + 0.999))


def _retry_after(answer: object, headers: Mapping[str, str]) -> int | None:
    """Telegram says when to retry in ``parameters.retry_after``; others in ``Retry-After``."""
    parameters = answer.get("parameters") if isinstance(answer, dict) else None
    seconds = parameters.get("retry_after") if isinstance(parameters, dict) else None
    if isinstance(seconds, int) and not isinstance(seconds, bool) and seconds >= 0:
        return seconds
    return retry_after_seconds(headers.get("Retry-After"))


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """The raw request body, never holding more than ``limit`` bytes of it.

    Our webhook routes are registered with ``stream=True``, so Sanic leaves the body unread and
    it is read here chunk by chunk; on other routes Sanic has read it already.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge
    if request.stream is None:  # not a streaming route: Sanic has already read the body
        if len(request.body) > limit:
            raise BodyTooLarge
        return bytes(request.body)
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = await request.stream.read()
        if chunk is None:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)


def split_message(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` units, cut between paragraphs, else lines, else
    words, so that a long flight list never arrives cut in the middle of a line."""
    pieces: list[str] = []
    rest = text.strip()
    while rest:
        end = prefix_within(rest, limit)  # providers count UTF-16 units: an emoji is two
        if end == len(rest):
            pieces.append(rest)
            break
        cut = -1
        for separator in ("\n\n", "\n", " "):
            cut = rest.rfind(separator, 0, end)
            if cut > 0:
                break
        if cut <= 0:
            cut = end  # one endless word: cut it where the limit falls
        piece = rest[:cut].rstrip()
        if piece:
            pieces.append(piece)
        rest = rest[cut:].lstrip()
    return pieces


def _reason(answer: object) -> str:
    """The provider's reason for an error, without anything from the request (addresses)."""
    if isinstance(answer, dict) and isinstance(answer.get("description"), str):
        return str(answer["description"])  # Telegram: "Forbidden: bot was blocked by the user"
    error = answer.get("error") if isinstance(answer, dict) else None
    return f"(error code {error.get('code')})" if isinstance(error, dict) else ""  # Graph API


class ProviderApi:
    """A provider's HTTP API behind one ``ClientSession``, opened on first use inside the
    server's event loop and closed when the server stops."""

    def __init__(self, base_url: str, headers: dict[str, str] | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self._headers = headers or {}
        self._session: aiohttp.ClientSession | None = None

    async def post(self, path: str, payload: dict[str, Any], what: str) -> dict[str, Any] | None:
        """POST ``payload`` as JSON; the provider's JSON answer, or None when it failed.

        ``what`` names the call in logs: the URL may contain a token, the payload an address.
        Failures are logged, not raised, so one lost reply does not stop the ones after it.
        """
        try:
            return await self.send(path, payload)
        except ProviderFailure as failure:
            logger.warning("%s failed: %s", what, failure)
            return None

    async def send(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        """POST ``payload`` as JSON; the provider's JSON answer, or ``ProviderFailure``."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(headers=self._headers, timeout=API_TIMEOUT)
        try:
            async with self._session.post(f"{self.base_url}{path}", json=payload) as response:
                try:
                    body = await response.json(content_type=None)
                except ValueError:
                    body = None  # a proxy's HTML error page: the status says enough
                if response.status >= 400:
                    retry_after = _retry_after(body, response.headers)
                    raise ProviderFailure(response.status, _reason(body), retry_after)
                if body is None:
                    raise ProviderFailure(None, "provider answer unreadable (not JSON)")
                return body if isinstance(body, dict) else {}
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            raise ProviderFailure.unreachable(error) from error

    async def close(self) -> None:
        """Closes the connection pool (called on server stop and by tests)."""
        if self._session is not None:
            await self._session.close()
            self._session = None


def webhook_blueprint(name: str, api: ProviderApi) -> Blueprint:
    """A connector's blueprint with Rasa's health check at ``/`` and the API session closed
    when the server stops; the connector adds its ``/webhook`` routes."""
    blueprint = Blueprint(name, __name__)

    @blueprint.route("/", methods=["GET"])
    async def health(_: Request) -> HTTPResponse:
        return response.json({"status": "ok"})

    @blueprint.listener("after_server_stop")
    async def close_api(*_: Any) -> None:
        await api.close()

    return blueprint
